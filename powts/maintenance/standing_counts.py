"""The dashboard's standing counts, kept by the database as schedules change.

Counting every schedule of a county on each visit takes seconds at 1,000,000 systems. A finished count
cannot be kept either: "due soon" and "overdue" move with today's date without any write. So the
database keeps a histogram instead: one row per (county, rule, type, town, exempt, needs data,
delinquent, failing, notice date, due date) with how many schedules have it, and a visit sums the few
thousand rows of its county against its date (`read`).

Triggers keep it exact for every writer, not only the services: the ORM, the set-based updates of a
notice send and of an import, schedule sync, deletes; and changes of a system's type or status or of
a parcel's town, which the counts group by. A missing date is stored as `NONE` (the key must be
unique for the upsert) and the reads exclude it where a comparison would take it in.
"""
from __future__ import annotations

import datetime as dt

from django.db import connection, transaction

from powts.core.migrate_triggers import OffDuringMigrate
from powts.maintenance import activity_counts, notice_flags

TABLE = "maintenance_standingcount"
NONE = "9999-12-31"
KEY = "jurisdiction_id, rule, system_type, municipality, exempt, needs_data, delinquent, failing, notice_on, due_on"
UPSERT = f"ON CONFLICT ({KEY}) DO UPDATE SET n = {TABLE}.n + excluded.n"


def _row(s: str, system: str, municipality: str, sign: str) -> str:
    """The histogram key of schedule `s` with its system and town, and the count it adds."""
    return (f"{s}.jurisdiction_id, {s}.rule, {system}.system_type, {municipality}, {s}.exempt, {s}.needs_data, "
            f"{s}.delinquent, ({s}.failure_reported OR {system}.status = 'failing'), "
            f"COALESCE({s}.notice_on, '{NONE}'), COALESCE({s}.due_on, '{NONE}'), {sign}")


def _schedule_row(s: str, sign: str) -> str:
    """A schedule row (NEW or OLD in a trigger) as it counts, read with its system and parcel."""
    return (f"INSERT INTO {TABLE} ({KEY}, n) SELECT {_row(s, 'y', 'p.municipality', sign)} "
            f"FROM inventory_system y JOIN inventory_parcel p ON p.id = y.parcel_id WHERE y.id = {s}.system_id {UPSERT}")


def _system_row(y: str, sign: str) -> str:
    """The schedule of system `y` (NEW or OLD) as it counts with that version of the system."""
    return (f"INSERT INTO {TABLE} ({KEY}, n) SELECT {_row('s', y, 'p.municipality', sign)} "
            f"FROM maintenance_schedule s JOIN inventory_parcel p ON p.id = {y}.parcel_id WHERE s.system_id = {y}.id {UPSERT}")


def _schedule_rows(rows: str, sign: str) -> str:
    """Every schedule a statement inserted or deleted (a transition table, PostgreSQL), grouped by key."""
    return (f"INSERT INTO {TABLE} ({KEY}, n) SELECT {_row('s', 'y', 'p.municipality', f'{sign} * COUNT(*)')} "
            f"FROM {rows} s JOIN inventory_system y ON y.id = s.system_id JOIN inventory_parcel p ON p.id = y.parcel_id "
            f"GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 {UPSERT}")


def _parcel_rows(p: str, sign: str) -> str:
    """The schedules of every system on parcel `p` (NEW or OLD), grouped: one upsert may touch a row once."""
    return (f"INSERT INTO {TABLE} ({KEY}, n) SELECT {_row('s', 'y', f'{p}.municipality', f'{sign} * COUNT(*)')} "
            f"FROM inventory_system y JOIN maintenance_schedule s ON s.system_id = y.id WHERE y.parcel_id = {p}.id "
            f"GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 {UPSERT}")


SCHEDULE_COLUMNS = "jurisdiction_id, rule, exempt, needs_data, delinquent, failure_reported, notice_on, due_on"
SYSTEM_COLUMNS = "system_type, status, parcel_id"

