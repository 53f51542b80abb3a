"""Every bad input gets a 4xx naming the field (or a form error on the
web), never a 500, and a refused input changes nothing. Each case below is one a review found, under
"500s", "One request freezes the whole server", "PostgreSQL only" or "Smaller"."""
import datetime as dt
import io
import json
import time

import pytest
from django.test import Client
from knox.models import AuthToken
from rest_framework.test import APIClient

from powts.maintenance.models import Report

pytestmark = pytest.mark.django_db

REPORT = {"jurisdiction": "dane", "system_id": "DA-1", "kind": "pumping", "work_date": "2026-01-05", "license_number": "SSO-1",
          "gallons_pumped": 1000, "disposal_site": "Nine Springs"}
CSV_HEADER = "system_id,kind,work_date,license_number,gallons_pumped,notes\n"


@pytest.fixture
def world(settings, dane, lincoln, make_user):
    """A Dane system, a pumper with a license, Dane staff, and a Dane permit with an invoice."""
    from powts.accounts.services import license_create
    from powts.inventory.services import system_create
    from powts.permits.tests.conftest import file_complete

    system = system_create(jurisdiction=dane, system_id="DA-1", parcel_number="P-DA-1", system_type="conventional",
                           owner_name="Olive Owner", installed_on=dt.date(2020, 6, 1))
    pumper = make_user("perry", "pumper")
    license_create(kind="septage_operator", number="SSO-1", holder_name="Perry Pumper", user=pumper)
    staff = make_user("sam", "county_staff", dane)
    plumber = make_user("pete", "plumber")
    master = license_create(kind="master_plumber", number="MP-1001", holder_name="Pete Plumber", user=plumber)
    permit = file_complete(dane, master, pay=False)
    return {"system": system, "pumper": pumper, "staff": staff, "permit": permit, "invoice": permit.invoices.first()}


def _api(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=user)[1]}")
    return client


def _web(user):
    client = Client()
    client.force_login(user)
    return client


def _assert_4xx_json(response, field=None):
    assert 400 <= response.status_code < 500, (response.status_code, response.content[:300])
    body = response.json()
    if field is not None:
        assert field in json.dumps(body), body


# ---------------------------------------------------------------- one request froze the server

FREEZERS = ["1e1000000", "9e999999999", "9" * 100_000, "NaN", "Infinity"]


@pytest.mark.parametrize("field", ["gallons_pumped", "sludge_scum_fraction", "water_meter_reading"])
@pytest.mark.parametrize("value", FREEZERS)
def test_api_report_number_bombs_are_400_within_a_second(world, field, value):
    """One request froze the whole server: gallons_pumped "1e1000000" blocked every thread 25 s."""
    client = _api(world["pumper"])  # (signing in is not the request timed)
    started = time.perf_counter()
    r = client.post("/api/maintenance/reports/", {**REPORT, field: value}, format="json")
    assert time.perf_counter() - started < 1.0
    _assert_4xx_json(r, field)
    assert r.status_code == 400 and field in r.json()["errors"]
    assert Report.objects.count() == 0


@pytest.mark.parametrize("value", FREEZERS[:3])
def test_web_report_form_number_bomb_is_a_form_error(world, value):
    """The web form shares the code; a form error, within a second, nothing stored."""
    client = _web(world["pumper"])  # (signing in, a session written, is not the request timed)
    started = time.perf_counter()
    r = client.post("/maintenance/report/", {**REPORT, "gallons_pumped": value})
    assert time.perf_counter() - started < 1.0
    assert r.status_code == 200 and b"gallons_pumped" in r.content
    assert Report.objects.count() == 0


def test_csv_upload_number_bomb_is_that_rows_reject(world):
    """The CSV upload shares the code: the row is rejected with the field named, the others stored."""
    data = CSV_HEADER + "DA-1,pumping,2026-01-05,SSO-1,1e1000000,\nDA-1,pumping,2026-01-06,SSO-1,900,\n"
    client = _api(world["pumper"])
    started = time.perf_counter()
    r = client.post("/api/maintenance/reports/upload/",
                    {"jurisdiction": "dane", "file": io.BytesIO(data.encode())}, format="multipart")
    assert time.perf_counter() - started < 1.0
    assert r.status_code == 200, r.content
    assert r.json()["stored"] == 1 and "gallons_pumped" in r.json()["rejected"][0]["reason"]


