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

# PostgreSQL fires a report's triggers at its transaction's COMMIT (deferred constraint triggers), not at its
# INSERT: the reports of a county and day share one row, and an upsert at the INSERT held that row's lock to the
# COMMIT, so reports filed at once waited on each other for the whole of each one's transaction. The report API on
# PostgreSQL, 200 a second offered (bench/bench_maintenance.py): 0.36-0.69 of its 4 backends waiting on that
# lock on average, 173-186 a second, p50 0.6-0.7 s; deferred, none waiting, 187-200 a second, p50 40-65 ms.
# Deferring changes no count: each trigger reads only its own row's OLD or NEW, and counts add up.
DEFERRED = ("maint_standing_activity_report_ins", "maint_standing_activity_report_del", "maint_standing_activity_report_upd")

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


def settle(connection) -> None:
    """PostgreSQL, inside a transaction: fire its deferred count triggers now (and the rest as they happen),
    so that a read in the transaction sees its own reports and a recount is not followed by their +1 at
    the COMMIT. Only the triggers installed as deferred are named (a migration may run before they are)."""
    if connection.vendor != "postgresql" or not connection.in_atomic_block:
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT tgname FROM pg_trigger WHERE tgname = ANY(%s) AND tgconstraint <> 0", [list(DEFERRED)])
        names = [connection.ops.quote_name(name) for (name,) in cursor.fetchall()]
        if names:
            cursor.execute(f"SET CONSTRAINTS {', '.join(names)} IMMEDIATE")


def rebuild(cursor, jurisdiction_id: int | None = None) -> None:
    """Count again from the reports and notices, set-based (inside standing_counts.rebuild's transaction)."""
    settle(cursor.db)
    if jurisdiction_id is None:
        cursor.execute(f"DELETE FROM {TABLE}")
        cursor.execute(_FILL.format(where=""))
    else:
        cursor.execute(f"DELETE FROM {TABLE} WHERE jurisdiction_id = %s", [jurisdiction_id])
        cursor.execute(_FILL.format(where="WHERE jurisdiction_id = %s"), [jurisdiction_id, jurisdiction_id])


def read(*, jurisdiction_id: int, start) -> list[tuple]:
    """(day, reports, late, notices) for the county's days from `start` on."""
    from django.db import connection

    settle(connection)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT day, reports, late, notices FROM {TABLE} WHERE jurisdiction_id = %s AND day >= %s",
                       [jurisdiction_id, start])
        return cursor.fetchall()
