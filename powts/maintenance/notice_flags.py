"""The notices page's kept flags on each schedule, kept by the database: `retired` and `held`.

Counting a month's letters (about 75,000 at 1,000,000 systems) read, for each letter, its system (retired?),
its parcel and owner (is the address usable?): 85-95 ms a kind in SQLite. With both answers on the schedule,
the page counts and pages its letters from one index (powts.maintenance.notice_page).

- `retired`: the system is abandoned or replaced.
- `held`: the letter would be held back: no owner of record, or an owner whose mailing address cannot go on
  an envelope. Whether an address can is `addresses.problem`, Python; so `recheck` writes its answer per owner
  in `maintenance_addresscheck`, and a trigger drops that row when the address changes. An owner not checked
  since leaves `held` empty (NULL): the page checks those letters' addresses itself, as before.

Triggers keep both exact for every writer (services, the import's set-based writes, bulk updates, deletes):
a system's status or parcel, a parcel's owner (a sale), an owner's address, an address check, and any
write of the flags themselves (a stale `save()`) are put right from the source tables. Installed with the
standing counts' triggers (powts.maintenance.standing_counts), which SQLite's migrations take off and put back.
"""
from __future__ import annotations

from django.db import connection, transaction

from powts.inventory.choices import RETIRED_STATUSES
from powts.maintenance import addresses

TABLE = "maintenance_addresscheck"
FIELDS = ("retired", "held")  # the schedule's columns the database writes: no service writes them back
_STATUSES = "(" + ", ".join(f"'{s}'" for s in sorted(str(s) for s in RETIRED_STATUSES)) + ")"


def _retired(system_id: str) -> str:
    return f"(SELECT y.status IN {_STATUSES} FROM inventory_system y WHERE y.id = {system_id})"


def _held(system_id: str) -> str:
    """No owner: held. Else held when the check says unusable; NULL when there is no check (NOT NULL is NULL)."""
    return (f"(SELECT CASE WHEN p.owner_id IS NULL THEN TRUE ELSE NOT c.usable END FROM inventory_system y "
            f"JOIN inventory_parcel p ON p.id = y.parcel_id LEFT JOIN {TABLE} c ON c.owner_id = p.owner_id WHERE y.id = {system_id})")


def fix(where: str):
    """The statement setting both flags from the source tables on the schedules `where` selects, writing only
    those that differ (so a trigger's own write finds nothing to do). A function of the database's vendor."""
    s = "maintenance_schedule.system_id"

    def sql(vendor: str) -> str:
        op = "IS NOT" if vendor == "sqlite" else "IS DISTINCT FROM"
        return (f"UPDATE maintenance_schedule SET retired = {_retired(s)}, held = {_held(s)} "
                f"WHERE {where} AND (retired {op} {_retired(s)} OR held {op} {_held(s)})")

    return sql


def _of_owner(owner_id: str) -> str:
    return (f"system_id IN (SELECT y.id FROM inventory_system y JOIN inventory_parcel p ON p.id = y.parcel_id "
            f"WHERE p.owner_id = {owner_id})")


# (name, table, event, columns an update must change, body statements): as standing_counts.TRIGGERS
TRIGGERS = [
    ("maint_standing_flags_sched_ins", "maintenance_schedule", "INSERT", None, [fix("system_id = NEW.system_id")]),
    # a writer that sets a flag (a model saved with an old value) is put right at once
    ("maint_standing_flags_sched_upd", "maintenance_schedule", "UPDATE OF system_id, retired, held", "system_id, retired, held",
     [fix("system_id = NEW.system_id")]),
    ("maint_standing_flags_system_upd", "inventory_system", "UPDATE OF status, parcel_id", "status, parcel_id",
     [fix("system_id = NEW.id")]),
    ("maint_standing_flags_parcel_upd", "inventory_parcel", "UPDATE OF owner_id", "owner_id",
     [fix("system_id IN (SELECT y.id FROM inventory_system y WHERE y.parcel_id = NEW.id)")]),
    ("maint_standing_flags_check_ins", TABLE, "INSERT", None, [fix(_of_owner("NEW.owner_id"))]),
    ("maint_standing_flags_check_upd", TABLE, "UPDATE OF owner_id, usable", "owner_id, usable",
     [fix(_of_owner("OLD.owner_id")), fix(_of_owner("NEW.owner_id"))]),
    ("maint_standing_flags_check_del", TABLE, "DELETE", None, [fix(_of_owner("OLD.owner_id"))]),
    # a new address is not checked yet: its check goes, and with it the letters' flag (NULL)
    ("maint_standing_flags_owner_address", "inventory_owner", "UPDATE OF mailing_address", "mailing_address",
     [f"DELETE FROM {TABLE} WHERE owner_id = NEW.id"]),
    ("maint_standing_flags_owner_del", "inventory_owner", "DELETE", None, [f"DELETE FROM {TABLE} WHERE owner_id = OLD.id"]),
]


def _insert_check(vendor: str) -> str:
    """One owner's check, kept only if the address is still the text checked. On PostgreSQL the owner's row is
    locked (FOR SHARE) so an address change committing meanwhile is waited for and then seen."""
    lock = " FOR SHARE" if vendor == "postgresql" else ""
    return (f"INSERT INTO {TABLE} (owner_id, usable) SELECT id, %s FROM inventory_owner WHERE id = %s AND mailing_address = %s"
            f"{lock} ON CONFLICT (owner_id) DO NOTHING")


def recheck(*, jurisdiction_id: int | None = None, owner_ids=None, using_connection=None, chunk: int = 5000) -> int:
    """Check the mailing address of each owner (of the county, or those given; all without either) that has no
    check: after an import and every night (schedule_sync), and by the migration that added the checks. Returns
    how many were checked. Each check's trigger sets its owner's letters' `held`."""
    conn = using_connection or connection
    where, params = "", []
    if owner_ids is not None:
        ids = list(owner_ids)
        if not ids:
            return 0
        where, params = f"AND o.id IN ({', '.join(['%s'] * len(ids))})", ids
    elif jurisdiction_id is not None:
        where, params = "AND o.jurisdiction_id = %s", [jurisdiction_id]
    with conn.cursor() as cursor:
        cursor.execute(f"SELECT o.id, o.mailing_address FROM inventory_owner o WHERE NOT EXISTS "
                       f"(SELECT 1 FROM {TABLE} c WHERE c.owner_id = o.id) {where}", params)
        todo = cursor.fetchall()
    if not todo:
        return 0
    usable: dict[str, bool] = {}
    rows = []
    for owner_id, text in todo:
        text = text or ""
        if text not in usable:
            usable[text] = not addresses.problem(text)
        rows.append((usable[text], owner_id, text))
    sql = _insert_check(conn.vendor)
    with transaction.atomic(using=conn.alias), conn.cursor() as cursor:
        for start in range(0, len(rows), chunk):
            cursor.executemany(sql, rows[start:start + chunk])
    return len(rows)


def rebuild(cursor, jurisdiction_id: int | None = None) -> None:
    """Both flags of every schedule (of the county) from the source tables, set-based (after SQLite's migrations,
    which run without the triggers; inside standing_counts.rebuild's transaction). Owners' checks are `recheck`'s."""
    if jurisdiction_id is None:
        cursor.execute(fix("1 = 1")(cursor.db.vendor))
    else:
        cursor.execute(fix("jurisdiction_id = %s")(cursor.db.vendor), [jurisdiction_id])