# ---------------------------------------------------------------- bodies that are not objects

def _post_paths(world):
    """Every POST operation in the API schema, with its path parameters filled in (a new endpoint is covered)."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    fill = {"id": world["permit"].pk, "pk": world["permit"].pk, "action": "hold", "decision": "grant", "what": "close",
            "fmt": "csv", "parcel_number": "P-DA-1"}
    out = []
    for path, ops in schema["paths"].items():
        if "post" in ops:
            for name, value in fill.items():
                path = path.replace("{" + name + "}", str(value))
            out.append(path)
    assert len(out) >= 15
    return out


@pytest.mark.parametrize("body", ["[1, 2]", '"text"', "5", "null", "true", "[" * 50_000 + "]" * 50_000,
                                  '{"a":' * 5000 + "1" + "}" * 5000])
def test_every_post_endpoint_refuses_a_body_that_is_not_an_object(world, body):
    """500s: a JSON body that is not an object gave 500 on 5 endpoints (Open311 among them), and so
    did deeply nested JSON. Every POST in the schema, signed in as staff and anonymously: a 4xx, JSON."""
    for client in (_api(world["staff"]), APIClient()):
        for path in _post_paths(world):
            r = client.post(path, body, content_type="application/json")
            assert 400 <= r.status_code < 500, (path, r.status_code, r.content[:300])
            r.json()


def test_open311_list_body_is_400_naming_the_body(world):
    r = APIClient().post("/api/open311/v2/requests.json", "[]", content_type="application/json")
    _assert_4xx_json(r, "body")
    assert r.status_code == 400


# ---------------------------------------------------------------- ids, filters and pages

@pytest.mark.parametrize("path", ["/api/systems/abc/", "/api/systems/abc/history/", "/api/systems/1.5/",
                                  "/api/systems/99999999999999999999999/", "/api/permits/99999999999999999999999/",
                                  "/api/maintenance/systems/99999999999999999999999/",
                                  "/api/open311/v2/requests/99999999999999999999999.json",
                                  "/api/maintenance/reports/abc/", "/api/maintenance/reports/99999999999999999999999/"])
def test_non_integer_and_huge_ids_are_404(world, path):
    """500s: non-integer ids."""
    assert _api(world["staff"]).get(path).status_code == 404


@pytest.mark.parametrize("query,field", [("installed_year=0", "installed_year"), ("installed_year=1e20", "installed_year"),
                                         ("installed_year=99999", "installed_year"), ("installed_year=1799", "installed_year"),
                                         ("installed_year=2201", "installed_year"),
                                         ("offset=100000000000000000000", "offset"), ("offset=-1", "offset"),
                                         ("limit=abc", "limit"), ("limit=0", "limit")])
def test_out_of_range_filters_are_400_naming_the_field(world, query, field):
    """500s: installed_year=0, limit=1e20 and friends."""
    r = _api(world["staff"]).get(f"/api/systems/?{query}")
    _assert_4xx_json(r, field)
    assert r.status_code == 400


@pytest.mark.parametrize("query", ["installed_year=1800", "installed_year=2200", "installed_year=2020"])
def test_installed_year_in_range_is_accepted(world, query):
    """The other side of the installed_year bounds."""
    assert _api(world["staff"]).get(f"/api/systems/?{query}").status_code == 200


@pytest.mark.parametrize("limit,expected", [("1e20", 1000), ("100000000000000000000", 1000), ("1000", 1000), ("1001", 1000),
                                            ("10", 10)])
def test_limit_is_capped_at_1000(world, limit, expected, monkeypatch):
    """A maximum API page size: limit above 1,000 gives 1,000 rows a page (1e20 is 1e20, capped too)."""
    from powts.core.pagination import BoundedLimitOffsetPagination

    seen = {}
    original = BoundedLimitOffsetPagination.get_limit
    monkeypatch.setattr(BoundedLimitOffsetPagination, "get_limit", lambda self, request: seen.setdefault("v", original(self, request)))
    r = _api(world["staff"]).get(f"/api/systems/?limit={limit}")
    assert r.status_code == 200
    assert seen["v"] == expected


@pytest.mark.parametrize("path", ["/inventory/?page=1e20", "/inventory/?page=100000000000000000000", "/inventory/?page=-5",
                                  "/permits/?page=100000000000000000000", "/permits/?page=1e20",
                                  "/inventory/?installed_year=0", "/inventory/?installed_year=1e20",
                                  "/maintenance/?as_of=0001-01-01", "/maintenance/?as_of=9999-12-31"])
def test_web_lists_with_bad_query_values_answer_not_500(world, path):
    """500s: page=1e20; as_of=0001-01-01; installed_year=0 on the web pages."""
    assert _web(world["staff"]).get(path).status_code == 200


@pytest.mark.parametrize("as_of", ["0001-01-01", "1899-12-31", "2200-01-01", "9999-12-31", "not-a-date"])
def test_due_list_as_of_out_of_range_is_400(world, as_of):
    """500s: as_of=0001-01-01."""
    r = _api(world["staff"]).get(f"/api/maintenance/due/?as_of={as_of}")
    _assert_4xx_json(r, "as_of")


@pytest.mark.parametrize("as_of", ["1900-01-01", "2199-12-31"])
def test_due_list_as_of_bounds_are_accepted(world, as_of):
    assert _api(world["staff"]).get(f"/api/maintenance/due/?as_of={as_of}").status_code == 200


# ---------------------------------------------------------------- invoices

@pytest.mark.parametrize("amount", ["abc", "1e1000000", "NaN", "-5", {"a": 1}])
def test_api_payment_with_a_bad_amount_is_400(world, amount):
    """500s: non-numeric invoice amounts."""
    invoice = world["invoice"]
    r = _api(world["staff"]).post(f"/api/invoices/{invoice.pk}/payments/", {"amount": amount}, format="json")
    _assert_4xx_json(r, "amount")
    assert invoice.payments.count() == 0


def test_api_payment_on_a_non_numeric_invoice_is_404(world):
    assert _api(world["staff"]).post("/api/invoices/abc/payments/", {"amount": "5"}, format="json").status_code == 404


@pytest.mark.parametrize("data,field", [({"invoice": "abc", "amount": "5"}, "invoice"),
                                        ({"invoice": "99999999999999999999999", "amount": "5"}, "invoice"),
                                        ({"invoice": "{id}", "amount": "abc"}, "amount"),
                                        ({"invoice": "{id}", "amount": "1e1000000"}, "amount")])
def test_web_payment_with_bad_invoice_or_amount_is_a_message(world, data, field):
    """500s: non-numeric invoice ids and amounts, on the permit page's payment form."""
    invoice = world["invoice"]
    data = {k: v.replace("{id}", str(invoice.pk)) for k, v in data.items()}
    client = _web(world["staff"])
    started = time.perf_counter()
    r = client.post(f"/permits/{world['permit'].pk}/payment/", data, follow=True)
    assert time.perf_counter() - started < 2.0
    assert r.status_code in (200, 404)
    if r.status_code == 200:
        assert field.encode() in r.content
    assert invoice.payments.count() == 0


