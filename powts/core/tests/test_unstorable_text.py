"""Text that cannot be stored (NUL, a UTF-16 surrogate without its pair) is a 400 naming the field on every
endpoint and form, refused in one place (powts.core.middleware) before any view runs. A JSON "\\ud800" in a
maintenance report's notes was a UnicodeEncodeError on save: a 500."""
import datetime as dt
import json
import re

import pytest
from django.test import Client
from django.test.client import BOUNDARY, encode_multipart
from knox.models import AuthToken
from rest_framework.test import APIClient

from powts.maintenance.models import Report

pytestmark = pytest.mark.django_db

LONE = "\ud800"  # what json.loads makes of the escape "\ud800"
REPORT = {"jurisdiction": "dane", "system_id": "DA-1", "kind": "pumping", "work_date": "2026-01-05", "license_number": "SSO-1",
          "gallons_pumped": 1000, "disposal_site": "Nine Springs"}


def _json_operations():
    """(method, path, a string field of its request body) for every API operation that takes a JSON body (or
    declares none), from the schema the API serves: an endpoint added later is in this list without editing it."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    found = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method not in ("post", "put", "patch"):
                continue
            content = operation.get("requestBody", {}).get("content", {})
            if content and "application/json" not in content:
                continue  # multipart only (file uploads): no JSON body to send
            body = content.get("application/json", {}).get("schema", {})
            if "$ref" in body:
                body = components[body["$ref"].rsplit("/", 1)[-1]]
            texts = [name for name, prop in body.get("properties", {}).items()
                     if prop.get("type") == "string" and not prop.get("readOnly")]
            found.append((method, re.sub(r"\{[^}]+\}", "1", path), texts[0] if texts else "note"))
    return found


OPERATIONS = _json_operations()


@pytest.fixture
def world(settings, dane, staff, make_user):
    """A Dane system and a pumper with a license, so a clean report is accepted."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from powts.accounts.services import license_create
    from powts.inventory.services import system_create

    system = system_create(jurisdiction=dane, system_id="DA-1", parcel_number="P-DA-1", system_type="conventional",
                           owner_name="Olive Owner", installed_on=dt.date(2020, 6, 1))
    license_create(kind="septage_operator", number="SSO-1", holder_name="Perry Pumper", user=make_user("perry", "pumper"))
    return {"system": system, "staff": staff}


def _api(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=user)[1]}")
    return client


def _send(client, method, path, body: str, content_type="application/json"):
    return getattr(client, method)(path, body, content_type=content_type)


def _refused(response, field, what="unpaired UTF-16 surrogate"):
    assert response.status_code == 400, (response.status_code, response.content[:300])
    errors = response.json()
    if isinstance(errors, list):  # Open311 GeoReport v2
        assert field in errors[0]["description"] and what in errors[0]["description"], errors
    else:
        [message] = errors["errors"][field]
        assert message.startswith(field) and what in message, errors


def test_the_schema_lists_the_api_endpoints_that_take_json():
    """A guard on the generated list below: were it empty, every endpoint test would pass without checking anything."""
    assert len(OPERATIONS) > 30
    assert ("post", "/api/maintenance/reports/", "jurisdiction") in OPERATIONS
    assert any(method == "patch" for method, _, _ in OPERATIONS)


@pytest.mark.parametrize("method,path,field", OPERATIONS, ids=[f"{m} {p}" for m, p, _ in OPERATIONS])
def test_every_json_endpoint_refuses_a_lone_surrogate_naming_the_field(world, method, path, field):
    client = _api(world["staff"])
    _refused(_send(client, method, path, json.dumps({field: "a" + LONE + "b"})), field)
    # nested anywhere in the body, the field is named by its path
    _refused(_send(client, method, path, json.dumps({"readings": [{"note": "fine"}, {"note": LONE}]})), "readings[1].note")


@pytest.mark.parametrize("field", ["notes", "disposal_site", "system_id", "license_number"])
def test_maintenance_report_refuses_a_lone_surrogate_in_each_text_field(world, field):
    client = _api(world["staff"])
    body = json.dumps({**REPORT, field: REPORT.get(field, "tank lid") + LONE})
    assert "\\ud800" in body  # sent as the JSON escape, as a client would
    _refused(client.post("/api/maintenance/reports/", body, content_type="application/json"), field)
    assert Report.objects.count() == 0
    # the same report without it is filed: the field, not the report, was refused
    assert client.post("/api/maintenance/reports/", REPORT, format="json").status_code == 201


def test_a_surrogate_pair_is_one_character_and_is_stored(world):
    """Only a surrogate without its pair is refused: an emoji escaped as "\\ud83d\\ude00" is text like any other."""
    body = json.dumps({**REPORT, "notes": "lid cracked \U0001f600"})
    assert "\\ud83d\\ude00" in body
    r = _api(world["staff"]).post("/api/maintenance/reports/", body, content_type="application/json")
    assert r.status_code == 201, r.content
    assert Report.objects.get().notes == "lid cracked \U0001f600"


@pytest.mark.parametrize("body,field", [
    ({**REPORT, "notes": "tank\x00lid"}, "notes"),
    ({**REPORT, "notes\x00": "x"}, "notes"),  # in a key
    ({**REPORT, "extra": {"readings": [{"note": "a\x00"}]}}, "extra.readings[0].note"),
])
def test_nul_anywhere_in_a_json_body_is_400_naming_its_path(world, body, field):
    r = _api(world["staff"]).post("/api/maintenance/reports/", json.dumps(body), content_type="application/json")
    _refused(r, field, "NUL character")
    assert Report.objects.count() == 0


