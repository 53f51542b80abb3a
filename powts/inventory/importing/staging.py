"""The import's new systems written set-based: a staging table, then one INSERT ... SELECT per table.

Inside the import's one write transaction, every checked row that creates a system goes into a temporary
staging table with the database's bulk path (COPY on PostgreSQL, executemany on SQLite). `write()` then
creates, each with one statement: the owners and parcels the inventory does not have yet, the parcels'
first ownerships, the systems, their tanks, and an audit row for every owner, parcel and system created
(the same content the per-row import wrote, built in SQL). A new system on a parcel the inventory already
had, under another owner, changes the parcel's owner through the service (audited as a sale), as before.
A parcel this import creates takes the owner of its first row in the file.
"""
from __future__ import annotations

import contextlib
import logging
import time

import orjson
from django.db import connection

from powts.inventory.choices import ComponentKind, SystemType
from powts.inventory.importing.bulk_indexes import rebuilt_after
from powts.inventory.search import BulkIndexer, search_text_for
from powts.inventory.services import owner_kind

log = logging.getLogger("powts.inventory.importing")
STAGE = "powts_import_stage"
NEW_OWNER = "powts_import_new_owner"
NEW_PARCEL = "powts_import_new_parcel"
REFS = "powts_import_refs"  # narrow: each staged row's owner, parcel and system id
TABLES = (STAGE, NEW_OWNER, NEW_PARCEL, REFS)

# (column, SQLite type, PostgreSQL type), in the order rows are staged.
COLUMNS = (
    ("seq", "INTEGER PRIMARY KEY", "integer PRIMARY KEY"),
    ("system_id", "TEXT", "text"), ("parcel_number", "TEXT", "text"), ("system_type", "TEXT", "text"),
    ("status", "TEXT", "text"), ("owner_name", "TEXT", "text"), ("owner_mailing_address", "TEXT", "text"),
    ("owner_kind", "TEXT", "text"), ("language", "TEXT", "text"), ("site_address", "TEXT", "text"),
    ("municipality", "TEXT", "text"), ("legal_description", "TEXT", "text"), ("sewered", "INTEGER", "boolean"),
    ("latitude", "TEXT", "text"), ("longitude", "TEXT", "text"), ("site_zip", "TEXT", "text"),
    ("installed_on", "TEXT", "date"), ("installed_on_precision", "TEXT", "text"), ("last_serviced_on", "TEXT", "date"),
    ("tank_capacity_gallons", "INTEGER", "integer"), ("tank_kind", "TEXT", "text"), ("design_flow_gpd", "INTEGER", "integer"),
    ("bedrooms", "INTEGER", "integer"), ("permit_number", "TEXT", "text"), ("extra", "TEXT", "text"),
    ("search_text", "TEXT", "text"), ("skipped", "TEXT", "text"),
)
NAMES = [c[0] for c in COLUMNS]


def tank_kind(system_type: str) -> str:
    return ComponentKind.HOLDING_TANK if system_type == SystemType.HOLDING_TANK else ComponentKind.SEPTIC_TANK


def staged_values(r) -> tuple:
    """A checked row (rows.InventoryRow) as the staging table's columns after `seq`, dates as ISO text (which
    COPY reads as well): built once, in the check phase, and kept so by the spool (spool.py)."""
    installed, serviced = r.installed_on, r.last_serviced_on
    return (
        r.system_id, r.parcel_id, str(r.system_type), None if r.status is None else str(r.status),
        r.owner_name, r.owner_mailing_address, owner_kind(r.owner_name), str(r.language or ""),
        r.site_address, r.municipality, r.legal_description, bool(r.sewered),
        None if r.latitude is None else str(r.latitude), None if r.longitude is None else str(r.longitude),
        r.site_zip, installed and installed.isoformat(), r.installed_on_precision, serviced and serviced.isoformat(),
        r.tank_capacity_gallons, str(tank_kind(r.system_type)), r.design_flow_gpd, r.bedrooms, r.permit_number,
        orjson.dumps(r.extra).decode(), search_text_for(r.system_id, r.parcel_id, r.site_address, r.municipality, r.owner_name),
        ",".join(sorted(r.skipped)),
    )