@pytest.mark.parametrize("what,data", [("order-close", {"order": "abc"}), ("variance", {"system_id": "DA-1", "on": "2026-13-45"}),
                                       ("complaint-close", {"complaint": "1.5"}), ("verify", {"evaluation": "abc"}),
                                       ("clearance", {"parcel_number": "P-DA-1", "kind": "addition", "bedrooms_before": "abc"}),
                                       ("clearance", {"parcel_number": "P-DA-1", "kind": "addition",
                                                      "living_area_changed_pct": "1e1000000"})])
def test_web_site_forms_with_bad_numbers_are_messages(world, what, data):
    r = _web(world["staff"]).post(f"/permits/site/{what}/", data, follow=True)
    assert r.status_code == 200


# ---------------------------------------------------------------- NUL bytes, objects, dates, long values

def test_api_nul_in_notes_is_400_naming_notes(world):
    """PostgreSQL only: NUL bytes in notes gave 500. Refused on every database."""
    r = _api(world["pumper"]).post("/api/maintenance/reports/", {**REPORT, "notes": "tank\x00lid"}, format="json")
    _assert_4xx_json(r, "notes")
    assert r.status_code == 400 and Report.objects.count() == 0


def test_api_nul_in_a_form_encoded_body_is_400_naming_the_field(world):
    r = _api(world["pumper"]).post("/api/maintenance/reports/", {**REPORT, "notes": "a\x00b"})
    _assert_4xx_json(r, "notes")
    assert Report.objects.count() == 0


