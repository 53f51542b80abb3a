"""Lincoln's provisions: Reconnection (4) (a structure replaced within 2 years of a
reconnection permit), Construction Affecting Wastewater Flow or Contaminant Load (3) (the recorded affidavit for
an undersized system; Dane s. 46.14(4)(c)2.b. for comparison) and Abandonment of Private Sewage Systems (1)
(the replaced system's components abandoned by the installing plumber before final approval)."""
import datetime as dt

import pytest

from powts.audit.models import AuditEvent
from powts.permits import choices as c
from powts.permits import services
from powts.permits.errors import PermitRefused
from powts.permits.models import ComponentAbandonment, Permit
from powts.permits.services import site
from powts.permits.tests.conftest import issue, make_parcel

D = dt.date
SHORT_DOCS = ["not_altered", "no_flow_change", "plan"]
LINCOLN_FLOW_DOCS = ["application_items", "soil_report", "tank_report", "not_failing", "plan"]
DANE_DOCS_BUT_SIZING = ["not_failing", "setbacks", "soil_report", "plan", "tank_report"]


def _reconnection_permit(lincoln, master, issued_on):
    permit = issue(lincoln, master, issued_on=issued_on, kind=c.PermitKind.RECONNECTION)
    return permit


# -- Lincoln Reconnection (4) ----------------------------------------------------------------------------

@pytest.mark.parametrize("requested_on,short", [(D(2028, 4, 1), True), (D(2028, 4, 2), False)])
def test_lincoln_reconnection_4_replacing_within_2_years_needs_three_documents_only(lincoln, master, requested_on, short):
    """Lincoln Reconnection (4): within 2 years of the reconnection permit's issuance (2026-04-01 to 2028-04-01)
    the three statements suffice; a day later the full Reconnection (3) list is needed again."""
    permit = _reconnection_permit(lincoln, master, D(2026, 4, 1))
    cl = site.clearance_request(jurisdiction=lincoln, parcel=permit.parcel, kind="reconnect_other",
                                requested_on=requested_on, documents=SHORT_DOCS)
    assert cl.approved is short
    if short:
        assert "Reconnection (4)" in cl.findings[0]["citation"] and permit.number in cl.findings[0]["citation"]
    else:
        assert cl.findings[0]["citation"] == "Lincoln County Ch. 22 (draft), Reconnection (3)"
        assert "Reconnection (3)(c)" in cl.findings[0]["message"]


def test_lincoln_reconnection_4_lists_the_missing_statement(lincoln, master):
    """Lincoln Reconnection (4): the plot plan alone is not enough; the two statements are named."""
    permit = _reconnection_permit(lincoln, master, D(2026, 4, 1))
    cl = site.clearance_request(jurisdiction=lincoln, parcel=permit.parcel, kind="rebuild", requested_on=D(2027, 1, 5),
                                documents=["plan"])
    assert not cl.approved
    assert "has not been altered" in cl.findings[0]["message"] and "will not change" in cl.findings[0]["message"]


def test_lincoln_reconnection_4_needs_a_reconnection_permit_not_any_permit(lincoln, master):
    """Lincoln Reconnection (4) speaks of "a sanitary permit for reconnection": a state permit does not shorten the list."""
    permit = issue(lincoln, master, issued_on=D(2026, 4, 1))
    cl = site.clearance_request(jurisdiction=lincoln, parcel=permit.parcel, kind="reconnect_other",
                                requested_on=D(2026, 6, 1), documents=SHORT_DOCS)
    assert not cl.approved


def test_dane_has_no_short_list_after_a_reconnection(dane, master):
    """Dane s. 46.14(3) has no Reconnection (4) counterpart: the full documentation is asked for."""
    permit = issue(dane, master, issued_on=D(2026, 4, 1), kind=c.PermitKind.RECONNECTION)
    cl = site.clearance_request(jurisdiction=dane, parcel=permit.parcel, kind="reconnect_other",
                                requested_on=D(2026, 6, 1), documents=SHORT_DOCS)
    assert not cl.approved and cl.findings[0]["citation"] == "Dane County Code s. 46.14(3)(b), (4)(c)"


# -- Lincoln Flow (3); Dane 46.14(4)(c)2.b. --------------------------------------------------------------