# (name, table, event, body statements)
TRIGGERS = [
    ("maint_standing_sched_ins", "maintenance_schedule", "INSERT", None, [_schedule_row("NEW", "1")]),
    ("maint_standing_sched_del", "maintenance_schedule", "DELETE", None, [_schedule_row("OLD", "-1")]),
    ("maint_standing_sched_upd", "maintenance_schedule", f"UPDATE OF {SCHEDULE_COLUMNS}", SCHEDULE_COLUMNS,
     [_schedule_row("OLD", "-1"), _schedule_row("NEW", "1")]),
    ("maint_standing_system_upd", "inventory_system", f"UPDATE OF {SYSTEM_COLUMNS}", SYSTEM_COLUMNS,
     [_system_row("OLD", "-1"), _system_row("NEW", "1")]),
    ("maint_standing_parcel_upd", "inventory_parcel", "UPDATE OF municipality", "municipality",
     [_parcel_rows("OLD", "-1"), _parcel_rows("NEW", "1")]),
]


# The county's number of systems, beside its schedules' (SUM(n) above): the notices page says how many systems
# the schedules do not cover yet (imported since the last sync) without counting a million rows twice.
SYSTEMS = "maintenance_systemcount"
_SYSTEMS_UPSERT = f"ON CONFLICT (jurisdiction_id) DO UPDATE SET n = {SYSTEMS}.n + excluded.n"


def _systems(y: str, sign: str) -> str:
    return f"INSERT INTO {SYSTEMS} (jurisdiction_id, n) VALUES ({y}.jurisdiction_id, {sign}) {_SYSTEMS_UPSERT}"


def _systems_of(rows: str, sign: str) -> str:
    """The same per county for every row a statement inserted or deleted (a transition table, PostgreSQL)."""
    return (f"INSERT INTO {SYSTEMS} (jurisdiction_id, n) SELECT jurisdiction_id, {sign} * COUNT(*) FROM {rows} "
            f"GROUP BY jurisdiction_id {_SYSTEMS_UPSERT}")


TRIGGERS += [
    ("maint_standing_systems_ins", "inventory_system", "INSERT", None, [_systems("NEW", "1")]),
    ("maint_standing_systems_del", "inventory_system", "DELETE", None, [_systems("OLD", "-1")]),
    ("maint_standing_systems_upd", "inventory_system", "UPDATE OF jurisdiction_id", "jurisdiction_id",
     [_systems("OLD", "-1"), _systems("NEW", "1")]),
]


# On PostgreSQL these run once per statement, over the rows it inserted or deleted (its transition table),
# instead of once per row: an import's one INSERT of a county's 100,000 systems upserted the county's row
# 100,000 times in one transaction, and each upsert found the row past every earlier version of it that the
# transaction had made (none can be cleaned away before the commit), so the cost grew with the square of the
# rows: 83-91 s of the server's CPU for that import, 20 s once per statement. name -> (REFERENCING clause,
# body statements). SQLite updates the row in place and keeps the row triggers.
PER_STATEMENT = {
    "maint_standing_systems_ins": ("NEW TABLE AS new_rows", [_systems_of("new_rows", "1")]),
    "maint_standing_systems_del": ("OLD TABLE AS old_rows", [_systems_of("old_rows", "-1")]),
    # A county's schedules made by one sync share few keys (those needing data all have no dates).
    "maint_standing_sched_ins": ("NEW TABLE AS new_rows", [_schedule_rows("new_rows", "1")]),
    "maint_standing_sched_del": ("OLD TABLE AS old_rows", [_schedule_rows("old_rows", "-1")]),
    # A send's notices all share one county and day.
    **activity_counts.PER_STATEMENT,
}


# The dashboard chart's counts by day, installed and counted again with these (powts.maintenance.activity_counts).
TRIGGERS += activity_counts.TRIGGERS
# The notices page's flags on each schedule, likewise (powts.maintenance.notice_flags).
TRIGGERS += notice_flags.TRIGGERS


def _changed(columns: str | None, vendor: str) -> str:
    if not columns:
        return ""
    op = "IS NOT" if vendor == "sqlite" else "IS DISTINCT FROM"
    return "WHEN (" + " OR ".join(f"OLD.{c.strip()} {op} NEW.{c.strip()}" for c in columns.split(",")) + ")"


