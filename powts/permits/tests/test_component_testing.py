"""Component testing. Dane s. 46.11(2) (notice like an inspection notice; verification by
inspection during the test, written results, or both), (3) (a properly licensed individual tests), (4) (no use
before acceptance); Lincoln, Testing (1)-(2)."""
import datetime as dt

import pytest

from powts.accounts.services import license_create
from powts.permits import choices as c
from powts.permits import selectors, services
from powts.permits.errors import PermitRefused
from powts.permits.models import ComponentTest, Permit
from powts.permits.tests.conftest import issue

D = dt.date
BOTH = pytest.mark.parametrize("county", ["dane", "lincoln"], indirect=True)
MONDAY_8AM = dt.datetime(2026, 4, 6, 8, 0)


def err(exc) -> str:
    return f"{exc.value.message} [{exc.value.citation}]"


def pass_inspections(permit):
    for s in selectors.stages_for(permit):
        if not s.optional:
            i = services.inspection_request(permit=permit, stage=s.id, notice_at=dt.datetime(2026, 4, 13, 7, 0))
            services.inspection_record(inspection=i, result="passed", on=i.requested_day)


@BOTH
def test_noticed_test_blocks_final_approval_until_verified_as_passed(county, master):
    """Dane s. 46.11(2), (4); Lincoln, Testing (2): the county verifies required testing."""
    permit = issue(county, master)
    test = services.component_test_notify(permit=permit, component="septic tank watertightness", notice_at=MONDAY_8AM,
                                          tester=master)
    pass_inspections(permit)
    with pytest.raises(PermitRefused) as exc:
        services.permit_final_approve(permit=permit, on=D(2026, 4, 20))
    assert "septic tank watertightness" in err(exc)
    assert {"dane": "s. 46.11(4)", "lincoln": "Testing (2)"}[county.slug] in exc.value.citation
    services.component_test_verify(test=test, method="both", passed=True, on=test.requested_day,
                                   results="held water 24 h, no drop")
    services.permit_final_approve(permit=permit, on=D(2026, 4, 20))
    assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.COMPLETED


def test_dane_46_11_2_test_notice_follows_the_inspection_notice_rule(dane, master):
    """Notice "in the same manner as notification for system inspections": by 9:00 A.M. (s. 46.11(1))."""
    permit = issue(dane, master)
    test = services.component_test_notify(permit=permit, component="pressure test", notice_at=dt.datetime(2026, 4, 6, 9, 0),
                                          requested_day=D(2026, 4, 6), tester=master)
    assert test.requested_day == D(2026, 4, 6)
    with pytest.raises(PermitRefused) as exc:
        services.component_test_notify(permit=permit, component="pressure test", notice_at=dt.datetime(2026, 4, 7, 9, 1),
                                       requested_day=D(2026, 4, 7), tester=master)
    assert "46.11(1)" in err(exc)


def test_dane_46_11_3_tester_must_be_licensed_lincoln_names_no_licence(dane, lincoln, master):
    tester = license_create(kind="septage_operator", number="SSO-9", holder_name="Sam Septage")
    permit = issue(dane, master)
    with pytest.raises(PermitRefused) as exc:
        services.component_test_notify(permit=permit, component="tank", notice_at=MONDAY_8AM, tester=tester)
    assert "Dane County Code s. 46.11(3)" in err(exc) and exc.value.field == "tester_license"
    with pytest.raises(PermitRefused):
        services.component_test_notify(permit=permit, component="tank", notice_at=MONDAY_8AM)
    assert not ComponentTest.objects.exists()
    lincoln_permit = issue(lincoln, master)
    services.component_test_notify(permit=lincoln_permit, component="tank", notice_at=MONDAY_8AM)


@BOTH
def test_written_verification_carries_results_and_method_is_checked(county, master):
    permit = issue(county, master)
    test = services.component_test_notify(permit=permit, component="tank", notice_at=MONDAY_8AM, tester=master)
    with pytest.raises(PermitRefused) as exc:
        services.component_test_verify(test=test, method="written", passed=True, on=test.requested_day)
    assert exc.value.field == "results"
    with pytest.raises(PermitRefused) as exc:
        services.component_test_verify(test=test, method="guess", passed=True, on=test.requested_day)
    assert exc.value.field == "method"
    services.component_test_verify(test=test, method="inspected", passed=False, on=test.requested_day)
    test.refresh_from_db()
    assert (test.verification, test.passed) == ("inspected", False)
    with pytest.raises(PermitRefused):
        services.component_test_verify(test=test, method="inspected", passed=True, on=test.requested_day)
