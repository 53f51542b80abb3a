"""Row counts and content checksums of every table, read through a plain DB-API connection.

The backup writes them into its manifest; the restore recomputes them on what it restored and
refuses a result that differs. Rows are read in primary-key order (all columns when a table has no
key), each encoded canonically, so the same contents give the same sha256 on the same engine.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import uuid
from decimal import Decimal

FETCH = 2000


def _canonical(value):
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"hex": bytes(value).hex()}
    if isinstance(value, (dt.date, dt.datetime, dt.time)):
        return value.isoformat()
    if isinstance(value, (Decimal, uuid.UUID, dt.timedelta)):
        return str(value)
    raise TypeError(f"cannot checksum a {type(value).__name__}")


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def sqlite_tables(conn) -> dict[str, list[str]]:
    """{table: ordering columns} of a sqlite3 connection (its own bookkeeping tables left out)."""
    names = [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    tables = {}
    for name in names:
        columns = conn.execute(f"PRAGMA table_info({_quote(name)})").fetchall()  # cid, name, type, notnull, default, pk
        key = [c[1] for c in sorted(columns, key=lambda c: c[5]) if c[5]]
        tables[name] = key or [c[1] for c in columns]
    return tables


def postgres_tables(conn) -> dict[str, list[str]]:
    """{table: ordering columns} of the tables in the connection's current schema."""
    with conn.cursor() as cur:
        cur.execute("""
            SELECT c.relname,
                   COALESCE((SELECT array_agg(a.attname ORDER BY k.ord) FROM pg_index i
                             CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
                             JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
                             WHERE i.indrelid = c.oid AND i.indisprimary),
                            (SELECT array_agg(a.attname ORDER BY a.attnum) FROM pg_attribute a
                             WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped))
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relkind IN ('r', 'p') AND n.nspname = current_schema()
            ORDER BY c.relname""")
        return {name: list(key) for name, key in cur.fetchall()}


def table_digests(conn, tables: dict[str, list[str]], *, cursor_factory=None) -> dict[str, dict]:
    """{table: {"rows": n, "sha256": hex}} for each table, reading in key order."""
    from powts.core.progress import report

    out = {}
    for number, (name, order) in enumerate(sorted(tables.items())):
        report(number, len(tables), "tables checked")
        cur = cursor_factory(number) if cursor_factory else conn.cursor()
        try:
            cur.execute(f"SELECT * FROM {_quote(name)} ORDER BY {', '.join(_quote(c) for c in order)}")
            digest, rows = hashlib.sha256(), 0
            while batch := cur.fetchmany(FETCH):
                for row in batch:
                    digest.update(json.dumps(row, default=_canonical, ensure_ascii=False, sort_keys=True).encode())
                    digest.update(b"\n")
                rows += len(batch)
        finally:
            cur.close()
        out[name] = {"rows": rows, "sha256": digest.hexdigest()}
    return out


def differences(expected: dict[str, dict], found: dict[str, dict]) -> list[str]:
    """Plain sentences, one per table that is missing, extra or different."""
    problems = []
    for name in sorted(set(expected) | set(found)):
        want, got = expected.get(name), found.get(name)
        if got is None:
            problems.append(f"table {name} is missing")
        elif want is None:
            problems.append(f"table {name} is not in the backup")
        elif want["rows"] != got["rows"]:
            problems.append(f"table {name} has {got['rows']:,} rows, the backup {want['rows']:,}")
        elif want["sha256"] != got["sha256"]:
            problems.append(f"table {name} has {got['rows']:,} rows as in the backup, but different contents")
    return problems