@contextlib.contextmanager
def bulk_session():
    """SQLite's page cache raised for the write (2 MB by default): a million rows' index pages then stay in
    memory instead of being read again for every insert. PostgreSQL sizes its own buffers."""
    if connection.vendor != "sqlite":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA cache_size")
        before = cursor.fetchone()[0]
        cursor.execute(f"PRAGMA cache_size = {-BULK_CACHE_KIB}")
        try:
            yield
        finally:
            cursor.execute(f"PRAGMA cache_size = {int(before)}")


BULK_CACHE_KIB = 256 * 1024  # within the import's memory target of 1 GiB


class _Timed:
    """The cursor, each statement's time logged (powts.inventory.importing at DEBUG): where a large import goes."""

    def __init__(self, cursor):
        self.cursor = cursor

    def execute(self, sql: str, params=None):
        started = time.perf_counter()
        self.cursor.execute(sql, params)
        log.debug("%.3f s  %s", time.perf_counter() - started, " ".join(sql.split())[:90])

    def fetchall(self):
        return self.cursor.fetchall()

    def fetchone(self):
        return self.cursor.fetchone()


class Stage:
    def __init__(self, *, jurisdiction_id: int, audit: dict, action: str):
        """`audit`: now, actor_id, actor_label, channel, batch and the content type ids (owner, parcel, system)."""
        self.pg = connection.vendor == "postgresql"
        self.jurisdiction_id = jurisdiction_id
        self.audit = audit
        self.action = action
        self.rows = 0
        with connection.cursor() as cursor:
            for table in TABLES:
                cursor.execute(f"DROP TABLE IF EXISTS {table}")
            kind = 2 if self.pg else 1
            columns = ", ".join(f"{c[0]} {c[kind]}" for c in COLUMNS)
            after = " ON COMMIT DROP" if self.pg else ""
            cursor.execute(f"CREATE TEMP TABLE {STAGE} ({columns}){after}")

    # -- loading ----------------------------------------------------------------------------------------
    def add(self, values: list[tuple]) -> None:
        """Stage rows that create a system, as staged_values() gave them (each chunk as it is written)."""
        if not values:
            return
        start = self.rows
        tuples = [(seq, *v) for seq, v in enumerate(values, start=start + 1)]
        self.rows += len(tuples)
        with connection.cursor() as cursor:
            if self.pg:
                with cursor.cursor.copy(f"COPY {STAGE} ({', '.join(NAMES)}) FROM STDIN") as copy:
                    for t in tuples:
                        copy.write_row(t)
            else:
                cursor.executemany(f"INSERT INTO {STAGE} VALUES ({', '.join(['%s'] * len(NAMES))})", tuples)

    # -- SQL pieces -------------------------------------------------------------------------------------
    def _json(self, expr: str) -> str:
        return f"to_json({expr})::text" if self.pg else f"json_quote({expr})"

    def _changes(self, pieces: list[tuple[str, str, str]]) -> str:
        """A JSON object {key: [null, value]} of the pieces whose condition holds: (key, value SQL, condition)."""
        parts = " || ".join(
            f"CASE WHEN {cond} THEN ',\"{key}\":[null,' || {value} || ']' ELSE '' END" for key, value, cond in pieces)
        body = f"'{{' || substr({parts}, 2) || '}}'"
        return f"CAST({body} AS jsonb)" if self.pg else body

    def _text(self, key: str, column: str) -> tuple[str, str, str]:
        return key, self._json(column), f"{column} IS NOT NULL AND {column} <> ''"

    def _audit_insert(self, cursor, content_type: str, select: str, params: list) -> None:
        a = self.audit
        cursor.execute(
            "INSERT INTO audit_auditevent (at, actor_id, actor_label, channel, action, verb, content_type_id, object_id, "
            f"object_repr, changes, batch) SELECT %s, %s, %s, %s, %s, 'create', %s, {select}",
            [a["now"], a["actor_id"], a["actor_label"], a["channel"], self.action, a["content_types"][content_type], a["batch"],
             *params])

    def _id_base(self, table: str) -> str:
        """SQLite: the largest id the table has used (its AUTOINCREMENT counter, so a deleted row's id is never
        given again, as Django's own inserts would not), as SQL. The import's write transaction locks out every
        other writer, so ids past it are free until the commit."""
        return (f"(SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = '{table}'), 0), "
                f"COALESCE((SELECT MAX(id) FROM {table}), 0)))")

    def _new_id(self, table: str) -> str:
        """SQL giving each row of an UPDATE of a narrow new-records table a fresh id for `table`."""
        if self.pg:
            return f"nextval(pg_get_serial_sequence('{table}', 'id'))"
        return f"rowid + {self._id_base(table)}"

    # -- writing ----------------------------------------------------------------------------------------
    def write(self, change_owner) -> None:
        """Every staged row's records, set-based. `change_owner(parcel_id, owner_id)` is called, in file order,
        for each new system on a stored parcel that the file gives another owner."""
        if not self.rows:
            self.drop()
            return
        j, a = self.jurisdiction_id, self.audit
        after = " ON COMMIT DROP" if self.pg else ""
        with connection.cursor() as raw:
            cursor = _Timed(raw)
            cursor.execute(f"CREATE INDEX {STAGE}_owner ON {STAGE} (owner_name, owner_mailing_address)")
            cursor.execute(f"CREATE INDEX {STAGE}_parcel ON {STAGE} (parcel_number)")
            # Owners: one per name and mailing address the county does not have; the language of the first
            # row that gives one, else English; the kind from the name.
            cursor.execute(
                f"CREATE TEMP TABLE {NEW_OWNER}{after} AS SELECT g.owner_name AS name, g.owner_mailing_address AS mailing, "
                "g.first AS first, g.lang_seq AS lang_seq, CAST(NULL AS bigint) AS id FROM ("
                f"SELECT owner_name, owner_mailing_address, MIN(seq) AS first, MIN(CASE WHEN language <> '' THEN seq END) AS lang_seq "
                f"FROM {STAGE} GROUP BY owner_name, owner_mailing_address) g "
                "WHERE NOT EXISTS (SELECT 1 FROM inventory_owner o WHERE +o.jurisdiction_id = %s AND o.name = g.owner_name "
                "AND o.mailing_address = g.owner_mailing_address)", [j])
            # Ids given here (from the sequence on PostgreSQL; past the largest on SQLite, whose write
            # transaction locks out other writers), so each staged row finds its owner by an exact key.
            cursor.execute(f"UPDATE {NEW_OWNER} SET id = {self._new_id('inventory_owner')}")
            cursor.execute(f"CREATE UNIQUE INDEX {NEW_OWNER}_key ON {NEW_OWNER} (name, mailing)")
            cursor.execute(
                "INSERT INTO inventory_owner (id, jurisdiction_id, name, kind, mailing_address, email, phone, language) "
                f"SELECT n.id, %s, n.name, s.owner_kind, n.mailing, '', '', COALESCE(l.language, 'en') FROM {NEW_OWNER} n "
                f"JOIN {STAGE} s ON s.seq = n.first LEFT JOIN {STAGE} l ON l.seq = n.lang_seq ORDER BY n.id", [j])
            language = "COALESCE(l.language, 'en')"
            self._audit_insert(cursor, "owner", (
                "n.id, substr(n.name, 1, 200), " + self._changes([
                    self._text("name", "n.name"), self._text("kind", "s.owner_kind"), self._text("mailing_address", "n.mailing"),
                    ("language", self._json(language), f"{language} <> 'en'"),
                ]) + f", %s FROM {NEW_OWNER} n JOIN {STAGE} s ON s.seq = n.first LEFT JOIN {STAGE} l ON l.seq = n.lang_seq"
            ), [])

            # Parcels the county does not have, from the first row that names each; their first ownership.
            cursor.execute(
                f"CREATE TEMP TABLE {NEW_PARCEL}{after} AS SELECT g.parcel_number AS number, g.first AS first, "
                f"CAST(NULL AS bigint) AS id FROM (SELECT parcel_number, MIN(seq) AS first FROM {STAGE} GROUP BY parcel_number) g "
                "WHERE NOT EXISTS (SELECT 1 FROM inventory_parcel p WHERE p.jurisdiction_id = %s AND p.parcel_number = g.parcel_number) "
                "ORDER BY g.first", [j])
            decimal = "CAST({} AS numeric)" if self.pg else "{}"
            cursor.execute(f"UPDATE {NEW_PARCEL} SET id = {self._new_id('inventory_parcel')}")
            cursor.execute(f"CREATE UNIQUE INDEX {NEW_PARCEL}_number ON {NEW_PARCEL} (number)")
            cursor.execute(f"CREATE INDEX {NEW_PARCEL}_id ON {NEW_PARCEL} (id)")
            # Each staged row's owner, parcel and system id, computed once into a narrow table instead of
            # UPDATEs that rewrite every wide staged row (on PostgreSQL a new version of each row, per UPDATE).
            # New owners' and parcels' ids were given above; a stored one's is looked up (its smallest id, as
            # the per-row import took; +jurisdiction_id: SQLite, without statistics, would otherwise search by
            # county, not by name); systems are all new, their ids given here in file order.
            system_id = (f"{self._id_base('inventory_system')} + s.seq" if not self.pg
                         else "nextval(pg_get_serial_sequence('inventory_system', 'id'))")
            cursor.execute(
                f"CREATE TEMP TABLE {REFS}{after} AS SELECT s.seq AS seq, "
                "COALESCE(nw.id, (SELECT MIN(o.id) FROM inventory_owner o WHERE +o.jurisdiction_id = %s "
                "AND o.name = s.owner_name AND o.mailing_address = s.owner_mailing_address)) AS owner_ref, "
                "COALESCE(nwp.id, (SELECT p.id FROM inventory_parcel p WHERE p.jurisdiction_id = %s "
                f"AND p.parcel_number = s.parcel_number)) AS parcel_ref, {system_id} AS system_ref "
                f"FROM {STAGE} s LEFT JOIN {NEW_OWNER} nw ON nw.name = s.owner_name AND nw.mailing = s.owner_mailing_address "
                f"LEFT JOIN {NEW_PARCEL} nwp ON nwp.number = s.parcel_number ORDER BY s.seq", [j, j])
            cursor.execute(f"CREATE UNIQUE INDEX {REFS}_seq ON {REFS} (seq)")
            cursor.execute(f"SELECT count(*) FROM {NEW_PARCEL}")
            with rebuilt_after(cursor, "inventory_parcel", cursor.fetchone()[0]):
                cursor.execute(
                    "INSERT INTO inventory_parcel (id, jurisdiction_id, parcel_number, legal_description, site_address, "
                    "municipality, sewered, latitude, longitude, owner_id, site_zip) "
                    f"SELECT n.id, %s, s.parcel_number, s.legal_description, s.site_address, s.municipality, s.sewered, "
                    f"{decimal.format('s.latitude')}, {decimal.format('s.longitude')}, r.owner_ref, s.site_zip "
                    f"FROM {NEW_PARCEL} n JOIN {STAGE} s ON s.seq = n.first JOIN {REFS} r ON r.seq = n.first ORDER BY n.id", [j])
            cursor.execute(
                "INSERT INTO inventory_ownership (parcel_id, owner_id, started_on, ended_on, recorded_at) "
                f"SELECT n.id, r.owner_ref, NULL, NULL, %s FROM {NEW_PARCEL} n JOIN {REFS} r ON r.seq = n.first ORDER BY n.id",
                [a["now"]])
            self._audit_insert(cursor, "parcel", (
                "n.id, substr('Parcel ' || n.number, 1, 200), " + self._changes([
                    self._text("parcel_number", "n.number"), self._text("site_address", "s.site_address"),
                    self._text("municipality", "s.municipality"), self._text("latitude", "s.latitude"),
                    self._text("longitude", "s.longitude"), self._text("owner", "s.owner_name"),
                    self._text("legal_description", "s.legal_description"),
                    ("sewered", "'true'", "s.sewered" if self.pg else "s.sewered <> 0"),
                    self._text("site_zip", "s.site_zip"),
                ]) + f", %s FROM {NEW_PARCEL} n JOIN {STAGE} s ON s.seq = n.first"
            ), [])

            # A new system on a stored parcel under another owner: the parcel changes hands (in file order).
            cursor.execute(
                f"SELECT s.parcel_ref, s.owner_ref, p.owner_id FROM {REFS} s JOIN inventory_parcel p ON p.id = s.parcel_ref "
                f"WHERE s.parcel_ref IN (SELECT s2.parcel_ref FROM {REFS} s2 JOIN inventory_parcel p2 ON p2.id = s2.parcel_ref "
                f"WHERE (p2.owner_id IS NULL OR p2.owner_id <> s2.owner_ref) "
                f"AND NOT EXISTS (SELECT 1 FROM {NEW_PARCEL} n WHERE n.id = s2.parcel_ref)) ORDER BY s.seq")
            prior: dict[int, int | None] = {}
            for parcel_id, owner_id, stored_owner in cursor.fetchall():
                if prior.setdefault(parcel_id, stored_owner) != owner_id:
                    change_owner(parcel_id, owner_id)
                    prior[parcel_id] = owner_id

            # Systems (outside the search index's trigger, indexed in one statement after), their tanks.
            indexer = BulkIndexer()
            extra = "CAST(s.extra AS jsonb)" if self.pg else "s.extra"
            with indexer.paused(), rebuilt_after(cursor, "inventory_system", self.rows):
                cursor.execute(
                    "INSERT INTO inventory_system (id, jurisdiction_id, system_id, parcel_id, system_type, status, installed_on, "
                    "installed_on_precision, last_serviced_on, design_flow_gpd, bedrooms, structures_served, permit_number, "
                    "extra, search_text, municipality) SELECT r.system_ref, %s, s.system_id, r.parcel_ref, s.system_type, "
                    "s.status, s.installed_on, s.installed_on_precision, s.last_serviced_on, s.design_flow_gpd, s.bedrooms, '', "
                    # the row's town, its parcel's but for a stored parcel with another (the trigger then writes that)
                    f"s.permit_number, {extra}, s.search_text, s.municipality FROM {STAGE} s JOIN {REFS} r ON r.seq = s.seq "
                    "ORDER BY s.seq", [j])
            indexer.index_select(f"SELECT r.system_ref, s.search_text FROM {STAGE} s JOIN {REFS} r ON r.seq = s.seq")
            cursor.execute(
                "INSERT INTO inventory_component (system_id, kind, capacity_gallons, manufacturer, model, installed_on, "
                "installed_on_precision) SELECT r.system_ref, s.tank_kind, s.tank_capacity_gallons, '', '', s.installed_on, "
                f"s.installed_on_precision FROM {STAGE} s JOIN {REFS} r ON r.seq = s.seq "
                "WHERE s.tank_capacity_gallons IS NOT NULL ORDER BY s.seq")
            number = "CAST({} AS text)" if self.pg else "{}"
            self._audit_insert(cursor, "system", (
                "r.system_ref, substr('System ' || s.system_id, 1, 200), " + self._changes([
                    self._text("system_id", "s.system_id"), self._text("parcel", "s.parcel_number"),
                    self._text("owner", "s.owner_name"), self._text("system_type", "s.system_type"),
                    self._text("status", "s.status"),
                    ("installed_on", self._json("s.installed_on"), "s.installed_on IS NOT NULL"),
                    ("installed_on_precision", self._json("s.installed_on_precision"), "s.installed_on_precision <> 'day'"),
                    ("last_serviced_on", self._json("s.last_serviced_on"), "s.last_serviced_on IS NOT NULL"),
                    ("design_flow_gpd", number.format("s.design_flow_gpd"), "s.design_flow_gpd IS NOT NULL"),
                    ("bedrooms", number.format("s.bedrooms"), "s.bedrooms IS NOT NULL"),
                    self._text("permit_number", "s.permit_number"),
                    ("tank_capacity_gallons", number.format("s.tank_capacity_gallons"), "s.tank_capacity_gallons IS NOT NULL"),
                    ("extra", "s.extra", "s.extra <> '{}'"),
                ]) + f", %s FROM {STAGE} s JOIN {REFS} r ON r.seq = s.seq"
            ), [])
        self.drop()

    def drop(self) -> None:
        """SQLite keeps temporary tables for the connection's life; PostgreSQL's go at commit."""
        if self.pg:
            return
        with connection.cursor() as cursor, contextlib.suppress(Exception):
            for table in TABLES:
                cursor.execute(f"DROP TABLE IF EXISTS {table}")


__all__ = ["Stage", "bulk_session", "staged_values", "tank_kind"]
