"""Public forms: Open311 posts and the public complaint form are limited per address,
sizes are capped, and the public list shows service, status, place and dates only."""
import json

import pytest
from django.test import override_settings

from powts.permits.models import Complaint

URL = "/api/open311/v2/requests.json"
FORM = "/permits/complaints/new/"


def _post(client, addr="203.0.113.7", HTTP_X_FORWARDED_FOR=None, **over):
    data = {"jurisdiction_id": "dane", "service_code": "failing-septic", "description": "Sewage in the ditch",
            "address_string": "4 Elm St", "first_name": "Pat", "last_name": "Private", "email": "pat@example.org",
            "phone": "608-555-0100", **over}
    extra = {"HTTP_X_FORWARDED_FOR": HTTP_X_FORWARDED_FOR} if HTTP_X_FORWARDED_FOR else {}
    return client.post(URL, data, REMOTE_ADDR=addr, **extra)


@override_settings(POWTS_PUBLIC_POST_RATE="10/hour")
def test_open311_posts_throttled_per_address_after_the_limit(dane, client):
    """100 posts from one address: the first 10 are received, the rest 429 with a message and
    Retry-After; another address is not affected."""
    codes = [_post(client).status_code for _ in range(100)]
    assert codes[:10] == [201] * 10
    assert set(codes[10:]) == {429}
    refused = _post(client)
    assert "Too many reports from your address" in refused.json()[0]["description"]
    assert int(refused["Retry-After"]) > 0
    assert Complaint.objects.count() == 10
    assert _post(client, addr="198.51.100.9").status_code == 201


@override_settings(POWTS_PUBLIC_POST_RATE="10/hour")
def test_web_form_and_api_share_one_allowance(dane, client):
    """The web form is throttled the same way, and the allowance is per address across both
    channels (9 API posts + 1 form post = 10, the 11th form post is refused)."""
    for _ in range(9):
        assert _post(client, addr="192.0.2.1").status_code == 201
    form = {"jurisdiction": "dane", "service_code": "failing-septic", "description": "Odor", "address": "9 Oak Ln"}
    assert "received your report" in client.post(FORM, form, REMOTE_ADDR="192.0.2.1").content.decode()
    refused = client.post(FORM, form, REMOTE_ADDR="192.0.2.1")
    assert refused.status_code == 429 and "Too many reports from your address" in refused.content.decode()
    assert Complaint.objects.count() == 10


def test_one_megabyte_description_refused_naming_the_field(dane, client):
    """"1 MB descriptions": refused with 400 naming description, nothing stored; both sides of
    the 4,000-character cap."""
    big = client.post(URL, {"jurisdiction_id": "dane", "service_code": "failing-septic", "description": "x" * 1_000_000,
                            "address_string": "4 Elm St"})
    assert big.status_code == 400 and big.json()[0]["description"].startswith("description:")
    over = _post(client, description="x" * 4001)
    assert over.status_code == 400 and "description" in over.json()[0]["description"]
    assert "4,000" in over.json()[0]["description"]
    assert Complaint.objects.count() == 0
    assert _post(client, description="x" * 4000).status_code == 201


def test_web_form_one_megabyte_description_refused(dane, client):
    """The web form refuses a 1 MB description with a form error, nothing stored."""
    r = client.post(FORM, {"jurisdiction": "dane", "service_code": "failing-septic", "description": "x" * 1_000_000,
                           "address": "4 Elm St"})
    assert r.status_code == 400 and "at most 4,000 characters" in r.content.decode()
    r = client.post(FORM, {"jurisdiction": "dane", "service_code": "failing-septic", "description": "x" * 4001,
                           "address": "4 Elm St"})
    assert "description" in r.content.decode() and "at most 4,000 characters" in r.content.decode()
    assert Complaint.objects.count() == 0


@pytest.mark.parametrize("field,limit", [("address_string", 200), ("first_name", 100), ("last_name", 100),
                                         ("phone", 40), ("service_code", 40)])
def test_other_fields_capped_at_their_lengths(dane, client, field, limit):
    """Other fields by their maximum lengths; a 400 names the field."""
    r = _post(client, **{field: "y" * (limit + 1)})
    assert r.status_code == 400 and r.json()[0]["description"].startswith(f"{field}:")
    assert Complaint.objects.count() == 0


@pytest.mark.parametrize("body", [[1, 2], "text", 7, None, {"description": {"a": 1}, "jurisdiction_id": "dane"},
                                  {"jurisdiction_id": ["dane"]}])
