"""The dashboard chart's reports, late reports and notices per county and day, kept by the database.

A year of activity at 1,000,000 systems is some 900,000 notices and 300,000 reports: counting them on each
visit read every one (150 ms even grouped by day over an index). So triggers keep one row per (county, day)
with the three counts, for every writer (the services, the set-based inserts of a notice send, deletes),
and the chart sums the year's 365 rows. Installed, dropped around SQLite's migrations and counted again
with the standing counts (powts.maintenance.standing_counts, which lists these triggers with its own).
"""
from __future__ import annotations

TABLE = "maintenance_activitycount"
_UPSERT = (f"ON CONFLICT (jurisdiction_id, day) DO UPDATE SET reports = {TABLE}.reports + excluded.reports, "
           f"late = {TABLE}.late + excluded.late, notices = {TABLE}.notices + excluded.notices")


def _report(r: str, sign: str) -> str:
    return (f"INSERT INTO {TABLE} (jurisdiction_id, day, reports, late, notices) VALUES ({r}.jurisdiction_id, {r}.work_date, "
            f"{sign}, {sign} * (CASE WHEN {r}.late THEN 1 ELSE 0 END), 0) {_UPSERT}")


def _notice(n: str, sign: str) -> str:
    return (f"INSERT INTO {TABLE} (jurisdiction_id, day, reports, late, notices) VALUES ({n}.jurisdiction_id, {n}.as_of, "
            f"0, 0, {sign}) {_UPSERT}")


def _notices_of(rows: str, sign: str) -> str:
    """The same per county and day for every notice a statement inserted or deleted (a transition table,
    PostgreSQL): a send's notices all share one county and day (standing_counts.PER_STATEMENT says why)."""
    return (f"INSERT INTO {TABLE} (jurisdiction_id, day, reports, late, notices) SELECT jurisdiction_id, as_of, 0, 0, "
            f"{sign} * COUNT(*) FROM {rows} GROUP BY jurisdiction_id, as_of {_UPSERT}")


REPORT_COLUMNS = "jurisdiction_id, work_date, late"
NOTICE_COLUMNS = "jurisdiction_id, as_of"

# (name, table, event, columns an update must change, body statements): as standing_counts.TRIGGERS
TRIGGERS = [
    ("maint_standing_activity_report_ins", "maintenance_report", "INSERT", None, [_report("NEW", "1")]),
    ("maint_standing_activity_report_del", "maintenance_report", "DELETE", None, [_report("OLD", "-1")]),
    ("maint_standing_activity_report_upd", "maintenance_report", f"UPDATE OF {REPORT_COLUMNS}", REPORT_COLUMNS,
     [_report("OLD", "-1"), _report("NEW", "1")]),
    ("maint_standing_activity_notice_ins", "maintenance_notice", "INSERT", None, [_notice("NEW", "1")]),
    ("maint_standing_activity_notice_del", "maintenance_notice", "DELETE", None, [_notice("OLD", "-1")]),
    ("maint_standing_activity_notice_upd", "maintenance_notice", f"UPDATE OF {NOTICE_COLUMNS}", NOTICE_COLUMNS,
     [_notice("OLD", "-1"), _notice("NEW", "1")]),
]

# PostgreSQL runs these once per statement (standing_counts.PER_STATEMENT). A report comes one at a time
# (one row per transaction), so its triggers stay per row.
PER_STATEMENT = {
    "maint_standing_activity_notice_ins": ("NEW TABLE AS new_rows", [_notices_of("new_rows", "1")]),
    "maint_standing_activity_notice_del": ("OLD TABLE AS old_rows", [_notices_of("old_rows", "-1")]),
}

_FILL = (f"INSERT INTO {TABLE} (jurisdiction_id, day, reports, late, notices) "
         "SELECT jurisdiction_id, day, SUM(reports), SUM(late), SUM(notices) FROM ("
         "SELECT jurisdiction_id, work_date AS day, 1 AS reports, CASE WHEN late THEN 1 ELSE 0 END AS late, 0 AS notices "
         "FROM maintenance_report {where} UNION ALL "
         "SELECT jurisdiction_id, as_of, 0, 0, 1 FROM maintenance_notice {where}) a GROUP BY jurisdiction_id, day")


def rebuild(cursor, jurisdiction_id: int | None = None) -> None:
    """Count again from the reports and notices, set-based (inside standing_counts.rebuild's transaction)."""
    if jurisdiction_id is None:
        cursor.execute(f"DELETE FROM {TABLE}")
        cursor.execute(_FILL.format(where=""))
    else:
        cursor.execute(f"DELETE FROM {TABLE} WHERE jurisdiction_id = %s", [jurisdiction_id])
        cursor.execute(_FILL.format(where="WHERE jurisdiction_id = %s"), [jurisdiction_id, jurisdiction_id])


def read(*, jurisdiction_id: int, start) -> list[tuple]:
    """(day, reports, late, notices) for the county's days from `start` on."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"SELECT day, reports, late, notices FROM {TABLE} WHERE jurisdiction_id = %s AND day >= %s",
                       [jurisdiction_id, start])
        return cursor.fetchall()
