"""The county's side: s. 145.246(8) conditions and the (7)(a) application for participation; DSPS (13)(a), (11)(a)."""
import datetime as dt

import pytest

from powts.audit.models import AuditEvent
from powts.core.refusals import Refused
from powts.grants import participation as svc
from powts.grants.models import CountyCertification, ParticipationApplication, ParticipationItem
from powts.grants.tests.program_helpers import application, inventory_system

FY = "2026-27"


@pytest.fixture
def county(dane):
    inventory_system(dane)
    return dane


@pytest.fixture
def dsps(make_user):
    return make_user("dee", "dsps")


def certify(county, staff, **kw):
    return svc.certify(jurisdiction=county, fiscal_year=FY, user=staff, official_title="Sanitarian", **kw)


def test_certify_records_8a_8e_checked_and_8b_d_by_named_official(county, staff):
    """s. 145.246(8)(a), (e) checked from the records; (b)-(d) certified by a named official, audited."""
    cert = certify(county, staff, official_name="Sam Sanitarian")
    assert cert.official_name == "Sam Sanitarian" and cert.official_title == "Sanitarian"
    assert cert.checked["maintenance_program"]["met"] and cert.checked["maintenance_program"]["program_start_on"]
    assert cert.checked["regulation_inspection"] == {**cert.checked["regulation_inspection"], "met": True,
                                                     "systems_in_inventory": 1}
    assert cert.checked["maintenance_program"]["citation"] == "Wis. Stat. s. 145.246(8)(a)"
    assert AuditEvent.objects.filter(object_id=cert.pk, action__contains="certified").exists()


def test_certify_refused_for_someone_not_county_staff(county, make_user, lincoln):
    """Bad input: a certification by someone who is not the county's staff is refused; nothing saved."""
    other = make_user("lin", "county_staff", lincoln)
    owner = make_user("own", "owner")
    for user in (other, owner):
        with pytest.raises(Refused) as e:
            certify(county, user)
        assert "user" in e.value.errors and "145.246(8)" in e.value.citation
    assert not CountyCertification.objects.exists()


def test_certify_refused_without_inventory_8e(dane, staff):
    """s. 145.246(8)(e): no inventory of systems -> no process for regulation and inspection shown."""
    with pytest.raises(Refused) as e:
        certify(dane, staff)
    assert "regulation_inspection" in e.value.errors and e.value.citation == "Wis. Stat. s. 145.246(8)(e)"
    assert not CountyCertification.objects.exists()


def test_certify_refused_before_maintenance_program_starts_8a(county, staff):
    """s. 145.246(8)(a): a county whose maintenance program has not begun (its start date after the day) is refused."""
    with pytest.raises(Refused) as e:
        certify(county, staff, on=dt.date(2019, 9, 30))
    assert e.value.citation == "Wis. Stat. s. 145.246(8)(a)"
    assert certify(county, staff, on=dt.date(2019, 10, 1)).checked["maintenance_program"]["met"]


def test_certify_refused_when_a_condition_is_not_certified_8c(county, staff):
    """s. 145.246(8)(c): each of (b)-(d) must be certified."""
    with pytest.raises(Refused) as e:
        certify(county, staff, installed_and_maintained=False)
    assert "installed_and_maintained" in e.value.errors and e.value.citation.endswith("(8)(c)")


def test_submit_before_february_1_received_with_eligible_applications(county, staff):
    """s. 145.246(7)(a): received January 31, 2026 (before February 1 of the previous fiscal year): accepted."""
    certify(county, staff)
    ok = application(county)
    application(county, income="90000")  # not eligible: over the income limit, not carried
    part = svc.submit(jurisdiction=county, fiscal_year=FY, user=staff, received_on=dt.date(2026, 1, 31))
    assert part.status == "received"
    assert list(part.items.values_list("application_id", flat=True)) == [ok.pk]


def test_submit_on_february_1_refused(county, staff):
    """s. 145.246(7)(a): received on February 1, 2026 is not 'prior to February 1': refused, nothing saved."""
    certify(county, staff)
    application(county)
    with pytest.raises(Refused) as e:
        svc.submit(jurisdiction=county, fiscal_year=FY, user=staff, received_on=dt.date(2026, 2, 1))
    assert "received_on" in e.value.errors and e.value.citation == "Wis. Stat. s. 145.246(7)(a)"
    assert "February 1, 2026" in str(e.value)
    assert not ParticipationApplication.objects.exists() and not ParticipationItem.objects.exists()


def test_submit_without_certification_refused(county, staff):
    """s. 145.246(8): the conditions come first."""
    application(county)
    with pytest.raises(Refused) as e:
        svc.submit(jurisdiction=county, fiscal_year=FY, user=staff, received_on=dt.date(2026, 1, 2))
    assert "certification" in e.value.errors
    assert not ParticipationApplication.objects.exists()


def test_submit_twice_refused(county, staff):
    certify(county, staff)
    application(county)
    svc.submit(jurisdiction=county, fiscal_year=FY, user=staff, received_on=dt.date(2026, 1, 2))
    with pytest.raises(Refused):
        svc.submit(jurisdiction=county, fiscal_year=FY, user=staff, received_on=dt.date(2026, 1, 3))


def test_fiscal_year_label_is_checked(county, staff):
    with pytest.raises(Refused) as e:
        svc.certify(jurisdiction=county, fiscal_year="2026-28", user=staff, official_title="x")
    assert "fiscal_year" in e.value.errors


def test_dsps_review_13a_and_revisions_11a(county, staff, dsps):
    """(13)(a) review with reason; (11)(a) revision of an owner's eligibility and of the county's conditions."""
    certify(county, staff)
    application(county)
    part = svc.submit(jurisdiction=county, fiscal_year=FY, user=staff, received_on=dt.date(2026, 1, 2))
    with pytest.raises(Refused):
        svc.review(participation=part, user=staff, meets_conditions=True)  # county staff do not review
    with pytest.raises(Refused) as e:
        svc.review(participation=part, user=dsps, meets_conditions=False)  # a refusal needs its reason
    assert "reason" in e.value.errors
    part = svc.review(participation=part, user=dsps, meets_conditions=True)
    assert part.status == "approved" and part.reviewed_by == dsps
    item = part.items.get()
    item = svc.revise_item(item=item, user=dsps, reason="income above the limit on the return received")
    assert not item.included and item.revised_by == dsps
    part = svc.revise_county(participation=part, user=dsps, reason="maintenance program not administered")
    assert part.status == "revised" and part.review_reason
    assert AuditEvent.objects.filter(action__contains="taken out").exists()