def install_sql(vendor: str, triggers: list | None = None) -> list[str]:
    """The triggers for this database (SQLite or PostgreSQL). SQLite drops a table's triggers when a
    migration rebuilds the table: such a migration runs these again (`install`)."""
    out = []
    for name, table, event, columns, body in TRIGGERS if triggers is None else triggers:
        when = _changed(columns, vendor)
        body = [b(vendor) if callable(b) else b for b in body]  # a statement may depend on the vendor
        if vendor == "sqlite":
            out.append(f"DROP TRIGGER IF EXISTS {name}")
            out.append(f"CREATE TRIGGER {name} AFTER {event} ON {table} FOR EACH ROW {when} BEGIN "
                       + "; ".join(body) + "; END")
        else:
            each = f"FOR EACH ROW {when}"
            if name in PER_STATEMENT:
                transition, body = PER_STATEMENT[name]
                each = f"REFERENCING {transition} FOR EACH STATEMENT"
            out.append(f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                       + "; ".join(body) + "; RETURN NULL; END $$")
            out.append(f"DROP TRIGGER IF EXISTS {name} ON {table}")
            if name in activity_counts.DEFERRED:  # fired at the COMMIT (activity_counts.DEFERRED says why)
                out.append(f"CREATE CONSTRAINT TRIGGER {name} AFTER {event} ON {table} DEFERRABLE INITIALLY DEFERRED "
                           f"{each} EXECUTE FUNCTION {name}()")
            else:
                out.append(f"CREATE TRIGGER {name} AFTER {event} ON {table} {each} EXECUTE FUNCTION {name}()")
    return out


def drop_sql(vendor: str) -> list[str]:
    if vendor == "sqlite":
        return [f"DROP TRIGGER IF EXISTS {name}" for name, *_ in TRIGGERS]
    return [s for name, table, *_ in TRIGGERS
            for s in (f"DROP TRIGGER IF EXISTS {name} ON {table}", f"DROP FUNCTION IF EXISTS {name}()")]


def reinstall_on_postgresql(schema_editor, names) -> None:
    """A migration's forwards: these triggers created again as this module now writes them, on PostgreSQL
    only (SQLite's are put back whole after every `migrate`, powts.core.migrate_triggers)."""
    conn = schema_editor.connection
    if conn.vendor != "postgresql":
        return
    with conn.cursor() as cursor:
        for sql in install_sql(conn.vendor, [t for t in TRIGGERS if t[0] in names]):
            cursor.execute(sql)


def _with_activity(conn) -> bool:
    """Whether the chart's table is there yet (a migration before maintenance 0014 runs without it)."""
    return activity_counts.TABLE in conn.introspection.table_names()


def _with_flags(conn) -> bool:
    """Whether the notices page's flags are there yet (a migration before maintenance 0016 runs without them)."""
    return notice_flags.TABLE in conn.introspection.table_names()


def install(using_connection=None) -> None:
    conn = using_connection or connection
    triggers = [t for t in TRIGGERS if (_with_activity(conn) or t not in activity_counts.TRIGGERS)
                and (_with_flags(conn) or t not in notice_flags.TRIGGERS)]
    with conn.cursor() as cursor:
        for sql in install_sql(conn.vendor, triggers):
            cursor.execute(sql)


def _put_back(conn) -> None:
    if TABLE in conn.introspection.table_names():
        install(conn)
        rebuild(using_connection=conn)


# Off while SQLite's `migrate` runs, back and counted again after it (powts.core.migrate_triggers).
_around_migrate = OffDuringMigrate(drop_sql, _put_back)
deferred, before_migrate, after_migrate = _around_migrate.deferred, _around_migrate.before_migrate, _around_migrate.after_migrate


FILL = (f"INSERT INTO {TABLE} ({KEY}, n) SELECT {_row('s', 'y', 'p.municipality', 'COUNT(*)')} "
        "FROM maintenance_schedule s JOIN inventory_system y ON y.id = s.system_id JOIN inventory_parcel p ON p.id = y.parcel_id "
        "{where} GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10")


SYSTEMS_FILL = f"INSERT INTO {SYSTEMS} (jurisdiction_id, n) SELECT jurisdiction_id, COUNT(*) FROM inventory_system {{where}} GROUP BY 1"


