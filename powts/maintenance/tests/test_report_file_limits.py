"""A contractor's report file is bounded: rows per file and per filer per day in the county (reports.files in
maintenance.yaml, county policy), refused whole before any row is read as a report, with the limit named, on the
web form, the API and the command. A row for a system the county does not have is that row's error (its line and
reason); the report form still keeps a report for a system not yet in the inventory for review (SPS 383.255)."""
import dataclasses
import datetime as dt
import io
import json
import time

import pytest
from django.test import Client
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from powts.maintenance import csv_upload, services
from powts.maintenance.models import Report, ReportFile
from powts.maintenance.profile import maintenance_profile

HEADER = "system_id,kind,work_date,license_number,gallons_pumped\n"


def _rows(n, system_id="DA-1", start=dt.date(2025, 1, 1)):
    return "".join(f"{system_id},pumping,{start + dt.timedelta(days=i)},SSO-1,900\n" for i in range(n))


def _api(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=user)[1]}")
    return client


@pytest.fixture
def no_row_read(monkeypatch):
    """Any row read as a report fails the test: a file over a limit is refused before that."""
    def refuse(**kw):
        raise AssertionError("a row was read as a report")
    monkeypatch.setattr(csv_upload, "report_submit", refuse)


@pytest.fixture
def small_limits(monkeypatch):
    """Dane's profile with 3 rows per file and 5 a day, so both sides of each limit are a few rows."""
    profile = dataclasses.replace(maintenance_profile("dane"), file_rows_per_file=3, file_rows_per_day=5)
    monkeypatch.setattr(csv_upload, "profile_for", lambda unit: profile)
    monkeypatch.setattr(services, "profile_for", lambda unit: profile)
    return profile


def test_the_state_default_is_2000_rows_a_file_and_5000_a_day_cited_as_county_policy():
    for slug in ("state", "dane", "lincoln"):
        p = maintenance_profile(slug)
        assert (p.file_rows_per_file, p.file_rows_per_day) == (2000, 5000)
        assert p.citations["report_files"].startswith("county policy")


def test_a_limit_that_is_not_a_whole_number_of_rows_does_not_load():
    from powts.kernel.profiles import ProfileError
    from powts.maintenance.profile import build

    raw = maintenance_profile("state").raw
    for bad in (0, -1, "2000", True, None):
        files = {**raw["reports"]["files"], "rows_per_file": bad}
        with pytest.raises(ProfileError, match="reports.files.rows_per_file"):
            build("x", {**raw, "reports": {**raw["reports"], "files": files}})
    files = {k: v for k, v in raw["reports"]["files"].items() if k != "citation"}
    with pytest.raises(ProfileError, match="reports.files: no citation"):
        build("x", {**raw, "reports": {**raw["reports"], "files": files}})


def test_a_100000_row_file_is_refused_at_once_on_the_api_naming_the_limit(dane, make_system, pumper_license, no_row_read):
    make_system()
    data = (HEADER + _rows(100_000)).encode()
    assert len(data) > 3_000_000
    started = time.perf_counter()
    r = _api(pumper_license.user).post("/api/maintenance/reports/upload/", {"file": io.BytesIO(data), "jurisdiction": "dane"},
                                       format="multipart")
    took = time.perf_counter() - started
    assert r.status_code == 400, r.content
    message = r.json()["errors"]["file"][0]
    assert "more than 2,000 rows" in message and "line 2002" in message and "5,000 a day" in message and "county policy" in message
    assert took < 10, took  # reading stops at row 2,001 (before: 964 s for the whole file)
    assert Report.objects.count() == 0 and ReportFile.objects.count() == 0


def test_a_100000_row_file_is_refused_at_once_on_the_web_form_naming_the_limit(dane, make_system, pumper_license, no_row_read):
    make_system()
    client = Client()
    client.force_login(pumper_license.user)
    r = client.post("/maintenance/upload/", {"jurisdiction": "dane", "file": io.BytesIO((HEADER + _rows(100_000)).encode())})
    assert r.status_code == 200 and b"more than 2,000 rows" in r.content and b"county policy" in r.content
    assert Report.objects.count() == 0 and ReportFile.objects.count() == 0


def test_a_100000_row_file_is_refused_at_once_by_the_command_naming_the_limit(dane, make_system, pumper_license, cli, tmp_path,
                                                                             no_row_read):
    make_system()
    path = tmp_path / "reports.csv"
    path.write_text(HEADER + _rows(100_000))
    code, out, err = cli("maintenance", "reports", "upload", str(path), "--jurisdiction", "dane")
    assert code != 0 and "more than 2,000 rows" in err and "county policy" in err, (out, err)
    assert Report.objects.count() == 0 and ReportFile.objects.count() == 0


