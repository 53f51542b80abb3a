"""Speed ("every page above: p95 under 100 ms at 1,000,000 systems"): the maintenance dashboard's
delinquent and pumping-required lists took 15 s and 6 s at 1,000,000 schedules (bench/bench_pages.py), each
walking every schedule of the county in due order to find the few so marked. Each is now read from a partial
index holding only those schedules, in due order."""
import datetime as dt

import pytest
from django.db import connection

from powts.core.tests.table_copies import copies
from powts.maintenance.models import Schedule


@pytest.fixture
def a_county_of_schedules(dane, make_system):
    """3,000 systems with schedules, one in a hundred delinquent and one in a hundred to be pumped, and 3,000 letters:
    PostgreSQL is asked with rows enough to choose an index for a reason (see table_copies)."""
    from powts.maintenance.models import Notice
    from powts.maintenance.services import schedule_refresh

    if connection.vendor != "postgresql":
        return  # SQLite's planner takes an index that fits the query whatever the table's size
    system = make_system(installed_on=dt.date(2020, 6, 1))
    schedule_refresh(system=system)
    Notice.objects.create(jurisdiction=dane, system=system, kind="first_notice", due_on=dt.date(2023, 6, 1),
                          as_of=dt.date(2023, 3, 1), sent_at=dt.datetime(2023, 3, 1, tzinfo=dt.timezone.utc),
                          batch="b-1", to_name="Olive Owner")
    copies("inventory_system", 3000, system_id="'DA-' || (g + 1)")
    copies("maintenance_schedule", 3000, rows="(SELECT id AS copy, row_number() OVER (ORDER BY id) AS g FROM inventory_system "
                                              f"WHERE id <> {system.pk}) gs",
           system_id="gs.copy", system_ref="'DA-' || (g + 1)", delinquent="g % 100 = 0", pumping_required="g % 100 = 1")
    copies("maintenance_notice", 3000, due_on="first.due_on + g",
           kind="CASE WHEN g % 100 = 0 THEN 'holding_overdue' ELSE 'first_notice' END")


def _plan(qs) -> str:
    sql, params = qs.query.sql_with_params()
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
            return " ".join(str(row[-1]) for row in cursor.fetchall())
        cursor.execute("SET LOCAL enable_seqscan = off")  # a test table is tiny: ask which index it would use
        cursor.execute(f"EXPLAIN {sql}", params)
        return " ".join(row[0] for row in cursor.fetchall())


@pytest.mark.parametrize("flag,index", [("delinquent", "maint_sched_delinquent"), ("pumping_required", "maint_sched_pumping")])
def test_the_dashboard_lists_read_their_own_partial_index(a_county_of_schedules, dane, flag, index):
    from powts.maintenance.selectors import morning_lists

    morning_lists(jurisdiction=dane, as_of=dt.date(2026, 6, 1))  # runs
    qs = Schedule.objects.filter(jurisdiction_id=dane.pk, **{flag: True})
    if flag == "delinquent":
        qs = qs.filter(due_on__lte=dt.date(2026, 6, 1))
    assert index in _plan(qs.order_by("due_on")[:25])


def test_the_holding_tanks_overdue_list_reads_the_countys_systems_once(dane):
    """The dashboard's list of holding tanks without a report for the last period (the county's semiannual
    reports) took 80 ms at 1,000,000 systems: its subquery of covering reports was joined to the systems
    table and read every system of the county. A report is now looked up per tank, by its own index."""
    from powts.maintenance import holding_periods
    from powts.maintenance.profile import maintenance_profile
    from powts.maintenance.selectors import holding_overdue_rows, holding_reports_overdue

    rule = holding_periods.rule(maintenance_profile(dane.profile_slug).raw)
    assert rule is not None  # the county has such periods, so the dashboard shows the list
    holding_reports_overdue(jurisdiction=dane, as_of=dt.date(2026, 6, 1))  # runs
    sql = str(holding_overdue_rows(jurisdiction=dane, period=holding_periods.last_overdue(rule, dt.date(2026, 6, 1))).query)
    assert sql.count('FROM "inventory_system"') == 1 and 'JOIN "inventory_system"' not in sql


def test_the_holding_letters_recorded_for_a_period_are_counted_from_their_own_index(a_county_of_schedules, dane):
    """The dashboard's count of the owners' letters recorded for the last holding tank period read every notice
    of the county (74 ms CPU with a year of notices, 900,000, at 1,000,000 systems); it reads the (county, kind,
    due date) index."""
    from powts.maintenance.models import Notice

    qs = Notice.objects.filter(jurisdiction=dane, kind="holding_overdue", due_on=dt.date(2026, 7, 30))
    assert "maint_notice_kind_due" in _plan(qs.values("pk"))
