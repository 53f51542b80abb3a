"""The API end to end for both counties: a plumber files, staff review, fees are paid, the permit
issues, inspections are requested and recorded; errors are 4xx JSON naming the field."""
import datetime as dt

import pytest
from knox.models import AuthToken
from rest_framework.test import APIClient

from powts.permits.tests.conftest import COMPLIANT_PLAN, DOCS, make_parcel

BOTH = pytest.mark.parametrize("county", ["dane", "lincoln"], indirect=True)


def client_for(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=user)[1]}")
    return client


@pytest.fixture
def county_staff(make_user, county):
    return make_user(f"staff-{county.slug}", "county_staff", county)


@BOTH
def test_full_flow_through_the_api(county, county_staff, master, plumber_user):
    parcel, owner = make_parcel(county)
    pl, st = client_for(plumber_user), client_for(county_staff)
    r = pl.post("/api/permits/", {"jurisdiction": county.slug, "parcel_number": parcel.parcel_number, "filed_on": "2026-03-02",
                                  "building_use": "single-family", "lot_dimensions": "200 x 300", "reference_points": "BM",
                                  "estimated_daily_flow_gpd": 300, "design_flow_gpd": 450, "plans_signed": True,
                                  "plot_plan": COMPLIANT_PLAN, "documents": DOCS[county.slug]}, format="json")
    assert r.status_code == 201, r.content
    permit = r.json()
    assert permit["status"] == "applied" and [m["id"] for m in permit["missing"]][-1].endswith("fee")
    # plumbers do not approve
    assert pl.post(f"/api/permits/{permit['id']}/actions/approve/", {}, format="json").status_code == 403
    r = st.post(f"/api/permits/{permit['id']}/actions/approve/", {"on": "2026-03-03"}, format="json")
    assert r.status_code == 400 and "fee" in r.json()["errors"]["status"][0]
    invoice = permit["invoices"][0]
    r = st.post(f"/api/invoices/{invoice['id']}/payments/", {"amount": "1.001"}, format="json")
    assert r.status_code == 400 and "amount" in r.json()["errors"]
    r = st.post(f"/api/invoices/{invoice['id']}/payments/", {"amount": invoice["amount"], "received_on": "2026-03-03",
                                                             "reference": "chk 88"}, format="json")
    assert r.status_code == 201 and r.json()["status"] == "paid"
    assert st.post(f"/api/permits/{permit['id']}/actions/approve/", {"on": "2026-03-03"}, format="json").status_code == 200
    r = st.post(f"/api/permits/{permit['id']}/actions/issue/", {"on": "2026-03-04"}, format="json")
    assert r.json()["status"] == "issued" and r.json()["expires_on"] == "2028-03-04"
    card = st.get(f"/api/permits/{permit['id']}/card.pdf")
    assert card.status_code == 200 and card["Content-Type"] == "application/pdf"
    stage = "before_backfill" if county.slug == "dane" else "final"
    r = pl.post(f"/api/permits/{permit['id']}/inspections/", {"stage": stage, "notice_at": "2026-05-04T08:00:00-05:00",
                                                              "requested_day": "2026-05-05"}, format="json")
    assert r.status_code == 201 and r.json()["deadline_day"] == "2026-05-06"
    insp = r.json()["id"]
    r = st.post(f"/api/inspections/{insp}/result/", {"result": "passed", "inspected_on": "2026-05-05"}, format="json")
    assert r.status_code == 200 and r.json()["inspector"] == county_staff.username
    r = st.post(f"/api/permits/{permit['id']}/actions/final-approve/", {"on": "2026-05-06"}, format="json")
    assert r.json()["status"] == "completed"
    assert [e["step"] for e in r.json()["timeline"]][-1] == "completed"
    ics = st.get("/api/permits/inspections.ics")
    assert b"BEGIN:VEVENT" in ics.content
    csv_text = st.get("/api/permits/export.csv").content.decode()
    assert csv_text.startswith("PermitNum,") and "Permit Finaled" in csv_text
    blds = st.get("/api/permits/export.blds.json").json()
    assert blds["permits"][0]["StatusCurrentMapped"] == "Permit Finaled" and blds["inspections"][0]["InspType"] == stage