@pytest.mark.parametrize("path", ["/api/systems/?q=a%00b", "/api/systems/?municipality=%00", "/api/permits/?number=%00",
                                  "/api/open311/v2/requests.json?status=%00"])
def test_api_nul_in_a_query_is_400(world, path):
    r = _api(world["staff"]).get(path)
    _assert_4xx_json(r)
    assert r.status_code == 400


def test_web_nul_in_a_form_field_is_400(world):
    r = _web(world["pumper"]).post("/maintenance/report/", {**REPORT, "notes": "a\x00b"})
    assert r.status_code == 400 and b"notes" in r.content
    assert Report.objects.count() == 0
    assert _web(world["staff"]).get("/inventory/?q=a%00b").status_code == 400


def test_csv_upload_nul_is_that_rows_reject(world):
    data = CSV_HEADER + "DA-1,pumping,2026-01-05,SSO-1,900,tank\x00lid\n"
    r = _api(world["pumper"]).post("/api/maintenance/reports/upload/",
                                   {"jurisdiction": "dane", "file": io.BytesIO(data.encode())}, format="multipart")
    assert r.status_code == 200 and r.json()["stored"] == 0 and "notes" in r.json()["rejected"][0]["reason"]


def test_open311_nul_and_objects_are_400(world):
    base = {"jurisdiction_id": "dane", "service_code": "surfacing-sewage", "address_string": "1 Main St"}
    for extra in ({"description": "a\x00b"}, {"description": ["x"]}, {"description": "x", "lat": "1e1000000", "long": "1"},
                  {"description": "x", "lat": "NaN", "long": "1"}, {"description": {"a": 1}}):
        r = APIClient().post("/api/open311/v2/requests.json", {**base, **extra}, format="json")
        assert r.status_code == 400, (extra, r.content)
        r.json()


@pytest.mark.parametrize("value", [{"a": 1}, ["DA-1"], True])
def test_system_id_given_as_an_object_is_400(world, value):
    """Smaller: a system_id given as an object was stored as its Python repr."""
    r = _api(world["pumper"]).post("/api/maintenance/reports/", {**REPORT, "system_id": value}, format="json")
    _assert_4xx_json(r, "system_id")
    assert Report.objects.count() == 0


@pytest.mark.parametrize("work_date,words", [("0001-01-01", "before 1900"), ("1899-12-31", "before 1900"),
                                             ("2999-01-01", "in the future")])
def test_implausible_work_date_is_400_saying_why(world, work_date, words):
    """Smaller: work_date 0001-01-01 was accepted. Not before 1900, not in the future."""
    r = _api(world["pumper"]).post("/api/maintenance/reports/", {**REPORT, "work_date": work_date}, format="json")
    assert r.status_code == 400 and words in r.json()["errors"]["work_date"][0]
    assert Report.objects.count() == 0


@pytest.mark.parametrize("field,limit", [("notes", 4000), ("disposal_site", 200), ("location", 200),
                                         ("components_serviced", 300), ("system_id", 60)])
