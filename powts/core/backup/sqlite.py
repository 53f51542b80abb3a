"""SQLite: Python's online backup API, which copies a consistent snapshot while the server runs."""
from __future__ import annotations

import sqlite3
from pathlib import Path

from powts.core.backup import digests

FILE = "database.sqlite3"


def _tables(conn) -> dict[str, list[str]]:
    # Virtual tables (the FTS search index) are left out: their contents live in their shadow tables.
    virtual = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%'")}
    return {k: v for k, v in digests.sqlite_tables(conn).items() if k not in virtual}


def file_digests(path: Path) -> dict[str, dict]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return digests.table_digests(conn, _tables(conn))
    finally:
        conn.close()


def _live_digests(connection, scratch: Path) -> dict[str, dict]:
    """Digests of the live database through a plain sqlite3 connection (Django's converts dates and
    booleans as it reads, which would not match the manifest); an in-memory one is copied first."""
    if not connection.is_in_memory_db():
        return file_digests(Path(connection.settings_dict["NAME"]))
    copy = scratch / "check.sqlite3"
    with sqlite3.connect(copy) as target:
        connection.connection.backup(target)
    target.close()
    return file_digests(copy)


def dump(connection, folder: Path) -> tuple[str, dict]:
    """Copies the live database into `folder`; returns the file's name and its table digests."""
    target = folder / FILE
    connection.ensure_connection()
    copy = sqlite3.connect(target)
    try:
        connection.connection.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
    finally:
        copy.close()
    return FILE, file_digests(target)


def load(connection, source: Path, expected: dict) -> None:
    """Replaces the live database's contents with `source`, then checks them against `expected`."""
    from powts.core.backup.archive import BackupError

    problems = digests.differences(expected, file_digests(source))
    if problems:
        raise BackupError("the database in the backup does not match its manifest: " + "; ".join(problems))
    connection.close()
    connection.ensure_connection()
    origin = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        origin.backup(connection.connection)
    finally:
        origin.close()
    problems = digests.differences(expected, _live_digests(connection, source.parent))
    if problems:
        raise BackupError("the restored database differs from the backup: " + "; ".join(problems))
