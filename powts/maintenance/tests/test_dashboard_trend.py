"""Issue 10, speed: the dashboard's chart of reports, late reports and notices by month. A year of batches at
1,000,000 systems is some 300,000 notices; each was read into Python (sorted first by the model's ordering)
to be counted by month. They are now counted by day in the database and summed by month."""
import datetime as dt

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from powts.maintenance.models import Notice, Report
from powts.maintenance.selectors import compliance_over_time

AS_OF = dt.date(2026, 6, 15)


def test_the_months_count_every_report_late_report_and_notice_of_the_window(dane, make_system, pumper_license):
    system = make_system()
    # (work date or mailing date, late): the window is July 2025 to June 2026; the day before it and a day
    # after as_of's month are outside it
    days = [(dt.date(2025, 6, 30), False), (dt.date(2025, 7, 1), True), (dt.date(2025, 7, 1), False),
            (dt.date(2025, 7, 31), False), (dt.date(2026, 2, 28), True), (dt.date(2026, 6, 30), False),
            (dt.date(2026, 7, 1), False)]
    for i, (day, late) in enumerate(days):
        Report.objects.create(jurisdiction=dane, system=system, system_ref=f"R-{i}", kind="pumping", work_date=day,
                              license=pumper_license, filed_at=timezone.now(), late=late)
        Notice.objects.create(jurisdiction=dane, system=system, kind="first_notice", due_on=day + dt.timedelta(days=30 + i),
                              as_of=day, sent_at=timezone.now())
    with CaptureQueriesContext(connection) as queries:
        trend = compliance_over_time(jurisdiction=dane, as_of=AS_OF)
    by_month = {t["month"]: (t["reports"], t["late"], t["notices"]) for t in trend}
    assert list(by_month) == [f"{y}-{m:02d}" for y, m in [(2025, m) for m in range(7, 13)] + [(2026, m) for m in range(1, 7)]]
    assert by_month["2025-07"] == (3, 1, 3)
    assert by_month["2026-02"] == (1, 1, 1)
    assert by_month["2026-06"] == (1, 0, 1)
    assert sum(r for r, _, _ in by_month.values()) == 5 and sum(n for _, _, n in by_month.values()) == 5
    # one row per day from each table, counted by the database; never every row, never sorted by the model's order
    assert len(queries.captured_queries) == 2
    assert all("GROUP BY" in q["sql"] and "ORDER BY" not in q["sql"] for q in queries.captured_queries)
