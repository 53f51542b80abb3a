"""Soil evaluations (Dane s. 46.10), building-permit gates and reconnections (Dane s. 46.14; Lincoln
Sanitary Permits (6), Reconnection, Construction Affecting Wastewater Flow), emergency work (Dane
s. 46.07(2)), failing systems, correction orders (Lincoln Limitations (4)), variances (s. 145.24),
the permit card, the iCalendar feed and Open311 complaints."""
import datetime as dt

import pytest

from powts.accounts.services import license_create
from powts.audit.models import AuditEvent
from powts.inventory.services import system_create
from powts.permits import choices as c
from powts.permits import documents, services
from powts.permits.errors import PermitRefused
from powts.permits.services import enforcement as enf
from powts.permits.services import site
from powts.permits.tests.conftest import issue, make_parcel

D = dt.date
BOTH = pytest.mark.parametrize("county", ["dane", "lincoln"], indirect=True)


def err(exc) -> str:
    return f"{exc.value.message} [{exc.value.citation}]"


@pytest.fixture
def tester(db):
    return license_create(kind="soil_tester", number="CST-77", holder_name="Sandy Soil")


@pytest.fixture
def inspector_license(db):
    return license_create(kind="powts_inspector", number="PI-9", holder_name="Ivy Inspector")


def good_area(**kw):
    area = {"name": "Primary", "pits": 3, "depth_below_infiltrative_in": 36, "suitable_soil_in": 36, "frozen_within_in": None}
    area.update(kw)
    return area


# -- soil (Dane s. 46.10) ---------------------------------------------------------------------

@pytest.mark.parametrize("filed_on,late_days", [(D(2026, 5, 31), 0), (D(2026, 6, 1), 1), (D(2026, 7, 15), 45)])
def test_dane_46_10_4_a_late_soil_report_is_recorded_late_not_refused(dane, tester, filed_on, late_days):
    """Dane 46.10(4)(a): filed within 30 days of the fieldwork is on time (day 30); after that the report is kept,
    marked late with how late, and can still be verified (the filing duty does not make the soil unsuitable)."""
    parcel, _ = make_parcel(dane)
    areas = [good_area(), good_area(name="Replacement", replacement=True)]
    ev = site.soil_evaluation_file(jurisdiction=dane, parcel=parcel, soil_tester=tester, fieldwork_completed_on=D(2026, 5, 1),
                                   filed_on=filed_on, areas=areas)
    assert ev.due_on == D(2026, 5, 31) and ev.late_days == late_days
    assert all(f["ok"] for f in ev.findings)
    assert site.soil_evaluation_verify(evaluation=ev, outcome="issue", on=filed_on).verification == "issue"
    action = AuditEvent.objects.filter(object_id=ev.pk, action__startswith="soil and site evaluation filed").get().action
    assert ("late" in action and "46.10(4)(a)" in action) is bool(late_days)


@pytest.mark.parametrize("change, citation", [
    ({"pits": 2}, "Dane County Code s. 46.10(4)(b)1., (9)(a)"),
    ({"depth_below_infiltrative_in": 35}, "Dane County Code s. 46.10(9)(a)"),
    ({"frozen_within_in": 4}, "Dane County Code s. 46.10(9)(b)"),
    ({"suitable_soil_in": 35}, "Dane County Code s. 46.10(7)"),
    ({"suitable_soil_in": 47, "below_grade_gravity": True}, "Dane County Code s. 46.10(7)"),
])
def test_dane_soil_thresholds(dane, tester, change, citation):
    parcel, _ = make_parcel(dane)
    ev = site.soil_evaluation_file(jurisdiction=dane, parcel=parcel, soil_tester=tester, fieldwork_completed_on=D(2026, 5, 1),
                                   filed_on=D(2026, 5, 2), areas=[good_area(**change), good_area(name="R", replacement=True)])
    assert [f["citation"] for f in ev.findings if not f["ok"]] == [citation]
    with pytest.raises(PermitRefused):
        site.soil_evaluation_verify(evaluation=ev, outcome="issue", on=D(2026, 5, 5))


def test_dane_soil_frozen_5_inches_away_and_48_inches_gravity_pass(dane, tester):
    parcel, _ = make_parcel(dane)
    ev = site.soil_evaluation_file(jurisdiction=dane, parcel=parcel, soil_tester=tester, fieldwork_completed_on=D(2026, 5, 1),
                                   filed_on=D(2026, 5, 2), areas=[good_area(frozen_within_in=5, suitable_soil_in=48, below_grade_gravity=True),
                                                                  good_area(name="R", replacement=True)])
    assert all(f["ok"] for f in ev.findings)


