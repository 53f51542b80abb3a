"""The report API at 200 a second on PostgreSQL: the dashboard chart's count of a county's
reports per day (powts.maintenance.activity_counts) is written when a report's transaction commits. Written at
the INSERT, it locked the county's row for the day until the COMMIT, so two reports of one day filed at once
waited on each other for a whole transaction. The count stays exact."""
import datetime as dt
import threading

import pytest
from django.db import connection, transaction
from django.utils import timezone

from powts.maintenance import standing_counts
from powts.maintenance.models import ActivityCount, Report
from powts.maintenance.selectors import compliance_over_time, compliance_over_time_counted

DAY = dt.date(2026, 3, 2)


def _report(county, system, license_, ref: str) -> Report:
    return Report.objects.create(jurisdiction=county, system=system, system_ref=ref, kind="pumping", work_date=DAY,
                                 license=license_, filed_at=timezone.now())


def _reports_counted(county) -> int:
    row = ActivityCount.objects.filter(jurisdiction=county, day=DAY).first()
    return row.reports if row else 0


@pytest.mark.django_db(transaction=True)
def test_two_reports_of_one_county_and_day_do_not_wait_for_each_other(dane, make_system, pumper_license):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite writes one transaction at a time")
    system = make_system()
    inserted, finish, failed = threading.Event(), threading.Event(), []

    def first_report_still_open():
        try:
            with transaction.atomic():
                _report(dane, system, pumper_license, "R-FIRST")
                inserted.set()
                finish.wait(10)
        except Exception as exc:  # the main thread's assertion names it
            failed.append(exc)
            inserted.set()
        finally:
            connection.close()

    other = threading.Thread(target=first_report_still_open)
    other.start()
    try:
        assert inserted.wait(10) and not failed
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")  # before: "canceling statement due to lock timeout"
            _report(dane, system, pumper_license, "R-SECOND")
    finally:
        finish.set()
        other.join(10)
    assert not failed
    assert _reports_counted(dane) == 2
    as_of = DAY + dt.timedelta(days=1)
    assert compliance_over_time(jurisdiction=dane, as_of=as_of) == compliance_over_time_counted(jurisdiction=dane, as_of=as_of)


@pytest.mark.django_db(transaction=True)
def test_a_transactions_own_reports_are_counted_once_by_a_recount_and_seen_by_the_chart(dane, make_system, pumper_license):
    # Two transactions, so that each of the chart's read and the recount is the first to fire the pending triggers
    # (after that, the rest of a transaction's triggers fire as they happen).
    system = make_system()
    as_of = DAY + dt.timedelta(days=1)
    with transaction.atomic():
        _report(dane, system, pumper_license, "R-1")
        march = [m for m in compliance_over_time(jurisdiction=dane, as_of=as_of) if m["month"] == "2026-03"]
        assert march[0]["reports"] == 1  # the chart, read in the transaction that filed the report
    with transaction.atomic():
        _report(dane, system, pumper_license, "R-2")
        standing_counts.rebuild(jurisdiction_id=dane.pk)  # counts both; R-2's trigger must not add it again
    assert _reports_counted(dane) == 2
    assert compliance_over_time(jurisdiction=dane, as_of=as_of) == compliance_over_time_counted(jurisdiction=dane, as_of=as_of)


def test_the_report_triggers_are_deferred_on_postgresql_and_rows_on_sqlite():
    for vendor in ("postgresql", "sqlite"):
        created = [s for s in standing_counts.install_sql(vendor) if "CREATE" in s and "TRIGGER maint_standing_activity_report" in s]
        assert len(created) == 3
        deferred = [s for s in created if "DEFERRABLE INITIALLY DEFERRED" in s]
        assert len(deferred) == (3 if vendor == "postgresql" else 0)
