"""API for soil evaluations, building-permit gates, clearances, emergency work, failing systems, orders, variances."""
from knox.models import AuthToken
from rest_framework.test import APIClient

from powts.accounts.services import license_create
from powts.inventory.services import system_create
from powts.permits.tests.conftest import issue, make_parcel


def client_for(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=user)[1]}")
    return client


def test_soil_tester_files_and_staff_verify(dane, staff, make_user):
    tester_user = make_user("sol", "soil_tester")
    license_create(kind="soil_tester", number="CST-1", holder_name="Sol Tester", user=tester_user)
    parcel, _ = make_parcel(dane)
    area = {"name": "Primary", "pits": 2, "depth_below_infiltrative_in": 36, "suitable_soil_in": 36}
    r = client_for(tester_user).post("/api/soil-evaluations/", {"jurisdiction": "dane", "parcel_number": parcel.parcel_number,
                                                               "fieldwork_completed_on": "2026-05-01", "filed_on": "2026-05-02",
                                                               "areas": [area]}, format="json")
    assert r.status_code == 201 and not r.json()["complies"]
    failed = [f["citation"] for f in r.json()["findings"] if not f["ok"]]
    assert "Dane County Code s. 46.10(4)(b)1., (9)(a)" in failed and "Dane County Code s. 46.10(4)(b)1." in failed
    v = client_for(staff).post(f"/api/soil-evaluations/{r.json()['id']}/verify/", {"outcome": "issue"}, format="json")
    assert v.status_code == 400 and "outcome" in v.json()["errors"]
    v = client_for(staff).post(f"/api/soil-evaluations/{r.json()['id']}/verify/", {"outcome": "deny", "note": "2 pits"}, format="json")
    assert v.json()["verification"] == "deny"
    bad = client_for(tester_user).post("/api/soil-evaluations/", {"jurisdiction": "dane", "parcel_number": parcel.parcel_number,
                                                                 "fieldwork_completed_on": "2026-13-01", "areas": []}, format="json")
    assert bad.status_code == 400 and "fieldwork_completed_on" in bad.json()["errors"]


def test_gate_clearance_emergency(dane, staff, master):
    st = client_for(staff)
    parcel, _ = make_parcel(dane, number="G-1")
    gate = st.get(f"/api/parcels/{parcel.parcel_number}/building-permit-gate/").json()
    assert gate["allowed"] is False and gate["citation"] == "Dane County Code s. 46.14(2)"
    permit = issue(dane, master)
    assert st.get(f"/api/parcels/{permit.parcel.parcel_number}/building-permit-gate/").json()["allowed"]
    r = st.post("/api/clearances/", {"parcel_number": parcel.parcel_number, "kind": "flow_change", "bedrooms_before": 3,
                                     "bedrooms_after": 4}, format="json")
    assert r.status_code == 201 and r.json()["approved"] is False
    r = st.post("/api/emergency-work/", {"parcel_number": parcel.parcel_number, "plumber_license": master.number,
                                         "work_started_on": "2026-11-25", "reported_on": "2026-11-27",
                                         "description": "Tank collapse"}, format="json")
    assert r.json()["report_due_on"] == "2026-11-27" and r.json()["application_due_on"] == "2026-12-10"


def test_failure_order_variance(lincoln, make_user):
    staff = make_user("lstaff", "county_staff", lincoln)
    st = client_for(staff)
    system_create(jurisdiction=lincoln, system_id="L-9", parcel_number="LP-9", system_type="conventional", owner_name="Lee")
    v = st.post("/api/variances/", {"system_id": "L-9", "standard": "siting", "on": "2026-05-01"}, format="json").json()
    # s. 145.24(3): the department decides, not the county
    assert st.post(f"/api/variances/{v['id']}/decide/", {"grant": True, "on": "2026-05-02"}, format="json").status_code == 403
    dsps = client_for(make_user("dsps1", "dsps"))
    assert dsps.post(f"/api/variances/{v['id']}/decide/", {"grant": True, "on": "2026-05-02"}, format="json").json()["status"] == "granted"
    r = st.post("/api/failure-determinations/", {"system_id": "L-9", "conditions": ["e"], "basis": "order", "on": "2026-06-01"},
                format="json")
    assert r.status_code == 201 and r.json()["category"] == 3
    r = st.post("/api/correction-orders/", {"system_id": "L-9", "on": "2026-06-01", "correct_by": "2027-06-02",
                                            "requirement": "Replace"}, format="json")
    assert r.status_code == 400 and "correct_by" in r.json()["errors"]
    assert "Limitations and Allowable Uses (4)" in r.json()["citation"]
    r = st.post("/api/correction-orders/", {"system_id": "L-9", "on": "2026-06-01", "correct_by": "2027-06-01",
                                            "requirement": "Replace"}, format="json")
    assert r.status_code == 201
    assert st.post(f"/api/correction-orders/{r.json()['id']}/close/", {}, format="json").json()["status"] == "corrected"
    plumber = make_user("pl", "plumber")
    assert client_for(plumber).post("/api/correction-orders/", {}, format="json").status_code == 403