def rebuild(*, jurisdiction_id: int | None = None, using_connection=None) -> None:
    """Count again from the schedules (and the chart's reports and notices), set-based (the migration; a bulk path
    that went around the triggers)."""
    conn = using_connection or connection
    activity = _with_activity(conn)
    with transaction.atomic(using=conn.alias), conn.cursor() as cursor:
        if jurisdiction_id is None:
            cursor.execute(f"DELETE FROM {TABLE}")
            cursor.execute(FILL.format(where=""))
            cursor.execute(f"DELETE FROM {SYSTEMS}")
            cursor.execute(SYSTEMS_FILL.format(where=""))
            if activity:
                activity_counts.rebuild(cursor)
            if _with_flags(conn):
                notice_flags.rebuild(cursor)
        else:
            cursor.execute(f"DELETE FROM {TABLE} WHERE jurisdiction_id = %s", [jurisdiction_id])
            cursor.execute(FILL.format(where="WHERE s.jurisdiction_id = %s"), [jurisdiction_id])
            cursor.execute(f"DELETE FROM {SYSTEMS} WHERE jurisdiction_id = %s", [jurisdiction_id])
            cursor.execute(SYSTEMS_FILL.format(where="WHERE jurisdiction_id = %s"), [jurisdiction_id])
            if activity:
                activity_counts.rebuild(cursor, jurisdiction_id)
            if _with_flags(conn):
                notice_flags.rebuild(cursor, jurisdiction_id)


def compact(*, using_connection=None) -> bool:
    """PostgreSQL: the kept counts rewritten without the row versions a large change left behind; the nightly sweep
    runs it after the schedules. A statement that updates many schedules writes a count row once per schedule (its
    update triggers are per row), and none of those versions can be cleaned up before it commits: one update of
    426,000 schedules left a county's 19,000 count rows spread over 81 MB, which the dashboard and the notices page
    read whole (38 ms where 2 ms do). VACUUM FULL holds the table's lock while it rewrites it: milliseconds at a
    county's size. It cannot run inside a transaction; there (and on SQLite, which rewrites rows in place) it
    does nothing and returns False."""
    conn = using_connection or connection
    if conn.vendor != "postgresql" or conn.in_atomic_block:
        return False
    with conn.cursor() as cursor:
        for table in (TABLE, activity_counts.TABLE):
            cursor.execute(f"VACUUM (FULL, ANALYZE) {table}")
    return True


STANDINGS = ("current", "due_soon", "overdue", "delinquent", "needs_data", "exempt", "failing")

# Each standing as the Schedule filters of selectors.standing_q say, over the histogram's columns (a missing
# date is NONE here, NULL there: a comparison that NULL fails must exclude NONE).
_LIVE = "NOT exempt AND NOT needs_data"
_SUMS = {
    "current": f"{_LIVE} AND notice_on > %(as_of)s AND notice_on < '{NONE}'",
    "due_soon": f"{_LIVE} AND notice_on <= %(as_of)s AND due_on > %(as_of)s AND due_on < '{NONE}'",
    "overdue": f"{_LIVE} AND due_on <= %(as_of)s AND NOT delinquent",
    "delinquent": f"{_LIVE} AND due_on <= %(as_of)s AND delinquent",
    "needs_data": "needs_data",
    "exempt": "exempt",
    "failing": "failing",
}
_READ = ("SELECT rule, system_type, municipality, "
         + ", ".join(f"SUM(CASE WHEN {cond} THEN n ELSE 0 END)" for cond in _SUMS.values())
         + f" FROM {TABLE} WHERE jurisdiction_id = %(county)s GROUP BY rule, system_type, municipality HAVING SUM(n) > 0")


def read(*, jurisdiction_id: int, as_of: dt.date) -> list[dict]:
    """The county's counts on `as_of` per (rule, type, town): one pass over its histogram rows."""
    with connection.cursor() as cursor:
        cursor.execute(_READ, {"as_of": as_of, "county": jurisdiction_id})
        rows = cursor.fetchall()
    return [{"rule": r[0], "system_type": r[1], "municipality": r[2], **dict(zip(STANDINGS, (int(v) for v in r[3:]), strict=True))}
            for r in rows]


def kept_totals(*, jurisdiction_id: int) -> tuple[int, int]:
    """The county's systems and schedules, as kept by the database (no count of a million rows)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT (SELECT n FROM {SYSTEMS} WHERE jurisdiction_id = %s), "
                       f"(SELECT SUM(n) FROM {TABLE} WHERE jurisdiction_id = %s)", [jurisdiction_id, jurisdiction_id])
        systems, schedules = cursor.fetchone()
    return int(systems or 0), int(schedules or 0)


def unscheduled(*, jurisdiction_id: int) -> int:
    """How many of the county's systems have no schedule yet (imported since the last sync)."""
    systems, schedules = kept_totals(jurisdiction_id=jurisdiction_id)
    return max(0, systems - schedules)