def test_open311_answers_a_lone_surrogate_in_its_own_error_list(world):
    body = {"jurisdiction_id": "dane", "service_code": "surfacing-sewage", "address_string": "1 Main St", "description": LONE}
    r = APIClient().post("/api/open311/v2/requests.json", json.dumps(body), content_type="application/json")
    _refused(r, "description")


def test_invalid_utf8_in_a_json_body_is_still_the_parsers_400(world):
    r = _api(world["staff"]).post("/api/maintenance/reports/", b'{"notes": "\xed\xa0\x80"}', content_type="application/json")
    assert r.status_code == 400 and Report.objects.count() == 0


# A form or a query string reaches a lone surrogate through the charset a client declares: Django decodes
# multipart fields and the query string with it, and "unicode_escape" turns the text \ud800 into one.
ODD_CHARSET = "charset=unicode_escape"


def _odd_multipart(data: dict) -> dict:
    """A multipart body of `data`, declared in that charset. Django's test client would re-encode a body in the
    charset of its content_type argument; CONTENT_TYPE (DRF's client sets it from content_type) only declares it."""
    plain = f"multipart/form-data; boundary={BOUNDARY}"
    return {"data": encode_multipart(BOUNDARY, data), "content_type": plain, "CONTENT_TYPE": f"{plain}; {ODD_CHARSET}"}


def test_web_form_field_with_a_lone_surrogate_or_nul_is_a_400_page_naming_it(world):
    client = Client()
    client.force_login(world["staff"])
    r = client.post("/maintenance/report/", **_odd_multipart({**REPORT, "notes": "tank\\ud800lid"}))
    assert r.status_code == 400 and "notes contains an unpaired UTF-16 surrogate" in r.content.decode()
    r = client.post("/maintenance/report/", {**REPORT, "notes": "a\x00b"})
    assert r.status_code == 400 and "notes contains a NUL character" in r.content.decode()
    assert Report.objects.count() == 0


def test_api_form_bodies_refuse_a_lone_surrogate_and_nul_on_post_and_patch(world):
    client = _api(world["staff"])
    odd = _odd_multipart({**REPORT, "notes": "x\\ud800"})
    _refused(client.post("/api/maintenance/reports/", odd["data"], content_type=odd["CONTENT_TYPE"]), "notes")
    # Django reads form fields for POST only (DRF those of a PATCH): a PATCH's are checked just the same
    system = f"/api/systems/{world['system'].pk}/"
    edit = "version=1&reason=typo&structures_served="
    r = client.patch(system, edit + "Garage%00", content_type="application/x-www-form-urlencoded")
    _refused(r, "structures_served", "NUL character")
    r = client.patch(system, edit + "Garage\\udc00", content_type=f"application/x-www-form-urlencoded; {ODD_CHARSET}")
    _refused(r, "structures_served")
    odd = _odd_multipart({"version": 1, "reason": "typo", "structures_served": "Garage\\udc00"})
    _refused(client.patch(system, odd["data"], content_type=odd["CONTENT_TYPE"]), "structures_served")
    # the same edit without it is made: the field, not the edit, was refused
    assert client.patch(system, edit + "Garage", content_type="application/x-www-form-urlencoded").status_code == 200
    world["system"].refresh_from_db()
    assert world["system"].structures_served == "Garage"


@pytest.mark.parametrize("path,field", [("/api/systems/?q=a%5Cud800", "q"), ("/api/permits/?number=%5CuDFFF", "number")])
def test_api_query_string_with_a_lone_surrogate_is_400_naming_the_parameter(world, path, field):
    r = _api(world["staff"]).get(path, content_type=f"text/plain; {ODD_CHARSET}")
    _refused(r, field)


def test_web_query_string_with_a_lone_surrogate_or_nul_is_a_400_page(world):
    client = Client()
    client.force_login(world["staff"])
    r = client.get("/inventory/?q=a%5Cud800", CONTENT_TYPE=f"text/plain; {ODD_CHARSET}")
    assert r.status_code == 400 and "q contains an unpaired UTF-16 surrogate" in r.content.decode()
    r = client.get("/inventory/?q=a%00b")
    assert r.status_code == 400 and "q contains a NUL character" in r.content.decode()


def _plan_naming_a_feature(name: str) -> str:
    from powts.permits.tests.conftest import BAD_PLAN

    plan = json.loads(json.dumps(BAD_PLAN))
    plan["features"][0]["properties"]["name"] = name
    return json.dumps(plan)


def test_json_given_as_text_is_refused_where_it_is_decoded(world, make_user):
    """A plot plan sent as the text of a form field, or as a GeoJSON file, holds JSON the request path cannot
    see into; its "\\ud800" escape was stored, and on the web form a 500. Its reader refuses it, naming the path."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from powts.accounts.services import license_create
    from powts.permits.models import Permit
    from powts.permits.tests.conftest import file_complete

    master = license_create(kind="master_plumber", number="MP-1001", holder_name="Pete Plumber", user=make_user("pete", "plumber"))
    permit = file_complete(world["staff"].jurisdiction, master)
    filed_plan = permit.plot_plan
    client = Client()
    client.force_login(world["staff"])
    bad = _plan_naming_a_feature("Lot" + LONE)
    assert "\\ud800" in bad
    page = client.post(f"/permits/{permit.pk}/plot-plan/", {"plot_plan": bad}, follow=True)
    assert page.status_code == 200
    assert "plot_plan.features[0].properties.name contains an unpaired UTF-16 surrogate" in page.content.decode()
    r = client.post(f"/api/permits/{permit.pk}/plot-plan/", {"file": SimpleUploadedFile("lot.geojson", bad.encode())})
    assert r.status_code == 400, r.content
    assert "lot.geojson: features[0].properties.name contains an unpaired UTF-16 surrogate" in json.dumps(r.json())
    assert Permit.objects.get(pk=permit.pk).plot_plan == filed_plan
