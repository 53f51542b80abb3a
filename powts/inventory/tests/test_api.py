"""The REST API: token auth, the web list's filters and search, pagination, 4xx JSON naming the field."""
import pytest
from knox.models import AuthToken
from rest_framework.test import APIClient

from powts.audit.models import AuditEvent
from powts.inventory.models import System
from powts.inventory.services import system_create


@pytest.fixture
def api(staff):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=staff)[1]}")
    return client


@pytest.fixture
def two(dane):
    system_create(jurisdiction=dane, system_id="DA-1", parcel_number="0810-1", system_type="mound", owner_name="Jane Smith",
                  municipality="Town of Dunn", installed_on="1977-06-30")
    system_create(jurisdiction=dane, system_id="DA-2", parcel_number="0810-2", system_type="holding_tank", owner_name="Bob Vang",
                  municipality="Town of Verona", installed_on="1999-01-01")


def test_token_is_required(db):
    response = APIClient().get("/api/systems/")
    assert response.status_code == 401 and "detail" in response.json()


def test_token_endpoint(staff):
    response = APIClient().post("/api/token/", {"username": "sam", "password": "a-long-test-password"}, format="json")
    assert response.status_code == 200 and response.json()["token"]


@pytest.mark.parametrize("query, expected", [
    ("", ["DA-1", "DA-2"]), ("?system_type=mound", ["DA-1"]), ("?municipality=Town of Verona", ["DA-2"]),
    ("?installed_year=1977", ["DA-1"]), ("?q=vang", ["DA-2"]), ("?status=failing", []),
])
def test_list_filters_and_search(api, two, query, expected):
    body = api.get(f"/api/systems/{query}").json()
    assert [r["system_id"] for r in body["results"]] == expected
    assert body["count"] == len(expected)


def test_pagination(api, two):
    body = api.get("/api/systems/?limit=1").json()
    assert len(body["results"]) == 1 and body["next"]


def test_bad_filter_value_is_a_400_naming_the_field(api, two):
    response = api.get("/api/systems/?system_type=spaceship")
    assert response.status_code == 400
    assert "system_type" in response.json()["errors"]


def test_create_validates_and_names_the_field(api, dane):
    response = api.post("/api/systems/", {"system_id": "DA-9", "parcel_number": "P", "system_type": "rocket", "owner_name": "A"}, format="json")
    assert response.status_code == 400
    assert "system_type" in response.json()["errors"]
    assert System.objects.count() == 0


def test_create_then_duplicate_id_is_refused(api, dane):
    body = {"system_id": "DA-9", "parcel_number": "P-9", "system_type": "mound", "owner_name": "Ann Lee", "bedrooms": 3}
    created = api.post("/api/systems/", body, format="json")
    assert created.status_code == 201 and created.json()["owner_name"] == "Ann Lee"
    again = api.post("/api/systems/", body, format="json")
    assert again.status_code == 400 and "system_id" in again.json()["errors"]


def test_patch_is_audited_as_api_with_the_user(api, two, staff):
    system = System.objects.get(system_id="DA-1")
    response = api.patch(f"/api/systems/{system.pk}/", {"status": "failing", "version": 1, "reason": "pump alarm"},
                         format="json")
    assert response.status_code == 200 and response.json()["status"] == "failing" and response.json()["version"] == 2
    event = AuditEvent.objects.get(content_type__model="system", object_id=system.pk, verb="update")
    assert (event.channel, event.actor, event.changes) == ("api", staff, {"status": ["active", "failing"], "version": [1, 2]})
    history = api.get(f"/api/systems/{system.pk}/history/").json()
    assert history[0]["action"] == "system edited through the API: pump alarm" and history[0]["actor"] == "sam"


def test_patch_bad_date_is_400(api, two):
    system = System.objects.get(system_id="DA-1")
    response = api.patch(f"/api/systems/{system.pk}/", {"installed_on": "1978-13-01", "version": 1, "reason": "typo"},
                         format="json")
    assert response.status_code == 400 and "installed_on" in response.json()["errors"]


def test_owner_cannot_change_or_see_others(two, make_user):
    owner = make_user("olive", "owner")
    client = APIClient()
    client.force_authenticate(owner)
    assert client.get("/api/systems/").json()["count"] == 0
    system = System.objects.get(system_id="DA-1")
    assert client.patch(f"/api/systems/{system.pk}/", {"status": "failing"}, format="json").status_code == 403


def test_schema_and_docs(client, db):
    assert client.get("/api/schema/").status_code == 200
    assert client.get("/api/docs/").status_code == 200