def test_dane_replacement_area_required(dane, tester):
    parcel, _ = make_parcel(dane)
    ev = site.soil_evaluation_file(jurisdiction=dane, parcel=parcel, soil_tester=tester, fieldwork_completed_on=D(2026, 5, 1),
                                   filed_on=D(2026, 5, 2), areas=[good_area()])
    assert [f["citation"] for f in ev.findings if not f["ok"]] == ["Dane County Code s. 46.10(4)(b)1."]


def test_lincoln_verification_outcomes_and_hold_blocks_approval(lincoln, tester, master):
    from powts.permits.tests.conftest import file_complete

    parcel, _ = make_parcel(lincoln, number="L-1")
    ev = site.soil_evaluation_file(jurisdiction=lincoln, parcel=parcel, soil_tester=tester, fieldwork_completed_on=D(2026, 5, 1),
                                   filed_on=D(2026, 8, 1), areas=[good_area(pits=1)])
    assert all(f["ok"] for f in ev.findings)  # Lincoln's text sets no pit count or filing period
    with pytest.raises(PermitRefused):
        site.soil_evaluation_verify(evaluation=ev, outcome="hold", on=D(2026, 8, 2))  # a hold says why
    site.soil_evaluation_verify(evaluation=ev, outcome="hold", on=D(2026, 8, 2), note="Benchmark not described")
    permit = file_complete(lincoln, master)
    permit = services.permit_update_application(permit=permit, data={"soil_evaluation": ev})
    with pytest.raises(PermitRefused) as exc:
        services.permit_approve(permit=permit, on=D(2026, 8, 3))
    assert "Soil and Site Evaluation (3)" in err(exc)


def test_dane_has_no_hold_outcome(dane, tester):
    parcel, _ = make_parcel(dane)
    ev = site.soil_evaluation_file(jurisdiction=dane, parcel=parcel, soil_tester=tester, fieldwork_completed_on=D(2026, 5, 1),
                                   filed_on=D(2026, 5, 2), areas=[good_area(), good_area(name="R", replacement=True)])
    with pytest.raises(PermitRefused):
        site.soil_evaluation_verify(evaluation=ev, outcome="hold", on=D(2026, 5, 3), note="x")


def test_soil_report_bad_input_named(dane, tester, master):
    parcel, _ = make_parcel(dane)
    with pytest.raises(PermitRefused) as exc:
        site.soil_evaluation_file(jurisdiction=dane, parcel=parcel, soil_tester=tester, fieldwork_completed_on=D(2026, 5, 1),
                                  filed_on=D(2026, 5, 2), areas=[{"name": "A", "pits": "three"}])
    assert "pits 'three' is not a number" in err(exc)
    with pytest.raises(PermitRefused):
        site.soil_evaluation_file(jurisdiction=dane, parcel=parcel, soil_tester=master, fieldwork_completed_on=D(2026, 5, 1),
                                  filed_on=D(2026, 5, 2), areas=[good_area()])


# -- building permits and reconnections ---------------------------------------------------------

@BOTH
def test_no_building_permit_for_new_structure_without_sanitary_permit(county, master):
    parcel, _ = make_parcel(county, number="B-1")
    gate = site.building_permit_gate(parcel=parcel)
    assert not gate["allowed"] and gate["citation"] in ("Dane County Code s. 46.14(2)", "Lincoln County Ch. 22 (draft), Sanitary Permits (6)")
    permit = issue(county, master)
    assert site.building_permit_gate(parcel=permit.parcel)["allowed"]


DANE_DOCS = ["not_failing", "setbacks", "soil_report", "sizing", "plan", "tank_report"]


@pytest.mark.parametrize("pct,needs", [("24.99", False), ("25", True), ("25.01", True)])
def test_dane_46_14_3_a_4_at_least_25_percent(dane, pct, needs):
    """Dane 46.14(3)(a)4.: "25% or more" is at least 25 (the rule read from reconnection_area_pct_at_least)."""
    assert site.remodel_needs_approval(dane, living_area_changed_pct=pct) == (needs, "Dane County Code s. 46.14(3)(a)4.")


# The clearance stores the share to one decimal place, so the stored sides are 24.9 and 25.1.
@pytest.mark.parametrize("pct,needs_documents", [("24.9", False), ("25", True), ("25.1", True)])
def test_dane_46_14_3_a_4_remodel_25_percent_or_more_needs_reconnection_documents(dane, pct, needs_documents):
    """Dane 46.14(3)(a)4.: remodelling "25% or more of the existing living space" needs the reconnection approval."""
    parcel, _ = make_parcel(dane, number="F-1")
    cl = site.clearance_request(jurisdiction=dane, parcel=parcel, kind="flow_change", requested_on=D(2026, 5, 1),
                                living_area_changed_pct=pct)
    assert cl.approved is not needs_documents
    if needs_documents:
        assert "missing" in cl.findings[0]["message"] and "46.14(3)(a)4." in cl.findings[0]["citation"]
        done = site.clearance_request(jurisdiction=dane, parcel=parcel, kind="flow_change", requested_on=D(2026, 5, 1),
                                      living_area_changed_pct=pct, documents=DANE_DOCS)
        assert done.approved


