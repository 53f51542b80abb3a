"""Wis. Stat. s. 145.20(3): the department reviews each county's program with a random audit of sanitary permits
verified on site, asks the county to respond, follows to closure, holds and lifts a county's issuance, and
records exemptions granted to a governmental unit with their grounds."""
import datetime as dt

import pytest

from powts.audit.models import AuditEvent
from powts.core.refusals import Refused
from powts.oversight import sampling, services
from powts.oversight.errors import OversightRefused
from powts.oversight.models import Exemption, IssuanceHold, ProgramAudit, SampledPermit
from powts.oversight.profile import oversight_profile
from powts.permits import services as permits
from powts.permits.models import Permit
from powts.permits.tests.conftest import file_complete, issue

D = dt.date


def test_the_same_seed_draws_the_same_sample_whatever_the_order():
    """s. 145.20(3)(b) 'random audit': reproducible from the stored seed."""
    ids = list(range(1, 60))
    first = sampling.draw(ids, seed=42, size=10)
    assert first == sampling.draw(list(reversed(ids)), seed=42, size=10)
    assert len(set(first)) == 10 and set(first) <= set(ids)
    assert sampling.draw(ids, seed=43, size=10) != first
    assert sorted(sampling.draw(ids[:4], seed=42, size=10)) == ids[:4]  # fewer permits than the size: all of them


@pytest.mark.parametrize("county", ["dane", "lincoln"], indirect=True)
def test_sample_size_is_the_profiles_and_the_period_bounds_are_inclusive(county, master, dsps, as_user):
    """s. 145.20(3)(b): the text sets no size; the profile's sample_size (a county-program parameter) is used."""
    size = oversight_profile(county.profile_slug).sample_size
    assert size == 10
    inside = [issue(county, master, issued_on=D(2026, 4, 1)), issue(county, master, issued_on=D(2026, 4, 30))]
    issue(county, master, issued_on=D(2026, 5, 1))  # the day after the period
    with as_user(dsps):
        audit = services.audit_draw_sample(jurisdiction=county, period_start=D(2026, 4, 1), period_end=D(2026, 4, 30),
                                           on=D(2026, 6, 1), seed=7)
    assert sorted(s.permit_id for s in audit.samples.all()) == sorted(p.pk for p in inside)
    assert audit.sample_size == size and audit.size_citation == "Wis. Stat. s. 145.20(3)(b)" and audit.reviewer == dsps
    again = services.audit_draw_sample(jurisdiction=county, period_start=D(2026, 4, 1), period_end=D(2026, 4, 30),
                                       on=D(2026, 6, 1), seed=7)
    assert [s.permit_id for s in again.samples.all()] == [s.permit_id for s in audit.samples.all()]


def test_more_permits_than_the_size_draws_the_size(dane, master):
    for day in range(1, 13):
        issue(dane, master, issued_on=D(2026, 4, day), filed_on=D(2026, 3, 2))
    audit = services.audit_draw_sample(jurisdiction=dane, period_start=D(2026, 4, 1), period_end=D(2026, 4, 30), on=D(2026, 6, 1))
    assert audit.samples.count() == 10 and audit.seed >= 0


def test_a_sample_from_an_empty_period_is_refused_and_nothing_is_saved(dane, master):
    """Bad input: a sample drawn from an empty period is refused with the reason."""
    issue(dane, master, issued_on=D(2026, 4, 1))
    with pytest.raises(OversightRefused) as exc:
        services.audit_draw_sample(jurisdiction=dane, period_start=D(2026, 5, 1), period_end=D(2026, 5, 31), on=D(2026, 6, 1))
    assert "issued no sanitary permit" in exc.value.message and exc.value.citation == "Wis. Stat. s. 145.20(3)(b)"
    assert exc.value.field == "period_start"
    assert not ProgramAudit.objects.exists() and not SampledPermit.objects.exists()
    with pytest.raises(OversightRefused):
        services.audit_draw_sample(jurisdiction=dane, period_start=D(2026, 5, 1), period_end=D(2026, 4, 1), on=D(2026, 6, 1))


def _audit(county, master, n=2):
    for day in range(1, n + 1):
        issue(county, master, issued_on=D(2026, 4, day))
    return services.audit_draw_sample(jurisdiction=county, period_start=D(2026, 4, 1), period_end=D(2026, 4, 30),
                                      on=D(2026, 6, 1), seed=1)