def test_rows_per_file_both_sides(dane, make_system, pumper_license, small_limits):
    make_system()
    client = _api(pumper_license.user)
    r = client.post("/api/maintenance/reports/upload/", {"file": io.BytesIO((HEADER + _rows(3) + "\n,,,,\n").encode()), "jurisdiction": "dane"},
                    format="multipart")
    assert r.status_code == 200 and r.json()["stored"] == 3  # exactly the limit (a blank row is not a row)
    r = client.post("/api/maintenance/reports/upload/",
                    {"file": io.BytesIO((HEADER + _rows(4, start=dt.date(2025, 6, 1))).encode()), "jurisdiction": "dane"},
                    format="multipart")
    assert r.status_code == 400 and "more than 3 rows" in r.json()["errors"]["file"][0]
    assert Report.objects.count() == 3


def test_rows_per_day_across_two_files_both_sides(dane, make_system, pumper_license, small_limits, make_user):
    make_system()
    client = _api(pumper_license.user)

    def send(n, start):
        return client.post("/api/maintenance/reports/upload/",
                           {"file": io.BytesIO((HEADER + _rows(n, start=start)).encode()), "jurisdiction": "dane"}, format="multipart")

    assert send(3, dt.date(2025, 1, 1)).json()["stored"] == 3
    r = send(3, dt.date(2025, 2, 1))  # 3 + 3 > 5: refused whole, saying how many are left
    assert r.status_code == 400
    message = r.json()["errors"]["file"][0]
    assert "at most 5 report rows a day" in message and "3 already filed today" in message and "2 more" in message
    assert "county policy" in message
    assert send(2, dt.date(2025, 3, 1)).json()["stored"] == 2  # 3 + 2 = 5: exactly the limit
    assert send(1, dt.date(2025, 4, 1)).status_code == 400
    assert Report.objects.count() == 5
    # Rejected rows count too: the limit is on rows sent, not reports stored.
    assert list(ReportFile.objects.order_by("id").values_list("rows", "stored")) == [(3, 3), (2, 2)]


def test_the_day_is_the_countys_day_and_each_filer_has_their_own(dane, make_system, pumper_license, small_limits, make_user):
    from powts.accounts.services import license_create

    make_system()
    now = timezone.now()
    midnight = timezone.make_aware(dt.datetime.combine(timezone.localdate(now), dt.time.min))
    ReportFile.objects.create(jurisdiction=dane, filed_by=pumper_license.user, channel="api", filed_at=midnight - dt.timedelta(seconds=1),
                              rows=5)
    assert services.report_file_rows_today(jurisdiction=dane, filed_by=pumper_license.user) == 0  # yesterday's file
    ReportFile.objects.create(jurisdiction=dane, filed_by=pumper_license.user, channel="api", filed_at=midnight, rows=4)
    assert services.report_file_rows_today(jurisdiction=dane, filed_by=pumper_license.user) == 4
    other = make_user("paula", "pumper")
    license_create(kind="septage_operator", number="SSO-9", holder_name="Paula", user=other)
    data = (HEADER + _rows(3).replace("SSO-1", "SSO-9")).encode()
    r = _api(other).post("/api/maintenance/reports/upload/", {"file": io.BytesIO(data), "jurisdiction": "dane"}, format="multipart")
    assert r.status_code == 200 and r.json()["stored"] == 3


def test_a_row_for_a_system_the_county_does_not_have_is_that_rows_error(dane, make_system, pumper_license, cli, tmp_path):
    make_system()
    path = tmp_path / "reports.csv"
    path.write_text(HEADER + "DA-1,pumping,2026-01-05,SSO-1,900\nNOT-YET-1,pumping,2026-01-05,SSO-1,900\nDA-1,pumping,2026-01-09,SSO-1,800\n")
    code, out, err = cli("maintenance", "reports", "upload", str(path), "--jurisdiction", "dane", "--json")
    assert code == 0, err
    got = json.loads(out)
    assert (got["rows"], got["stored"], got["queued_for_review"]) == (3, 2, 0)
    [(line, reason)] = [(x["line"], x["reason"]) for x in got["rejected"]]
    assert line == 3 and "system NOT-YET-1 is not in Dane County's inventory" in reason and "SPS 383.255" in reason
    assert sorted(Report.objects.values_list("system_ref", flat=True)) == ["DA-1", "DA-1"]


def test_the_report_form_still_keeps_a_report_for_a_system_not_yet_in_the_inventory_sps_383_255(dane, pumper_license):
    body = {"jurisdiction": "dane", "system_id": "NOT-YET-1", "kind": "pumping", "work_date": "2026-01-05", "license_number": "SSO-1",
            "gallons_pumped": 900}
    r = _api(pumper_license.user).post("/api/maintenance/reports/", body, format="json")
    assert r.status_code == 201, r.content
    assert Report.objects.get().review_status == "pending"
