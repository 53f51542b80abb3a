"""Finding: "any signed-in user can query any county's building-permit gate"."""
import pytest
from rest_framework.test import APIClient

from powts.permits.tests.conftest import make_parcel


def _api(user):
    c = APIClient()
    c.force_authenticate(user)
    return c


@pytest.mark.parametrize("role", ["plumber", "pumper", "soil_tester", "owner", "dnr"])
def test_gate_refused_to_anyone_but_county_and_state_readers(dane, make_user, role):
    parcel, _ = make_parcel(dane, number="G-1")
    r = _api(make_user("u", role)).get(f"/api/parcels/{parcel.parcel_number}/building-permit-gate/?jurisdiction=dane")
    assert r.status_code == 403


def test_gate_other_county_staff_cannot_reach_it(dane, lincoln, make_user):
    parcel, _ = make_parcel(dane, number="G-1")
    r = _api(make_user("lou", "county_staff", lincoln)).get(f"/api/parcels/{parcel.parcel_number}/building-permit-gate/?jurisdiction=dane")
    assert r.status_code in (400, 403, 404) and "allowed" not in r.json()


@pytest.mark.parametrize("role,county", [("county_staff", True), ("county_admin", True), ("state_auditor", False), ("dsps", False)])
def test_gate_answers_its_county_and_state_readers(dane, make_user, role, county):
    parcel, _ = make_parcel(dane, number="G-1")
    user = make_user("u", role, dane if county else None)
    r = _api(user).get(f"/api/parcels/{parcel.parcel_number}/building-permit-gate/?jurisdiction=dane")
    assert r.status_code == 200 and r.json()["allowed"] is False