FLOW3 = "Lincoln County Ch. 22 (draft), Construction Affecting Wastewater Flow or Contaminant Load (3)"


@pytest.mark.parametrize("short,allowed", [(1, True), (2, False)])
def test_lincoln_flow_3_undersized_by_one_bedroom_or_less_with_recorded_affidavit(lincoln, short, allowed):
    """Lincoln Flow (3): undersized "by wastewater load design equivalent to one bedroom or less" is allowed with the
    recorded affidavit; by two bedrooms it is not, affidavit or not."""
    parcel, _ = make_parcel(lincoln, number="UF-1")
    cl = site.clearance_request(jurisdiction=lincoln, parcel=parcel, kind="flow_change", requested_on=D(2026, 5, 4),
                                bedrooms_before=3, bedrooms_after=4, documents=LINCOLN_FLOW_DOCS,
                                undersized_bedrooms=short, affidavit_recording_number="R-778899",
                                affidavit_recorded_on=D(2026, 5, 1))
    assert cl.approved is allowed
    last = cl.findings[-1]
    assert last["citation"] == FLOW3
    if not allowed:
        assert "more than 1" in last["message"] and "sanitary permit" in last["message"]
    else:
        assert cl.affidavit_recording_number == "R-778899" and cl.undersized_bedrooms == 1


def test_lincoln_flow_3_affidavit_not_yet_recorded_holds_the_clearance(lincoln):
    """Lincoln Flow (3): "an affidavit ... is recorded": without its recording number and date no clearance."""
    parcel, _ = make_parcel(lincoln, number="UF-2")
    cl = site.clearance_request(jurisdiction=lincoln, parcel=parcel, kind="flow_change", requested_on=D(2026, 5, 4),
                                bedrooms_before=3, bedrooms_after=4, documents=LINCOLN_FLOW_DOCS, undersized_bedrooms=1)
    assert not cl.approved and "register of deeds" in cl.findings[-1]["message"]


@pytest.mark.parametrize("recorded_on,ok", [(D(2026, 5, 4), True), (D(2026, 5, 5), False)])
def test_flow_3_affidavit_recorded_on_or_before_the_request(lincoln, recorded_on, ok):
    """Lincoln Flow (3): a recording dated after the request cannot have been verified; it is refused, nothing saved."""
    from powts.permits.models import Clearance

    parcel, _ = make_parcel(lincoln, number="UF-3")
    kw = dict(jurisdiction=lincoln, parcel=parcel, kind="flow_change", requested_on=D(2026, 5, 4), bedrooms_before=3,
              bedrooms_after=4, documents=LINCOLN_FLOW_DOCS, undersized_bedrooms=1,
              affidavit_recording_number="R-1", affidavit_recorded_on=recorded_on)
    if ok:
        assert site.clearance_request(**kw).approved
    else:
        with pytest.raises(PermitRefused) as exc:
            site.clearance_request(**kw)
        assert exc.value.field == "affidavit_recorded_on" and exc.value.citation == FLOW3
        assert not Clearance.objects.filter(parcel=parcel).exists()


@pytest.mark.parametrize("county", ["dane", "lincoln"], indirect=True)
def test_a_recording_number_for_an_affidavit_never_required_is_refused(county):
    """Bad input: a recording number for a document that was never required (the system is not undersized)."""
    from powts.permits.models import Clearance

    parcel, _ = make_parcel(county, number="UF-4")
    with pytest.raises(PermitRefused) as exc:
        site.clearance_request(jurisdiction=county, parcel=parcel, kind="flow_change", requested_on=D(2026, 5, 4),
                               bedrooms_before=3, bedrooms_after=4, affidavit_recording_number="R-2",
                               affidavit_recorded_on=D(2026, 5, 1))
    assert exc.value.field == "affidavit_recording_number"
    assert not Clearance.objects.filter(parcel=parcel).exists()


def test_a_recording_number_without_its_date_is_refused(lincoln):
    parcel, _ = make_parcel(lincoln, number="UF-5")
    with pytest.raises(PermitRefused) as exc:
        site.clearance_request(jurisdiction=lincoln, parcel=parcel, kind="flow_change", requested_on=D(2026, 5, 4),
                               bedrooms_before=3, bedrooms_after=4, undersized_bedrooms=1, affidavit_recording_number="R-3")
    assert exc.value.field == "affidavit_recorded_on"