def test_dane_early_inspection_request_is_400_with_earliest_day(dane, make_user, master, plumber_user):
    from powts.permits.tests.conftest import issue

    permit = issue(dane, master)
    r = client_for(plumber_user).post(f"/api/permits/{permit.pk}/inspections/", {
        "stage": "before_backfill", "notice_at": "2026-11-24T09:30:00-06:00", "requested_day": "2026-11-24"}, format="json")
    assert r.status_code == 400
    assert "earliest allowed day is Wednesday 2026-11-25" in r.json()["errors"]["requested_day"][0]


def test_other_county_staff_get_404_and_journeyman_cannot_file(dane, lincoln, make_user, master, journeyman):
    from powts.permits.tests.conftest import issue

    permit = issue(dane, master)
    other = make_user("lin", "county_staff", lincoln)
    assert client_for(other).get(f"/api/permits/{permit.pk}/").status_code == 404
    jp_user = make_user("jo", "plumber")
    journeyman.user = jp_user
    journeyman.save()
    parcel, _ = make_parcel(dane, number="J-1")
    r = client_for(jp_user).post("/api/permits/", {"jurisdiction": "dane", "parcel_number": parcel.parcel_number}, format="json")
    assert r.status_code == 403


def test_renewal_through_api_names_the_rule(dane, staff, master, plumber_user):
    from powts.permits.tests.conftest import issue

    permit = issue(dane, master, issued_on=dt.date(2026, 5, 1))
    r = client_for(plumber_user).post(f"/api/permits/{permit.pk}/changes/", {"kind": "renewal", "received_on": "2028-04-28"},
                                      format="json")
    assert r.status_code == 400 and "received_on" in r.json()["errors"] and "46.08(8)" in r.json()["citation"]


def test_open311(dane, client):
    services = client.get("/api/open311/v2/services.json").json()
    assert services[0]["service_code"] == "failing-septic"
    r = client.post("/api/open311/v2/requests.json", {"jurisdiction_id": "dane", "service_code": "failing-septic",
                                                      "description": "Sewage in the ditch", "lat": "43.07", "long": "-89.4"})
    assert r.status_code == 201
    sid = r.json()[0]["service_request_id"]
    got = client.get(f"/api/open311/v2/requests/{sid}.json").json()[0]
    assert got["status"] == "open" and got["lat"] == 43.07
    bad = client.post("/api/open311/v2/requests.json", {"jurisdiction_id": "dane", "service_code": "failing-septic"})
    assert bad.status_code == 400 and "description" in bad.json()[0]["description"]


def test_lincoln_1_j_staff_verify_a_recording_through_the_api(lincoln, make_user, master, plumber_user):
    """Lincoln Application Requirements (1)(j): staff verify the recording (number and date); the plumber may not;
    a missing document id or recording number is a 400 naming the field."""
    from powts.permits import services
    from powts.permits.tests.conftest import file_complete

    permit = services.permit_update_application(permit=file_complete(lincoln, master), data={"recording_required": True})
    doc = services.permit_add_document(permit=permit, kind="recorded_documents", received_on=dt.date(2026, 3, 3), recorded=True)
    staff = client_for(make_user("staff-lincoln", "county_staff", lincoln))
    url = f"/api/permits/{permit.pk}/actions/verify-recording/"
    body = {"document": doc.pk, "recording_number": "DOC 99", "recorded_on": "2026-03-01", "on": "2026-03-04"}
    assert client_for(plumber_user).post(url, body, format="json").status_code == 403
    r = staff.post(url, {**body, "document": None}, format="json")
    assert r.status_code == 400 and "document" in r.json()["errors"]
    r = staff.post(url, {**body, "recording_number": ""}, format="json")
    assert r.status_code == 400 and "recording_number" in r.json()["errors"]
    assert "j_recorded" in [m["id"] for m in staff.get(f"/api/permits/{permit.pk}/").json()["missing"]]
    r = staff.post(url, body, format="json")
    assert r.status_code == 200, r.content
    assert "j_recorded" not in [m["id"] for m in r.json()["missing"]]
    assert r.json()["documents"][-1]["recording_number"] == "DOC 99"