def test_json_that_is_not_an_object_of_text_is_a_400(dane, client, body):
    """Finding: "a JSON body that is not an object ... (Open311 among them)": 400, never a 500."""
    r = client.post(URL, json.dumps(body), content_type="application/json")
    assert r.status_code == 400 and r.json()[0]["code"] == 400


@pytest.mark.parametrize("lat,long", [("NaN", "-89.4"), ("1e1000000", "-89.4"), ("91", "-89.4"), ("43", "-180.5"),
                                      ("abc", "1")])
def test_bad_coordinates_are_a_400_naming_the_field(dane, client, lat, long):
    """Bad input: coordinates out of range or not numbers are a 400 naming lat or long."""
    r = _post(client, lat=lat, long=long, address_string="")
    assert r.status_code == 400 and r.json()[0]["description"].split(":")[0] in ("lat", "long")


def test_nul_bytes_refused(dane, client):
    """PostgreSQL parity: NUL bytes are bad input, a 400 naming the field."""
    r = _post(client, description="smell\x00")
    assert r.status_code == 400 and r.json()[0]["description"].startswith("description:")


def test_public_list_shows_no_complainant_text_or_contact(dane, client):
    """The public list and a single request show service, status, place and dates only, in
    GeoReport v2 names; never the description, name, email or phone."""
    assert _post(client, description="My neighbour Mr Smith at 5 Elm dumps sewage").status_code == 201
    listed = client.get(URL).json()
    one = client.get(f"/api/open311/v2/requests/{listed[0]['service_request_id']}.json").json()
    for item in (listed[0], one[0]):
        assert set(item) == {"service_request_id", "status", "service_name", "service_code", "agency_responsible",
                             "requested_datetime", "updated_datetime", "address", "lat", "long"}
        text = json.dumps(item)
        for private in ("Mr Smith", "Pat", "Private", "pat@example.org", "608-555-0100"):
            assert private not in text


def test_staff_page_still_shows_the_description(dane, client, staff):
    """Staff still see what the complainant wrote on the staff pages."""
    _post(client, description="Sewage surfacing behind the barn")
    client.force_login(staff)
    assert "Sewage surfacing behind the barn" in client.get("/permits/site/").content.decode()


@override_settings(POWTS_PUBLIC_POST_RATE="10/hour")
def test_a_made_up_forwarded_address_gets_no_fresh_allowance(dane, client):
    """The limit is per address; a caller sending its own X-Forwarded-For is still the same address."""
    codes = [_post(client, HTTP_X_FORWARDED_FOR=f"10.0.0.{i}").status_code for i in range(12)]
    assert codes == [201] * 10 + [429] * 2


def test_schema_says_open311_answers_are_lists(db):
    """Schemathesis found "Open311 ... return arrays where the schema says otherwise". The schema now
    describes the lists (and the 400/429 error lists) the endpoints return, without private fields."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    paths = schema["paths"]

    def body(path, method, code):
        return paths[path][method]["responses"][code]["content"]["application/json"]["schema"]

    for path in ("/api/open311/v2/requests.json", "/api/open311/v2/requests/{id}.json", "/api/open311/v2/services.json"):
        assert body(path, "get", "200")["type"] == "array"
    for code in ("201", "400", "429"):
        assert body("/api/open311/v2/requests.json", "post", code)["type"] == "array"
    listed = schema["components"]["schemas"]["Open311Request"]["properties"]
    assert not {"description", "email", "first_name", "last_name", "phone", "status_notes"} & set(listed)


@pytest.mark.parametrize("param", ["jurisdiction_id", "status", "service_code"])
def test_list_filters_with_nul_or_too_long_are_a_400(dane, client, param):
    """PostgreSQL parity: a NUL in a filter of the public list was a 500 on PostgreSQL; now a 400
    naming the filter. Both sides of the 100-character limit."""
    for bad in ("open\x00", "x" * 101):
        r = client.get(URL, {param: bad})
        assert r.status_code == 400 and r.json()[0]["description"].startswith(f"{param}:")
    assert client.get(URL, {param: "x" * 100}).status_code == 200


def test_nul_in_the_county_is_a_400_on_both_channels(dane, client):
    """PostgreSQL parity: a NUL in the county of a public complaint is bad input, not a 500."""
    r = _post(client, jurisdiction_id="da\x00ne")
    assert r.status_code == 400 and r.json()[0]["description"].startswith("jurisdiction_id:")
    r = client.post(FORM, {"jurisdiction": "da\x00ne", "service_code": "failing-septic", "description": "Odor",
                           "address": "9 Oak Ln"})
    # the form's NUL is refused before the view (powts.core.middleware), on a page naming the field
    assert r.status_code == 400 and "jurisdiction contains a NUL character" in r.content.decode()
    assert Complaint.objects.count() == 0