@pytest.mark.parametrize("pct,modified", [("25", False), ("25.01", True)])
def test_dane_46_14_4_b_2_flow_change_exceeds_25_percent(dane, pct, modified):
    """Dane 46.14(4)(b)2.: modified flow is a remodel that "exceeds 25%"; at exactly 25% the flow is not modified."""
    modified_now, cite = site.flow_changes(dane, bedrooms_before=None, bedrooms_after=None, living_area_changed_pct=pct)
    assert modified_now is modified and cite == "Dane County Code s. 46.14(4)(b)2."


def test_dane_flow_change_bedrooms_with_documents_is_approved(dane):
    """Dane 46.14(4)(b)2.: a change in bedrooms modifies flow; with the documents the approval is given."""
    parcel, _ = make_parcel(dane, number="F-2")
    bedrooms = site.clearance_request(jurisdiction=dane, parcel=parcel, kind="flow_change", requested_on=D(2026, 5, 1),
                                      bedrooms_before=3, bedrooms_after=4, documents=DANE_DOCS)
    assert bedrooms.approved


def test_lincoln_sets_no_remodel_area_threshold(lincoln):
    """Lincoln, Construction Affecting Wastewater Flow: no area threshold; a 30% remodel without a bedroom change is not flagged."""
    parcel, _ = make_parcel(lincoln, number="F-3")
    cl = site.clearance_request(jurisdiction=lincoln, parcel=parcel, kind="flow_change", requested_on=D(2026, 5, 1),
                                living_area_changed_pct="30")
    assert cl.approved


def test_lincoln_reconnection_lists_missing_documents(lincoln):
    parcel, _ = make_parcel(lincoln, number="R-1")
    cl = site.clearance_request(jurisdiction=lincoln, parcel=parcel, kind="reconnection", requested_on=D(2026, 5, 1),
                                documents=["soil_report"])
    assert not cl.approved and "Reconnection (3)(c)" in cl.findings[0]["message"]
    assert cl.findings[0]["citation"] == "Lincoln County Ch. 22 (draft), Reconnection (3)"


# -- emergency work (Dane s. 46.07(2)) -----------------------------------------------------------

def test_dane_emergency_report_next_working_day_application_10(dane, master):
    parcel, _ = make_parcel(dane, number="E-1")
    em = site.emergency_report(jurisdiction=dane, parcel=parcel, plumber=master, work_started_on=D(2026, 11, 25),
                               reported_on=D(2026, 11, 27), description="Collapsed tank")
    assert em.report_due_on == D(2026, 11, 27) and em.findings[0]["ok"]   # Thanksgiving skipped
    assert em.application_due_on == D(2026, 12, 10)  # Nov 27, 30, Dec 1-4, 7-10
    late = site.emergency_report(jurisdiction=dane, parcel=parcel, plumber=master, work_started_on=D(2026, 11, 25),
                                 reported_on=D(2026, 11, 30), description="Collapsed tank")
    assert not late.findings[0]["ok"]


def test_dane_46_07_3_absorption_area_found_after_emergency_tank_replacement_application_in_10_working_days(dane, master):
    """Dane s. 46.07(3): the evaluation after an emergency tank replacement reveals the soil absorption area must be
    replaced: the application is due within 10 working days of that finding (later than the s. 46.07(2) date)."""
    parcel, _ = make_parcel(dane, number="E-3")
    em = site.emergency_report(jurisdiction=dane, parcel=parcel, plumber=master, work_started_on=D(2026, 11, 25),
                               reported_on=D(2026, 11, 27), description="Collapsed tank",
                               absorption_replacement_found_on=D(2026, 12, 9), state_plan_required=True)
    assert em.application_due_on == D(2026, 12, 23)  # Dec 10-11, 14-18, 21-23
    assert em.findings[-1]["citation"] == "Dane County Code s. 46.07(3)" and "more time" in em.findings[-1]["message"]
    early = site.emergency_report(jurisdiction=dane, parcel=parcel, plumber=master, work_started_on=D(2026, 11, 25),
                                  reported_on=D(2026, 11, 27), description="Collapsed tank",
                                  absorption_replacement_found_on=D(2026, 11, 25))
    assert early.application_due_on == D(2026, 12, 10)  # the 46.07(2) date is the later one
    with pytest.raises(PermitRefused) as exc:
        site.emergency_report(jurisdiction=dane, parcel=parcel, plumber=master, work_started_on=D(2026, 11, 25),
                              reported_on=D(2026, 11, 27), description="x", absorption_replacement_found_on=D(2026, 11, 24))
    assert exc.value.field == "absorption_replacement_found_on"


