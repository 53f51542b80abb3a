"""Dane County Code s. 46.06(5)(b)2.: the owner reports the holding tank's servicing "on a semiannual basis".
What is due when (calendar half-years, due 30 days after each: county settings), the overdue list (one query),
who files (owner, contractor, staff; web page and API). Lincoln asks for each servicing instead (Holding Tank
Maintenance Agreement (3)): no periods, nothing listed."""
import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from powts.maintenance import holding_periods
from powts.maintenance.models import HoldingTankReport
from powts.maintenance.profile import maintenance_profile
from powts.maintenance.selectors import holding_reports_overdue
from powts.maintenance.services import holding_report_file

D = dt.date


def _rule():
    return holding_periods.rule(maintenance_profile("dane").raw)


@pytest.mark.parametrize("day,start,end", [(D(2026, 6, 30), D(2026, 1, 1), D(2026, 6, 30)),
                                           (D(2026, 7, 1), D(2026, 7, 1), D(2026, 12, 31)),
                                           (D(2026, 1, 1), D(2026, 1, 1), D(2026, 6, 30))])
def test_46_06_5_b_2_half_years(day, start, end):
    """Dane 46.06(5)(b)2. "semiannual": the half-year a day falls in (June 30 and July 1 on either side)."""
    period = holding_periods.period_of(_rule(), day)
    assert (period.start, period.end) == (start, end)
    assert period.due_on == end + dt.timedelta(days=30)


@pytest.mark.parametrize("as_of,end", [(D(2026, 7, 30), D(2025, 12, 31)), (D(2026, 7, 31), D(2026, 6, 30))])
def test_46_06_5_b_2_overdue_the_day_after_the_due_day(as_of, end):
    """The report for January-June is due July 30: on July 30 it is not yet overdue (the last overdue is the previous
    half-year); on July 31 it is."""
    assert holding_periods.last_overdue(_rule(), as_of).end == end


def _report(start, end, on):
    return {"servicer_name": "Perry Pumper", "servicer_address": "PO Box 12", "owner_name": "Olive Owner",
            "location": "12 Lake Rd", "sanitary_permit_number": "2020-0001", "period_start": start.isoformat(),
            "period_end": end.isoformat(), "services": [{"date": on.isoformat(), "gallons": 3000, "disposal_site": "Nine Springs"}]}


def test_46_06_5_b_2_overdue_list_and_a_report_takes_the_tank_off_it(dane, make_system):
    """Dane 46.06(5)(b)2.: a tank without a report for the half-year is listed the day after it was due; a report
    covering the half-year takes it off. A tank installed after the half-year ended owes nothing for it."""
    tank = make_system(system_id="HT-1", system_type="holding_tank", installed_on=D(2020, 1, 1))
    make_system(system_id="HT-2", system_type="holding_tank", installed_on=D(2026, 7, 1))
    make_system(system_id="DA-1", system_type="conventional")
    period, rows = holding_reports_overdue(jurisdiction=dane, as_of=D(2026, 7, 31))
    assert period.end == D(2026, 6, 30) and [s.system_id for s in rows] == ["HT-1"]
    assert "46.06(5)(b)2." in period.citation
    holding_report_file(system=tank, data=_report(D(2026, 1, 1), D(2026, 6, 30), D(2026, 5, 1)), today=D(2026, 7, 31))
    assert holding_reports_overdue(jurisdiction=dane, as_of=D(2026, 7, 31))[1] == []


def test_the_overdue_list_is_one_query_however_many_tanks(dane, make_system):
    """Statewide speed: the list is a query, not a reading of every system's reports."""
    for i in range(30):
        make_system(system_id=f"HT-{i}", system_type="holding_tank", installed_on=D(2020, 1, 1))
    with CaptureQueriesContext(connection) as q:
        _, rows = holding_reports_overdue(jurisdiction=dane, as_of=D(2026, 7, 31))
    assert len(rows) == 30 and len(q.captured_queries) <= 2


def test_lincoln_has_no_semiannual_report(lincoln, make_system):
    """Lincoln, Holding Tank Maintenance Agreement (3): each servicing is reported; no periods, nothing overdue."""
    make_system(system_id="LI-1", system_type="holding_tank", jurisdiction=lincoln, installed_on=D(2020, 1, 1))
    assert holding_reports_overdue(jurisdiction=lincoln, as_of=D(2026, 7, 31)) == (None, [])


def test_the_owner_files_on_the_web_page(dane, make_system, make_user, client):
    """Dane 46.06(5)(b)2. "the owner ... shall submit": the system's owner files the report on the page."""
    tank = make_system(system_id="HT-1", system_type="holding_tank", installed_on=D(2020, 1, 1))
    user = make_user("olive", "owner")
    owner = tank.parcel.owner
    owner.user = user
    owner.save(update_fields=["user"])
    client.force_login(user)
    today = dt.date.today()
    start = today.replace(month=1 if today.month <= 6 else 7, day=1)
    post = {"jurisdiction": "dane", "system_id": "HT-1", "period_start": start.isoformat(), "period_end": today.isoformat(),
            "servicer_name": "Perry Pumper", "servicer_address": "PO Box 12", "owner_name": "Olive Owner",
            "location": "12 Lake Rd", "sanitary_permit_number": "2020-0001", "date_0": today.isoformat(),
            "gallons_0": "2500", "disposal_site_0": ""}
    r = client.post("/maintenance/holding-report/", post)
    assert r.status_code == 400 and "disposal_site" in r.content.decode() and not HoldingTankReport.objects.exists()
    r = client.post("/maintenance/holding-report/", {**post, "disposal_site_0": "Nine Springs"})
    assert r.status_code == 302 and HoldingTankReport.objects.get().filed_by == user


def test_another_owner_may_not_file(dane, make_system, make_user, client):
    make_system(system_id="HT-1", system_type="holding_tank", installed_on=D(2020, 1, 1))
    client.force_login(make_user("other", "owner"))
    r = client.post("/maintenance/holding-report/", {"jurisdiction": "dane", "system_id": "HT-1"})
    assert r.status_code == 403 and not HoldingTankReport.objects.exists()


def test_lincoln_tank_is_refused_on_the_page(lincoln, make_system, make_user, client):
    make_system(system_id="LI-1", system_type="holding_tank", jurisdiction=lincoln, installed_on=D(2020, 1, 1))
    client.force_login(make_user("lina", "county_staff", lincoln))
    r = client.post("/maintenance/holding-report/", {"system_id": "LI-1"})
    assert r.status_code == 400 and "each servicing" in r.content.decode()


def test_the_api_files_and_lists(dane, make_system, staff, pumper_license):
    from rest_framework.test import APIClient

    make_system(system_id="HT-1", system_type="holding_tank", installed_on=D(2020, 1, 1))
    api = APIClient()
    api.force_authenticate(staff)
    r = api.get("/api/maintenance/holding-reports/")
    assert r.status_code == 200 and [x["system_id"] for x in r.json()["overdue"]] == ["HT-1"]
    api.force_authenticate(pumper_license.user)
    period = holding_periods.last_overdue(_rule(), dt.date.today())
    body = {"jurisdiction": "dane", "system_id": "HT-1", **_report(period.start, period.end, period.end)}
    r = api.post("/api/maintenance/holding-reports/", {**body, "services": []}, format="json")
    assert r.status_code == 400 and "services" in r.json()["errors"]
    r = api.post("/api/maintenance/holding-reports/", body, format="json")
    assert r.status_code == 201, r.content
    api.force_authenticate(staff)
    assert api.get("/api/maintenance/holding-reports/").json()["overdue"] == []