def test_verification_response_and_closure(dane, master, make_user, dsps, as_user):
    """s. 145.20(3)(b) 'verification by on-site inspection'; the county responds; the audit closes."""
    audit = _audit(dane, master)
    first, second = audit.samples.all()
    with pytest.raises(Refused, match="findings is required"):
        services.sample_verify(sample=first, outcome="deficient", verified_on=D(2026, 6, 2))
    with pytest.raises(OversightRefused, match="before the permit was issued"):
        services.sample_verify(sample=first, outcome="satisfactory", verified_on=first.permit.issued_on - dt.timedelta(days=1))
    services.sample_verify(sample=first, outcome="satisfactory", verified_on=first.permit.issued_on)  # the same day: fine
    with pytest.raises(OversightRefused, match="not yet verified"):
        services.audit_request_response(audit=audit, on=D(2026, 6, 3), request_text="Explain")
    services.sample_verify(sample=second, outcome="deficient", verified_on=D(2026, 6, 2), findings="No inspection port")
    with pytest.raises(OversightRefused, match="response comes before closing"):
        services.audit_close(audit=audit, on=D(2026, 6, 3), note="done")
    audit = services.audit_request_response(audit=audit, on=D(2026, 6, 3), request_text="Explain the missing port")
    assert audit.respond_by == D(2026, 7, 3)  # the profile's 30 days
    staff = make_user("sam", "county_staff", dane)
    with as_user(staff):
        audit = services.audit_respond(audit=audit, on=D(2026, 6, 20), response_text="Inspector retrained")
    assert audit.responded_by == staff and audit.status == "responded"
    audit = services.audit_close(audit=audit, on=D(2026, 6, 21), note="Response accepted")
    assert audit.status == "closed"
    with pytest.raises(OversightRefused, match="closed"):
        services.sample_verify(sample=first, outcome="deficient", verified_on=D(2026, 6, 22), findings="x")
    assert AuditEvent.objects.filter(action__contains="program audit closed").exists()


@pytest.mark.parametrize("county", ["dane", "lincoln"], indirect=True)
def test_a_hold_stops_issuance_with_its_reason_and_lifting_it_restores_it(county, master, dsps, as_user):
    """s. 145.20(3)(c): the department holds a county's permit issuance; the permits service refuses with the
    reason and citation; after the hold is lifted the permit issues."""
    permit = file_complete(county, master)
    permits.permit_approve(permit=permit, on=D(2026, 3, 30))
    with as_user(dsps):
        hold = services.hold_place(jurisdiction=county, on=D(2026, 4, 1), reason="Audit found plans approved without review")
    with pytest.raises(OversightRefused):
        permits.permit_issue(permit=permit, on=D(2026, 3, 31))  # back-dated to before the hold: still held
    with pytest.raises(OversightRefused) as exc:
        permits.permit_issue(permit=permit, on=D(2026, 4, 2))
    assert "Audit found plans approved without review" in exc.value.message
    assert exc.value.citation == "Wis. Stat. s. 145.20(3)(c)"
    assert Permit.objects.get(pk=permit.pk).status == "approved"  # nothing half-saved
    with pytest.raises(OversightRefused, match="already on hold"):
        services.hold_place(jurisdiction=county, on=D(2026, 4, 2), reason="again")
    with pytest.raises(OversightRefused, match="before the hold"):
        services.hold_lift(hold=hold, on=D(2026, 3, 31), note="x")
    services.hold_lift(hold=hold, on=D(2026, 4, 3), note="Corrective plan accepted")
    assert permits.permit_issue(permit=permit, on=D(2026, 4, 3)).status == "issued"


def test_a_hold_on_one_county_does_not_stop_the_other(dane, lincoln, master):
    services.hold_place(jurisdiction=dane, on=D(2026, 4, 1), reason="Dane held")
    assert issue(lincoln, master, issued_on=D(2026, 4, 2)).status == "issued"
    assert IssuanceHold.objects.filter(jurisdiction=dane, lifted_on__isnull=True).count() == 1


def test_staff_see_the_hold_on_the_permit_page(client, dane, master, make_user):
    permit = file_complete(dane, master)
    services.hold_place(jurisdiction=dane, on=D(2026, 4, 1), reason="Program review pending")
    client.force_login(make_user("sam", "county_staff", dane))
    page = client.get(permit.get_absolute_url()).content.decode()
    assert "held this county's permit issuance" in page and "Program review pending" in page
    assert "Wis. Stat. s. 145.20(3)(c)" in page
    dashboard = client.get("/maintenance/").content.decode()
    assert "Permit issuance is held" in dashboard and "Program review pending" in dashboard


def test_an_exemption_is_recorded_with_its_grounds_and_can_be_revoked(dane):
    """s. 145.20(3)(a)2.: exemptions granted to a governmental unit, on grounds, revocable."""
    ex = services.exemption_grant(jurisdiction=dane, category="Holding tanks over 3,000 gpd", on=D(2026, 1, 5),
                                  grounds="Satisfactory audits 2023-2025; two certified plan reviewers")
    assert ex.citation == "Wis. Stat. s. 145.20(3)(a)2."
    with pytest.raises(Refused, match="grounds is required"):
        services.exemption_grant(jurisdiction=dane, category="x", grounds="  ", on=D(2026, 1, 5))
    assert Exemption.objects.count() == 1
    services.exemption_hearing_notice(exemption=ex, noticed_on=D(2026, 7, 1), hearing_on=D(2026, 8, 1), clerk="County Clerk")
    services.exemption_revoke(exemption=ex, on=D(2026, 9, 1), grounds="Unsatisfactory audit after hearing")
    with pytest.raises(OversightRefused, match="revoked"):
        services.exemption_revoke(exemption=ex, on=D(2026, 9, 2), grounds="again")


