"""Web pages: list, the permit page (timeline, plot plan SVG, forms), filing and deciding through forms."""
import datetime as dt

import pytest

from powts.permits.models import Permit
from powts.permits.tests.conftest import BAD_PLAN, file_complete, issue, make_parcel

BOTH = pytest.mark.parametrize("county", ["dane", "lincoln"], indirect=True)


@pytest.fixture
def county_staff(make_user, county):
    return make_user(f"staff-{county.slug}", "county_staff", county)


@BOTH
def test_list_and_detail_pages(client, county, county_staff, master):
    permit = file_complete(county, master)
    client.force_login(county_staff)
    page = client.get("/permits/")
    assert page.status_code == 200 and permit.number in page.content.decode()
    detail = client.get(f"/permits/{permit.pk}/").content.decode()
    assert "<svg" in detail and "Timeline" in detail and "Application filed by" in detail
    assert "Approve" in detail


@BOTH
def test_forms_approve_issue_and_card(client, county, county_staff, master):
    permit = file_complete(county, master)
    client.force_login(county_staff)
    client.post(f"/permits/{permit.pk}/approve/", {"on": "2026-03-03"})
    client.post(f"/permits/{permit.pk}/issue/", {"on": "2026-03-04"})
    assert Permit.objects.get(pk=permit.pk).status == "issued"
    card = client.get(f"/permits/{permit.pk}/card.pdf")
    assert card.status_code == 200 and card.content.startswith(b"%PDF")


def test_refused_move_shows_rule_and_citation(client, dane, staff, master):
    permit = file_complete(dane, master)
    client.force_login(staff)
    client.post(f"/permits/{permit.pk}/plot-plan/", {"plot_plan": __import__("json").dumps(BAD_PLAN)})
    page = client.post(f"/permits/{permit.pk}/approve/", {"on": "2026-03-03"}, follow=True).content.decode()
    assert "setback" in page and "Dane County Code s. 46.10(6)" in page
    assert Permit.objects.get(pk=permit.pk).status == "applied"


def test_plumber_files_through_the_form(client, dane, master, plumber_user):
    parcel, _ = make_parcel(dane)
    client.force_login(plumber_user)
    r = client.post("/permits/new/", {"jurisdiction": "dane", "parcel_number": parcel.parcel_number, "building_use": "cabin",
                                      "system_type": "standard", "kind": "state", "documents": ["system_plans"]})
    assert r.status_code == 302
    permit = Permit.objects.get()
    assert permit.plumber == master and permit.documents.count() == 1
    bad = client.post("/permits/new/", {"jurisdiction": "dane", "parcel_number": "nope", "system_type": "standard", "kind": "state"})
    assert "no such parcel" in bad.content.decode()


def test_plumber_cannot_approve(client, dane, master, plumber_user):
    permit = file_complete(dane, master)
    client.force_login(plumber_user)
    assert client.post(f"/permits/{permit.pk}/approve/", {"on": "2026-03-03"}).status_code == 403


def test_ics_with_calendar_address_and_public_complaint_form(client, dane, staff, master):
    from powts.accounts.services import calendar_feed_renew
    from powts.permits import services

    permit = issue(dane, master)
    insp = services.inspection_request(permit=permit, stage="before_backfill", notice_at=dt.datetime(2026, 5, 4, 8, 0))
    services.inspection_assign(inspection=insp, inspector=staff)
    assert client.get("/permits/inspections.ics").status_code == 401
    ics = client.get(f"/permits/calendar/{calendar_feed_renew(user=staff)}.ics")
    assert ics["Content-Type"].startswith("text/calendar") and b"SUMMARY:Inspect" in ics.content
    r = client.post("/permits/complaints/new/", {"jurisdiction": "dane", "service_code": "failing-septic",
                                                  "description": "Sewage on the lawn", "address": "4 Elm St"})
    assert "received your report" in r.content.decode()


def test_site_and_enforcement_page_flows(client, lincoln, make_user):
    from powts.accounts.services import license_create
    from powts.inventory.services import system_create
    from powts.permits.models import CorrectionOrder, FailureDetermination, SoilEvaluation

    staff = make_user("lstaff", "county_staff", lincoln)
    tester = make_user("sol", "soil_tester")
    license_create(kind="soil_tester", number="CST-5", holder_name="Sol", user=tester)
    system = system_create(jurisdiction=lincoln, system_id="L-1", parcel_number="LP-1", system_type="conventional", owner_name="Lee")
    client.force_login(tester)
    client.post("/permits/site/soil/", {"jurisdiction": "lincoln", "parcel_number": "LP-1", "fieldwork_completed_on": "2026-05-01",
                                        "on": "2026-05-03", "a_name": "Primary", "a_pits": "3", "a_suitable_soil_in": "40"})
    ev = SoilEvaluation.objects.get()
    client.force_login(staff)
    page = client.get("/permits/site/").content.decode()
    assert "LP-1" in page and "Correction orders" in page
    client.post("/permits/site/verify/", {"evaluation": ev.pk, "outcome": "file", "on": "2026-05-04"})
    ev.refresh_from_db()
    assert ev.verification == "file"
    client.post("/permits/site/failure/", {"system_id": "L-1", "conditions": ["d"], "basis": "order", "on": "2026-06-01"})
    assert FailureDetermination.objects.get().category == 2
    r = client.post("/permits/site/order/", {"system_id": "L-1", "on": "2026-06-01", "correct_by": "2027-06-02",
                                             "requirement": "Replace"}, follow=True)
    assert "Limitations and Allowable Uses (4)" in r.content.decode() and not CorrectionOrder.objects.exists()
    client.post("/permits/site/order/", {"system_id": "L-1", "on": "2026-06-01", "correct_by": "2027-06-01", "requirement": "Replace"})
    assert CorrectionOrder.objects.get().system == system
    r = client.post("/permits/site/clearance/", {"parcel_number": "LP-1", "kind": "new_structure"}, follow=True)
    assert "Sanitary Permits (6)" in r.content.decode()


def test_plumber_reports_emergency_work_on_the_web(client, dane, master, plumber_user):
    from powts.permits.models import EmergencyWork

    parcel, _ = make_parcel(dane, number="EM-1")
    client.force_login(plumber_user)
    r = client.post("/permits/site/emergency/", {"jurisdiction": "dane", "parcel_number": "EM-1", "work_started_on": "2026-11-25",
                                                 "on": "2026-11-30", "description": "Collapsed tank"}, follow=True)
    page = r.content.decode()
    assert "2026-12-10" in page and "46.07(2)" in page
    assert not EmergencyWork.objects.get().findings[0]["ok"]   # reported after the next working day (Nov 27)


def test_new_application_form_renders_for_staff_and_plumber(client, dane, staff, master, plumber_user):
    client.force_login(staff)
    assert client.get("/permits/new/").status_code == 200
    client.force_login(plumber_user)
    assert master.number in client.get("/permits/new/").content.decode()