def test_too_long_text_is_400_not_cut_short(world, field, limit):
    """Text longer than its column is refused naming the field (before: cut silently, or a DataError on PostgreSQL)."""
    r = _api(world["pumper"]).post("/api/maintenance/reports/", {**REPORT, field: "x" * (limit + 1)}, format="json")
    _assert_4xx_json(r, field)
    assert Report.objects.count() == 0


def test_csv_upload_with_a_128kb_field_is_refused_naming_the_line(world):
    """500s: a 128 KB CSV field (csv.field_size_limit). Refused whole, with its line; nothing stored."""
    data = CSV_HEADER + "DA-1,pumping,2026-01-04,SSO-1,900,ok\n" + "DA-1,pumping,2026-01-05,SSO-1,900," + "x" * 140_000 + "\n"
    r = _api(world["pumper"]).post("/api/maintenance/reports/upload/",
                                   {"jurisdiction": "dane", "file": io.BytesIO(data.encode())}, format="multipart")
    _assert_4xx_json(r, "file")
    assert "line 3" in r.json()["errors"]["file"][0]
    assert Report.objects.count() == 0
    r = _web(world["pumper"]).post("/maintenance/upload/", {"jurisdiction": "dane", "file": io.BytesIO(data.encode())})
    assert r.status_code == 200 and b"line 3" in r.content
    assert Report.objects.count() == 0


# ---------------------------------------------------------------- the inventory import

@pytest.mark.parametrize("column,value", [("bedrooms", "NaN"), ("latitude", "NaN"), ("bedrooms", "1e1000000"),
                                          ("longitude", "-Infinity"), ("tank_capacity_gallons", "9" * 100_000)])
def test_import_preview_with_nan_is_that_rows_reject(world, write_csv, column, value):
    """500s: NaN in bedrooms or latitude in an import preview."""
    header = ["system_id", "parcel_id", "system_type", "owner_name", column]
    path = write_csv([header, ["IM-1", "P-IM-1", "conventional", "Ann", value], ["IM-2", "P-IM-2", "conventional", "Bo", ""]])
    client = _web(world["staff"])
    started = time.perf_counter()
    with open(path, "rb") as handle:
        r = client.post("/inventory/import/", {"file": handle})
    assert time.perf_counter() - started < 5.0
    assert r.status_code == 200, r.content[:500]
    assert column.encode() in r.content


def test_import_too_long_owner_name_is_that_rows_reject(world, write_csv):
    """PostgreSQL only: one 201-character owner name aborted a whole import (DataError, 0 rows)."""
    from powts.inventory.importing.service import import_inventory
    from powts.inventory.models import System

    path = write_csv([["system_id", "parcel_id", "system_type", "owner_name", "municipality"],
                      ["IM-1", "P-IM-1", "conventional", "A" * 201, ""],
                      ["IM-2", "P-IM-2", "conventional", "A" * 200, "M" * 100],
                      ["IM-3", "P-IM-3", "conventional", "Cy", "M" * 101]])
    result = import_inventory(path=path, jurisdiction=world["system"].jurisdiction)
    assert result.rejected == 2
    assert set(System.objects.filter(system_id__startswith="IM-").values_list("system_id", flat=True)) == {"IM-2"}


def test_import_row_with_nul_is_refused_naming_the_column():
    """NUL bytes are bad input on every channel: an XLSX cell (the CSV reader refuses the file) is that row's reject."""
    from powts.inventory.importing.rows import RowRejected, clean_row

    base = {"system_id": "IM-1", "parcel_id": "P-1", "system_type": "conventional", "owner_name": "Ann"}
    for raw, words in (({**base, "owner_name": "A\x00n"}, "owner_name contains a NUL"),
                       ({**base, "well_id": "W\x001"}, "'well_id' contains a NUL"),
                       ({**base, "note": "x" * 2001}, "'note' is 2,001 characters")):
        with pytest.raises(RowRejected, match=words):
            clean_row(raw, today=dt.date(2026, 1, 1))
    assert clean_row({**base, "note": "x" * 2000}, today=dt.date(2026, 1, 1)).extra["note"] == "x" * 2000
