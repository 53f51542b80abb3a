"""The Wisconsin Fund program's API (s. 145.246): refusals are 400 naming the field with the citation; roles decide."""
import pytest
from rest_framework.test import APIClient

from powts.grants.models import AllocationRun, ParticipationApplication
from powts.grants.tests.program_helpers import application, inventory_system

FY = "2026-27"


def api(user):
    c = APIClient()
    c.force_authenticate(user)
    return c


@pytest.fixture
def dsps(make_user):
    return make_user("dee", "dsps")


def test_county_certifies_and_submits_dsps_reviews_allocates_and_asks_what_if(dane, staff, dsps):
    inventory_system(dane)
    application(dane, table="5000")
    s, d = api(staff), api(dsps)
    r = s.post("/api/grants/certifications/", {"fiscal_year": FY, "official_title": "Sanitarian"}, format="json")
    assert r.status_code == 201 and r.json()["checked"]["regulation_inspection"]["met"]
    r = s.post("/api/grants/participations/", {"fiscal_year": FY, "received_on": "2026-02-01"}, format="json")
    assert r.status_code == 400 and "received_on" in r.json()["errors"] and r.json()["citation"] == "Wis. Stat. s. 145.246(7)(a)"
    assert not ParticipationApplication.objects.exists()
    r = s.post("/api/grants/participations/", {"fiscal_year": FY, "received_on": "2026-01-31"}, format="json")
    assert r.status_code == 201 and r.json()["applications"] == 1
    pk = r.json()["id"]
    assert s.post(f"/api/grants/participations/{pk}/review/", {"meets_conditions": True}, format="json").status_code == 403
    r = d.post(f"/api/grants/participations/{pk}/review/", {"meets_conditions": False}, format="json")
    assert r.status_code == 400 and "reason" in r.json()["errors"]
    assert d.post(f"/api/grants/participations/{pk}/review/", {"meets_conditions": True}, format="json").json()["status"] == "approved"
    assert s.post("/api/grants/allocations/", {"fiscal_year": FY, "funds": "1000"}, format="json").status_code == 403
    r = d.post("/api/grants/allocations/", {"fiscal_year": FY, "funds": "4000"}, format="json")
    assert r.status_code == 201
    totals = {(t["county"], t["category"]): t for t in r.json()["totals"]}
    assert totals[("Dane County", "all")]["award"] == "4000.00" and totals[("Dane County", 1)]["prorated"] == 1
    assert d.get(f"/api/grants/allocations/{AllocationRun.objects.get().pk}/").status_code == 200
    r = d.post("/api/grants/what-if/", {"fiscal_year": FY, "funds": "6000", "base_funds": "4000"}, format="json")
    assert r.status_code == 200 and r.json()["winners"] == 1 and r.json()["cost"] == "5000.00"
    r = d.post("/api/grants/what-if/", {"fiscal_year": "2026", "funds": "6000"}, format="json")
    assert r.status_code == 400 and "fiscal_year" in r.json()["errors"]


def test_allocation_with_no_participating_county_is_400(db, dsps):
    r = api(dsps).post("/api/grants/allocations/", {"fiscal_year": FY, "funds": "4000"}, format="json")
    assert r.status_code == 400 and "fiscal_year" in r.json()["errors"] and "145.246(11)" in r.json()["citation"]


def test_certification_by_someone_not_county_staff_is_403(db, dsps, make_user):
    for user in (dsps, make_user("own", "owner")):
        assert api(user).post("/api/grants/certifications/", {"fiscal_year": FY}, format="json").status_code == 403
