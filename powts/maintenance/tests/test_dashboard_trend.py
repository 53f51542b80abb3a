"""Speed: the dashboard's chart of reports, late reports and notices by month. A year at 1,000,000
systems is some 900,000 notices and 300,000 reports; each was read into Python (sorted first by the model's
ordering) on every visit. The database now keeps the three counts per county and day (triggers,
powts.maintenance.activity_counts) and the chart sums a year of days: the same numbers as counting the rows,
after every kind of write, on both sides of each month's first and last day."""
import datetime as dt

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from powts.maintenance import standing_counts
from powts.maintenance.models import ActivityCount, Notice, Report
from powts.maintenance.selectors import compliance_over_time, compliance_over_time_counted

AS_OF = dt.date(2026, 6, 15)
# (day, late): the window is July 2025 to June 2026; the day before it and a day after as_of's month are outside
DAYS = [(dt.date(2025, 6, 30), False), (dt.date(2025, 7, 1), True), (dt.date(2025, 7, 1), False),
        (dt.date(2025, 7, 31), False), (dt.date(2026, 2, 28), True), (dt.date(2026, 6, 30), False), (dt.date(2026, 7, 1), False)]


def _both(county):
    kept = compliance_over_time(jurisdiction=county, as_of=AS_OF)
    assert kept == compliance_over_time_counted(jurisdiction=county, as_of=AS_OF)
    return {t["month"]: (t["reports"], t["late"], t["notices"]) for t in kept}


def _record(county, system, license_):
    for i, (day, late) in enumerate(DAYS):
        Report.objects.create(jurisdiction=county, system=system, system_ref=f"R-{i}", kind="pumping", work_date=day,
                              license=license_, filed_at=timezone.now(), late=late)
        Notice.objects.create(jurisdiction=county, system=system, kind="first_notice", due_on=day + dt.timedelta(days=30 + i),
                              as_of=day, sent_at=timezone.now())


def test_the_months_count_every_report_late_report_and_notice_of_the_window(dane, make_system, pumper_license):
    _record(dane, make_system(), pumper_license)
    by_month = _both(dane)
    assert list(by_month) == [f"{y}-{m:02d}" for y, m in [(2025, m) for m in range(7, 13)] + [(2026, m) for m in range(1, 7)]]
    assert by_month["2025-07"] == (3, 1, 3)
    assert by_month["2026-02"] == (1, 1, 1)
    assert by_month["2026-06"] == (1, 0, 1)
    assert sum(r for r, _, _ in by_month.values()) == 5 and sum(n for _, _, n in by_month.values()) == 5
    # the chart reads the county's kept days (one query), never the reports and notices themselves; on PostgreSQL,
    # inside a transaction (this test's), it first fires the transaction's deferred count triggers (activity_counts.settle)
    with CaptureQueriesContext(connection) as queries:
        compliance_over_time(jurisdiction=dane, as_of=AS_OF)
    reads = [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(("SELECT tgname FROM pg_trigger", "SET CONSTRAINTS"))]
    assert len(reads) == 1
    assert "maintenance_activitycount" in reads[0] and "maintenance_notice" not in reads[0] and "maintenance_report" not in reads[0]


def test_the_kept_days_follow_every_write(dane, lincoln, make_system, pumper_license):
    system = make_system()
    _record(dane, system, pumper_license)
    # an update across a month's edge, a late flag set, a notice's date moved out of the window, another county's
    Report.objects.filter(system_ref="R-3").update(work_date=dt.date(2025, 8, 1))
    Report.objects.filter(system_ref="R-2").update(late=True)
    Notice.objects.filter(as_of=dt.date(2026, 6, 30)).update(as_of=dt.date(2026, 7, 1))
    Report.objects.filter(system_ref="R-4").update(jurisdiction=lincoln)
    by_month = _both(dane)
    assert by_month["2025-07"] == (2, 2, 3) and by_month["2025-08"] == (1, 0, 0)
    assert by_month["2026-02"] == (0, 0, 1) and by_month["2026-06"] == (1, 0, 0)
    # set-based inserts (as a notice send writes them) and deletes
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO maintenance_notice (kind, due_on, as_of, sent_at, batch, to_name, to_address, to_email, "
                       "email_error, pdf_path, citation, jurisdiction_id, system_id, language, bounce_reason) "
                       "VALUES ('reminder', '2026-06-01', '2026-06-01', %s, 'b', '', '', '', '', '', '', %s, %s, 'en', '')",
                       [timezone.now(), dane.pk, system.pk])
    Report.objects.filter(system_ref="R-1").delete()
    Notice.objects.filter(as_of=dt.date(2025, 7, 31)).delete()
    by_month = _both(dane)
    assert by_month["2025-07"] == (1, 1, 2) and by_month["2026-06"] == (1, 0, 1)
    # counted again from the rows, the same
    before = sorted(ActivityCount.objects.filter(reports__gt=0).values_list("jurisdiction_id", "day", "reports", "late", "notices"))
    standing_counts.rebuild(jurisdiction_id=dane.pk)
    assert sorted(ActivityCount.objects.filter(reports__gt=0).values_list("jurisdiction_id", "day", "reports", "late", "notices")) == before
    assert _both(dane) == by_month
