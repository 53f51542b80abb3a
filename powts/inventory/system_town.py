"""Each system's municipality: its parcel's, copied onto the system (System.municipality) by the database.

The systems list filtered by town and type read the town's parcels, then each one's systems, for its count and
again for its page's ids (161 ms at 1,000,000 systems). With the town on the system, one index (county, town,
type, system id) answers both: the count walks the index, and a page is the index read in order.

Triggers keep the copy equal to the parcel's for every writer (the services, the import's set-based inserts,
a parcel's bulk update, a system moved to another parcel, an ORM save carrying a stale value): a system's
insert or change of parcel or town takes its parcel's town, and a parcel's change of town is copied to its
systems. Like the dashboard's counts (powts.maintenance.standing_counts), they are off while SQLite's
migrations rebuild tables (a trigger reading another table fails the rename) and put back after, with the
copy made again set-based.
"""
from __future__ import annotations

from django.db import connection

from powts.core.migrate_triggers import OffDuringMigrate

_PARCEL_TOWN = "(SELECT p.municipality FROM inventory_parcel p WHERE p.id = NEW.parcel_id)"

# SQLite: AFTER triggers that write only when the value differs (a writer that already gives the parcel's town,
# as the import does, pays one look-up of the parcel per row).
SQLITE = {
    "inventory_system_town_ins": (
        f"CREATE TRIGGER inventory_system_town_ins AFTER INSERT ON inventory_system FOR EACH ROW "
        f"WHEN NEW.municipality IS NOT {_PARCEL_TOWN} BEGIN "
        f"UPDATE inventory_system SET municipality = {_PARCEL_TOWN} WHERE id = NEW.id; END"),
    "inventory_system_town_upd": (
        f"CREATE TRIGGER inventory_system_town_upd AFTER UPDATE OF parcel_id, municipality ON inventory_system "
        f"FOR EACH ROW WHEN NEW.municipality IS NOT {_PARCEL_TOWN} BEGIN "
        f"UPDATE inventory_system SET municipality = {_PARCEL_TOWN} WHERE id = NEW.id; END"),
    "inventory_parcel_town_upd": (
        "CREATE TRIGGER inventory_parcel_town_upd AFTER UPDATE OF municipality ON inventory_parcel FOR EACH ROW "
        "WHEN OLD.municipality IS NOT NEW.municipality BEGIN "
        "UPDATE inventory_system SET municipality = NEW.municipality WHERE parcel_id = NEW.id; END"),
}

# PostgreSQL: the system's row takes its parcel's town before it is written; a parcel's new town goes to its systems.
POSTGRESQL = [
    "CREATE OR REPLACE FUNCTION inventory_system_town() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    f"NEW.municipality := {_PARCEL_TOWN}; RETURN NEW; END $$",
    "DROP TRIGGER IF EXISTS inventory_system_town ON inventory_system",
    "CREATE TRIGGER inventory_system_town BEFORE INSERT OR UPDATE OF parcel_id, municipality ON inventory_system "
    "FOR EACH ROW EXECUTE FUNCTION inventory_system_town()",
    "CREATE OR REPLACE FUNCTION inventory_parcel_town() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "UPDATE inventory_system SET municipality = NEW.municipality WHERE parcel_id = NEW.id "
    "AND municipality IS DISTINCT FROM NEW.municipality; RETURN NULL; END $$",
    "DROP TRIGGER IF EXISTS inventory_parcel_town ON inventory_parcel",
    "CREATE TRIGGER inventory_parcel_town AFTER UPDATE OF municipality ON inventory_parcel FOR EACH ROW "
    "WHEN (OLD.municipality IS DISTINCT FROM NEW.municipality) EXECUTE FUNCTION inventory_parcel_town()",
]

# Every system whose copy differs from its parcel's town (NULL too: a row written while the triggers were off).
SYNC = {
    "sqlite": ("UPDATE inventory_system SET municipality = (SELECT p.municipality FROM inventory_parcel p "
               "WHERE p.id = inventory_system.parcel_id) WHERE municipality IS NOT (SELECT p.municipality "
               "FROM inventory_parcel p WHERE p.id = inventory_system.parcel_id)"),
    "postgresql": ("UPDATE inventory_system y SET municipality = p.municipality FROM inventory_parcel p "
                   "WHERE p.id = y.parcel_id AND y.municipality IS DISTINCT FROM p.municipality"),
}


def install_sql(vendor: str) -> list[str]:
    if vendor == "sqlite":
        return [s for name, create in SQLITE.items() for s in (f"DROP TRIGGER IF EXISTS {name}", create)]
    return list(POSTGRESQL)


def drop_sql(vendor: str) -> list[str]:
    if vendor == "sqlite":
        return [f"DROP TRIGGER IF EXISTS {name}" for name in SQLITE]
    return ["DROP TRIGGER IF EXISTS inventory_system_town ON inventory_system",
            "DROP TRIGGER IF EXISTS inventory_parcel_town ON inventory_parcel",
            "DROP FUNCTION IF EXISTS inventory_system_town()", "DROP FUNCTION IF EXISTS inventory_parcel_town()"]


def install(using_connection=None) -> None:
    """The triggers, then the copy made again for rows written without them."""
    conn = using_connection or connection
    with conn.cursor() as cursor:
        for sql in install_sql(conn.vendor):
            cursor.execute(sql)
        cursor.execute(SYNC[conn.vendor])


def _has_column(conn) -> bool:
    """Whether System.municipality exists yet (a migrate run from before inventory 0016 adds it on the way)."""
    if "inventory_system" not in conn.introspection.table_names():
        return False
    with conn.cursor() as cursor:
        return any(c.name == "municipality" for c in conn.introspection.get_table_description(cursor, "inventory_system"))


def _put_back(conn) -> None:
    if _has_column(conn):
        install(conn)


# Off while SQLite's `migrate` runs, back after it, as the maintenance counts' (powts.core.migrate_triggers).
_around_migrate = OffDuringMigrate(drop_sql, _put_back)
deferred, before_migrate, after_migrate = _around_migrate.deferred, _around_migrate.before_migrate, _around_migrate.after_migrate