@pytest.mark.parametrize("affidavit,approved", [(True, True), (False, False)])
def test_dane_46_14_4_c_2_b_recorded_affidavit_stands_for_the_sizing_whatever_the_shortfall(dane, affidavit, approved):
    """Dane 46.14(4)(c)2.b.: a recorded undersized affidavit is the sizing information; Dane sets no one-bedroom limit
    (two bedrooms short is accepted, unlike Lincoln); without it the sizing is missing."""
    parcel, _ = make_parcel(dane, number="UF-6")
    kw = dict(affidavit_recording_number="DR-55", affidavit_recorded_on=D(2026, 5, 1)) if affidavit else {}
    cl = site.clearance_request(jurisdiction=dane, parcel=parcel, kind="flow_change", requested_on=D(2026, 5, 4),
                                bedrooms_before=3, bedrooms_after=5, documents=DANE_DOCS_BUT_SIZING,
                                undersized_bedrooms=2, **kw)
    assert cl.approved is approved
    assert cl.findings[-1]["citation"] == "Dane County Code s. 46.14(4)(c)2.b."
    assert ("sizing" in cl.documents) is affidavit


def test_the_api_clearance_takes_the_affidavit(lincoln, make_user):
    """Lincoln Flow (3) through /api/clearances/: the affidavit's number and date come back approved."""
    from rest_framework.test import APIClient

    staff = make_user("lin-staff", "county_staff", lincoln)
    parcel, _ = make_parcel(lincoln, number="UF-7")
    api = APIClient()
    api.force_authenticate(staff)
    r = api.post("/api/clearances/", {"parcel_number": parcel.parcel_number, "kind": "flow_change", "bedrooms_before": 3,
                                      "bedrooms_after": 4, "documents": LINCOLN_FLOW_DOCS, "undersized_bedrooms": 1,
                                      "affidavit_recording_number": "R-9", "affidavit_recorded_on": "2026-05-01",
                                      "requested_on": "2026-05-04"}, format="json")
    assert r.status_code == 201 and r.json()["approved"], r.json()
    r = api.post("/api/clearances/", {"parcel_number": parcel.parcel_number, "kind": "flow_change", "bedrooms_before": 3,
                                      "bedrooms_after": 4, "affidavit_recording_number": "R-9",
                                      "affidavit_recorded_on": "2026-05-01", "requested_on": "2026-05-04"}, format="json")
    assert r.status_code == 400 and "affidavit_recording_number" in r.json()["errors"]


# -- Lincoln Abandonment (1) -----------------------------------------------------------------------------

ABANDON = "Lincoln County Ch. 22 (draft), Abandonment of Private Sewage Systems (1)"


def _pass_inspections(permit, on):
    from powts.permits.selectors import stages_for

    for stage in stages_for(permit):
        if stage.optional:
            continue
        insp = services.inspection_request(permit=permit, stage=stage.id,
                                           notice_at=dt.datetime(2026, 5, 1, 8, tzinfo=dt.UTC), requested_day=on)
        services.inspection_record(inspection=insp, result=c.InspectionResult.PASSED, on=on)


def test_lincoln_abandonment_1_final_approval_waits_for_the_abandonment(lincoln, master):
    """Lincoln Abandonment (1): components not in the replacement's design are abandoned "at the time of the
    installation" by the installing plumber; final approval is refused until that is recorded, then given."""
    permit = issue(lincoln, master, issued_on=D(2026, 4, 1), replaces_system=True)
    _pass_inspections(permit, D(2026, 5, 12))
    with pytest.raises(PermitRefused) as exc:
        services.permit_final_approve(permit=permit, on=D(2026, 5, 15))
    assert exc.value.citation == ABANDON
    assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.ISSUED
    done = services.replaced_components_abandon(permit=permit, plumber=master, components="septic tank and drainfield",
                                                method="crushed_filled", abandoned_on=D(2026, 5, 12))
    assert AuditEvent.objects.filter(content_type__model="componentabandonment", object_id=str(done.pk)).exists()
    services.permit_final_approve(permit=permit, on=D(2026, 5, 15))
    assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.COMPLETED