# -- s. 145.20(3)(a)2.: revocation only after a public hearing on 30 days' notice to the clerk ------------------

REVOCATION = "Wis. Stat. s. 145.20(3)(a)2."


def _exemption(dane):
    return services.exemption_grant(jurisdiction=dane, category="Holding tanks over 3,000 gpd", on=D(2026, 1, 5),
                                    grounds="Satisfactory audits")


@pytest.mark.parametrize("hearing_on,ok", [(D(2026, 7, 31), True), (D(2026, 7, 30), False)])
def test_145_20_3_a_2_hearing_at_least_30_days_after_the_notice(dane, hearing_on, ok):
    """s. 145.20(3)(a)2. "upon 30 days' advance notice to the clerk": notice July 1, a hearing July 31 is allowed,
    July 30 is refused and nothing is recorded."""
    ex = _exemption(dane)
    if ok:
        services.exemption_hearing_notice(exemption=ex, noticed_on=D(2026, 7, 1), hearing_on=hearing_on, clerk="Scott McDonell")
        ex.refresh_from_db()
        assert (ex.hearing_noticed_on, ex.hearing_on, ex.hearing_clerk) == (D(2026, 7, 1), hearing_on, "Scott McDonell")
        assert AuditEvent.objects.filter(action__contains="revocation hearing").exists()
    else:
        with pytest.raises(OversightRefused) as exc:
            services.exemption_hearing_notice(exemption=ex, noticed_on=D(2026, 7, 1), hearing_on=hearing_on, clerk="Clerk")
        assert exc.value.citation == REVOCATION and "hearing_on" in exc.value.errors
        ex.refresh_from_db()
        assert ex.hearing_on is None


def test_145_20_3_a_2_no_revocation_without_the_hearing(dane):
    """s. 145.20(3)(a)2. "Findings in a revocation action may be made only after a public hearing": refused, unchanged."""
    ex = _exemption(dane)
    with pytest.raises(OversightRefused) as exc:
        services.exemption_revoke(exemption=ex, on=D(2026, 9, 1), grounds="Unsatisfactory audit")
    assert exc.value.citation == REVOCATION
    ex.refresh_from_db()
    assert ex.revoked_on is None


@pytest.mark.parametrize("on,ok", [(D(2026, 8, 1), True), (D(2026, 7, 31), False)])
def test_145_20_3_a_2_revocation_on_or_after_the_hearing(dane, on, ok):
    """The hearing on August 1 (noticed July 1): revoked that day, refused the day before (earlier than the hearing
    is also earlier than 30 days after the notice)."""
    ex = _exemption(dane)
    services.exemption_hearing_notice(exemption=ex, noticed_on=D(2026, 7, 1), hearing_on=D(2026, 8, 1), clerk="Clerk")
    if ok:
        assert services.exemption_revoke(exemption=ex, on=on, grounds="Unsatisfactory audit").revoked_on == on
    else:
        with pytest.raises(OversightRefused) as exc:
            services.exemption_revoke(exemption=ex, on=on, grounds="Unsatisfactory audit")
        assert "on" in exc.value.errors
        ex.refresh_from_db()
        assert ex.revoked_on is None


def test_145_20_3_a_2_notice_not_before_the_grant(dane):
    ex = _exemption(dane)
    with pytest.raises(OversightRefused) as exc:
        services.exemption_hearing_notice(exemption=ex, noticed_on=D(2026, 1, 4), hearing_on=D(2026, 3, 1), clerk="Clerk")
    assert "noticed_on" in exc.value.errors


def test_the_department_notices_the_hearing_through_the_api(dane, make_user):
    from rest_framework.test import APIClient

    ex = _exemption(dane)
    api = APIClient()
    api.force_authenticate(make_user("dee", "dsps"))
    url = f"/api/oversight/exemptions/{ex.pk}/hearing/"
    r = api.post(url, {"noticed_on": "2026-07-01", "hearing_on": "2026-07-15", "clerk": "Clerk"}, format="json")
    assert r.status_code == 400 and r.json()["citation"] == REVOCATION
    r = api.post(url, {"noticed_on": "2026-07-01", "hearing_on": "2026-08-01", "clerk": "Clerk"}, format="json")
    assert r.status_code == 201, r.content
    r = api.post(f"/api/oversight/exemptions/{ex.pk}/revoke/", {"on": "2026-08-02", "grounds": "audit"}, format="json")
    assert r.status_code == 201, r.content
