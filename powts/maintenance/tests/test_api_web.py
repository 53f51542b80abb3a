"""The API (token auth, 4xx JSON naming the field) and the web pages."""
import datetime as dt
import io

import pytest
from django.test import Client
from knox.models import AuthToken
from rest_framework.test import APIClient

from powts.maintenance.models import Report

D = dt.date


@pytest.fixture
def api(pumper_license):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=pumper_license.user)[1]}")
    return client


def _body(**kw):
    body = {"jurisdiction": "dane", "system_id": "DA-1", "kind": "pumping", "work_date": "2026-01-05", "license_number": "SSO-1",
            "gallons_pumped": 1000, "disposal_site": "Nine Springs"}
    body.update(kw)
    return body


def test_api_files_report_and_recognises_duplicate(dane, make_system, api):
    make_system()
    r = api.post("/api/maintenance/reports/", _body(), format="json")
    assert r.status_code == 201, r.content
    assert r.json()["duplicate"] is False and r.json()["late"] is True
    r = api.post("/api/maintenance/reports/", _body(), format="json")
    assert r.status_code == 200 and r.json()["duplicate"] is True
    assert Report.objects.count() == 1


@pytest.mark.parametrize("field,value", [("gallons_pumped", -1), ("sludge_scum_fraction", "1.2"), ("license_number", "X-0"),
                                         ("work_date", "2999-01-01")])
def test_api_400_names_the_field(dane, make_system, api, field, value):
    make_system()
    r = api.post("/api/maintenance/reports/", _body(**{field: value}), format="json")
    assert r.status_code == 400 and field in r.json()["errors"]
    assert Report.objects.count() == 0


def test_api_requires_token(dane):
    assert APIClient().post("/api/maintenance/reports/", _body(), format="json").status_code in (401, 403)


def test_api_owner_may_not_file(dane, make_system, make_user):
    owner = make_user("olive", "owner")
    c = APIClient()
    c.force_authenticate(owner)
    assert c.post("/api/maintenance/reports/", _body(), format="json").status_code == 403


def test_api_csv_upload(dane, make_system, api):
    make_system()
    data = b"system_id,kind,work_date,license_number,gallons_pumped\nDA-1,pumping,2026-01-05,SSO-1,900\nDA-1,pumping,2026-01-06,SSO-1,-1\n"
    r = api.post("/api/maintenance/reports/upload/", {"file": io.BytesIO(data), "jurisdiction": "dane"}, format="multipart")
    assert r.status_code == 200, r.content
    assert r.json()["stored"] == 1 and r.json()["rejected"][0]["line"] == 3


def test_api_due_list_for_staff(dane, make_system, staff):
    make_system(installed_on=D(2023, 7, 1))
    c = APIClient()
    c.force_authenticate(staff)
    r = c.get("/api/maintenance/due/?as_of=2026-06-01")
    assert r.json() == [{"system_id": "DA-1", "due_on": "2026-07-01", "kind": "first_notice"}]
    assert c.get("/api/maintenance/due/?as_of=junk").status_code == 400


def test_dashboard_counts(dane, make_system, staff):
    from powts.maintenance.services import schedule_sync

    make_system(system_id="A", installed_on=D(2023, 7, 1))
    make_system(system_id="B", installed_on=D(2020, 1, 1))
    make_system(system_id="C", installed_on=None)
    schedule_sync(jurisdiction=dane)
    c = Client()
    c.force_login(staff)
    r = c.get("/maintenance/?as_of=2026-06-01")
    assert r.status_code == 200
    t = r.context["counts"]["totals"]
    assert (t["due_soon"], t["overdue"], t["needs_data"], t["current"]) == (1, 1, 1, 0)
    assert b"chart.umd.min.js" in r.content


def test_phone_form_files_report(dane, make_system, pumper_license):
    make_system()
    c = Client()
    c.force_login(pumper_license.user)
    assert c.get("/maintenance/report/").status_code == 200
    r = c.post("/maintenance/report/", {"system_id": "DA-1", "kind": "pumping", "work_date": "2026-01-05", "license_number": "SSO-1",
                                        "gallons_pumped": "-4"})
    assert r.status_code == 200 and b"negative" in r.content and Report.objects.count() == 0
    r = c.post("/maintenance/report/", {"system_id": "DA-1", "kind": "pumping", "work_date": "2026-01-05", "license_number": "SSO-1",
                                        "gallons_pumped": "900"})
    assert r.status_code == 302 and Report.objects.count() == 1


def test_owner_sees_due_date_reports_and_notices(dane, make_system, make_user, pumper_license, api):
    system = make_system(installed_on=D(2023, 7, 1))
    owner_user = make_user("olive", "owner")
    owner = system.parcel.owner
    owner.user = owner_user
    owner.save()
    api.post("/api/maintenance/reports/", _body(work_date="2026-01-05"), format="json")
    c = Client()
    c.force_login(owner_user)
    assert c.get("/maintenance/").status_code == 302
    r = c.get("/maintenance/mine/")
    assert b"January 5, 2029" in r.content and b"Pumping" in r.content
    r = c.get(f"/api/maintenance/systems/{system.pk}/")
    assert r.status_code == 200 and r.json()["schedule"]["due_on"] == "2029-01-05"


def test_fast_report_body_matches_the_serializer(dane, make_system, api):
    from powts.maintenance.api.serializers import ReportSerializer

    make_system()
    body = api.post("/api/maintenance/reports/", _body(sludge_scum_fraction="0.25"), format="json").json()
    body.pop("duplicate")
    expected = dict(ReportSerializer(Report.objects.get()).data)
    assert body == expected


def test_api_final_report_of_abandonment_retires_the_system_or_names_the_missing_field(dane, make_system, api):
    """Dane County Code s. 46.11(5)2.: a final report through the API; without the method, a 400 naming it and nothing stored."""
    from powts.inventory.models import System

    system = make_system()
    r = api.post("/api/maintenance/reports/", _body(kind="abandonment", gallons_pumped=800), format="json")
    assert r.status_code == 400 and "abandonment_method" in r.json()["errors"]
    assert not Report.objects.exists() and System.objects.get(pk=system.pk).status == "active"
    r = api.post("/api/maintenance/reports/", _body(kind="abandonment", gallons_pumped=800, abandonment_method="removed"), format="json")
    assert r.status_code == 201, r.content
    assert r.json()["abandonment_method"] == "removed"
    assert System.objects.get(pk=system.pk).status == "abandoned"