@pytest.mark.parametrize("abandoned_on,ok", [(D(2026, 5, 15), True), (D(2026, 5, 16), False)])
def test_lincoln_abandonment_1_recorded_by_the_day_of_final_approval(lincoln, master, abandoned_on, ok):
    """Lincoln Abandonment (1) "at the time of the installation": an abandonment dated after the final approval
    day does not count for it (on the day: approved; the day after: refused)."""
    permit = issue(lincoln, master, issued_on=D(2026, 4, 1), replaces_system=True)
    _pass_inspections(permit, D(2026, 5, 12))
    services.replaced_components_abandon(permit=permit, plumber=master, components="septic tank", method="removed",
                                         abandoned_on=abandoned_on)
    if ok:
        services.permit_final_approve(permit=permit, on=D(2026, 5, 15))
    else:
        with pytest.raises(PermitRefused):
            services.permit_final_approve(permit=permit, on=D(2026, 5, 15))


def test_lincoln_abandonment_1_by_the_plumber_installing_the_system(lincoln, master, master2):
    """Lincoln Abandonment (1): "by the plumber installing the system": another plumber's record is refused."""
    permit = issue(lincoln, master, issued_on=D(2026, 4, 1), replaces_system=True)
    with pytest.raises(PermitRefused) as exc:
        services.replaced_components_abandon(permit=permit, plumber=master2, components="septic tank", method="removed",
                                             abandoned_on=D(2026, 5, 1))
    assert exc.value.field == "plumber" and exc.value.citation == ABANDON
    assert not ComponentAbandonment.objects.exists()


@pytest.mark.parametrize("on,ok", [(D(2026, 4, 1), True), (D(2026, 3, 31), False)])
def test_lincoln_abandonment_1_not_before_the_permit_issued(lincoln, master, on, ok):
    """Lincoln Abandonment (1): at the time of the installation, so not before the replacement's permit issued."""
    permit = issue(lincoln, master, issued_on=D(2026, 4, 1), replaces_system=True)
    if ok:
        services.replaced_components_abandon(permit=permit, plumber=master, components="tank", method="removed",
                                             abandoned_on=on)
    else:
        with pytest.raises(PermitRefused) as exc:
            services.replaced_components_abandon(permit=permit, plumber=master, components="tank", method="removed",
                                                 abandoned_on=on)
        assert exc.value.field == "abandoned_on"


def test_lincoln_abandonment_1_only_for_a_replacement(lincoln, master):
    permit = issue(lincoln, master, issued_on=D(2026, 4, 1))
    with pytest.raises(PermitRefused):
        services.replaced_components_abandon(permit=permit, plumber=master, components="tank", method="removed",
                                             abandoned_on=D(2026, 5, 1))


def test_dane_final_approval_of_a_replacement_does_not_wait(dane, master):
    """Dane has no Abandonment (1) counterpart (its owner files the final report, s. 46.11(5)2.): final approval
    of a replacement is not held, and the plumber's record is refused as not the county's."""
    permit = issue(dane, master, issued_on=D(2026, 4, 1), replaces_system=True)
    _pass_inspections(permit, D(2026, 5, 12))
    with pytest.raises(PermitRefused):
        services.replaced_components_abandon(permit=permit, plumber=master, components="tank", method="removed",
                                             abandoned_on=D(2026, 5, 12))
    services.permit_final_approve(permit=permit, on=D(2026, 5, 15))
    assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.COMPLETED


def test_the_plumber_records_the_abandonment_through_the_api(lincoln, master, plumber_user):
    """Lincoln Abandonment (1) through /api/permits/<pk>/actions/abandon-components/, as the permit's plumber."""
    from rest_framework.test import APIClient

    permit = issue(lincoln, master, issued_on=D(2026, 4, 1), replaces_system=True)
    api = APIClient()
    api.force_authenticate(plumber_user)
    url = f"/api/permits/{permit.pk}/actions/abandon-components/"
    r = api.post(url, {"components": "septic tank", "method": "sideways", "on": "2026-05-01"}, format="json")
    assert r.status_code == 400 and not ComponentAbandonment.objects.exists()
    r = api.post(url, {"components": "septic tank", "method": "removed", "on": "2026-05-01"}, format="json")
    assert r.status_code in (200, 201), r.content
    assert ComponentAbandonment.objects.get().plumber == master