def test_lincoln_has_no_emergency_rule(lincoln, master):
    parcel, _ = make_parcel(lincoln, number="E-2")
    with pytest.raises(PermitRefused):
        site.emergency_report(jurisdiction=lincoln, parcel=parcel, plumber=master, work_started_on=D(2026, 5, 1),
                              reported_on=D(2026, 5, 1), description="x")


# -- failing systems, orders, variances ------------------------------------------------------------

def _system(jurisdiction, sid="S-1"):
    return system_create(jurisdiction=jurisdiction, system_id=sid, parcel_number=f"PN-{sid}", system_type="conventional",
                         owner_name="Fay Failing")


@pytest.mark.parametrize("conds, category", [(["a"], 1), (["c", "e"], 1), (["d"], 2), (["d", "e"], 2), (["e"], 3)])
def test_failure_categories(dane, conds, category, inspector_license):
    det = enf.failure_determine(system=_system(dane), conditions=conds, on=D(2026, 6, 1), basis="inspection",
                                inspector_license=inspector_license)
    assert det.category == category
    det.system.refresh_from_db()
    assert det.system.status == "failing"


def test_failure_on_inspection_needs_certified_inspector(dane, master):
    with pytest.raises(PermitRefused):
        enf.failure_determine(system=_system(dane), conditions=["d"], on=D(2026, 6, 1), basis="inspection", inspector_license=master)
    assert enf.failure_determine(system=_system(dane, "S-2"), conditions=["d"], on=D(2026, 6, 1), basis="order").category == 2


def test_lincoln_order_at_most_one_year(lincoln):
    system = _system(lincoln)
    enf.correction_order_issue(system=system, on=D(2026, 6, 1), correct_by=D(2027, 6, 1), requirement="Replace the system")
    with pytest.raises(PermitRefused) as exc:
        enf.correction_order_issue(system=system, on=D(2026, 6, 1), correct_by=D(2027, 6, 2), requirement="Replace")
    assert "Limitations and Allowable Uses (4)" in err(exc) and "2027-06-01" in err(exc)


def test_order_follow_up_overdue_and_close(dane):
    order = enf.correction_order_issue(system=_system(dane), on=D(2026, 6, 1), correct_by=D(2026, 9, 1), requirement="Pump and repair")
    enf.correction_order_follow_up(order=order, on=D(2026, 8, 1), note="Plumber scheduled")
    assert enf.correction_orders_mark_overdue(today=D(2026, 9, 1)) == 0
    assert enf.correction_orders_mark_overdue(today=D(2026, 9, 2)) == 1
    order.refresh_from_db()
    enf.correction_order_close(order=order, on=D(2026, 9, 10))
    assert order.status == c.OrderStatus.CORRECTED


def test_variance_not_for_failing_system_and_rescinded_on_failure(dane, inspector_license):
    system = _system(dane)
    v = enf.variance_petition(system=system, standard="siting", on=D(2026, 6, 1))
    with pytest.raises(PermitRefused):
        enf.variance_decide(variance=v, grant=True, on=D(2026, 6, 5), threat_to_waters=True)
    enf.variance_decide(variance=v, grant=True, on=D(2026, 6, 5))
    enf.failure_determine(system=system, conditions=["a"], on=D(2026, 9, 1), basis="inspection", inspector_license=inspector_license)
    v.refresh_from_db()
    assert v.status == c.VarianceStatus.RESCINDED and v.rescinded_on == D(2026, 9, 1)


# -- documents ------------------------------------------------------------------------------------

def test_permit_card_pdf_and_ics(dane, master, staff):
    permit = issue(dane, master)
    pdf = documents.permit_card_pdf(permit)
    assert pdf.startswith(b"%PDF") and len(pdf) > 1000
    insp = services.inspection_request(permit=permit, stage="before_backfill", notice_at=dt.datetime(2026, 5, 4, 8, 0))
    services.inspection_assign(inspection=insp, inspector=staff)
    ics = documents.inspector_feed(staff)
    assert "BEGIN:VEVENT" in ics and "DTSTART;VALUE=DATE:20260504" in ics and "\r\n" in ics
    assert all(len(line.encode()) <= 75 for line in ics.split("\r\n"))


def test_open311_complaint_validation(dane):
    with pytest.raises(PermitRefused) as exc:
        enf.complaint_create(jurisdiction=dane, service_code="failing-septic", description="smell")
    assert exc.value.field == "address_string"
    comp = enf.complaint_create(jurisdiction=dane, service_code="failing-septic", description="Sewage in the ditch",
                                address="12 Lake Rd")
    assert comp.status == "open"
