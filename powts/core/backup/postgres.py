"""PostgreSQL: `pg_dump` (custom format) inside an exported snapshot, so that the dump and the
manifest's checksums see the same data while the server runs; `pg_restore` to load it."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from powts.core.backup import digests

FILE = "database.pgdump"


def _error(message: str):
    from powts.core.backup.archive import BackupError

    return BackupError(message)


def _environment(settings_dict: dict) -> dict:
    """libpq's variables, so that no password appears on a command line."""
    env = dict(os.environ)
    for key, var in (("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER"), ("PASSWORD", "PGPASSWORD"),
                     ("NAME", "PGDATABASE")):
        if settings_dict.get(key):
            env[var] = str(settings_dict[key])
    if settings_dict.get("OPTIONS", {}).get("sslmode"):
        env["PGSSLMODE"] = settings_dict["OPTIONS"]["sslmode"]
    return env


def _connect(settings_dict: dict):
    import psycopg

    params = {"dbname": settings_dict["NAME"], "user": settings_dict.get("USER") or None,
              "password": settings_dict.get("PASSWORD") or None, "host": settings_dict.get("HOST") or None,
              "port": settings_dict.get("PORT") or None}
    conn = psycopg.connect(**{k: v for k, v in params.items() if v is not None})
    conn.execute("SET TIME ZONE 'UTC'")  # timestamps checksum the same whoever reads them
    conn.commit()
    return conn


def _major(binary: str) -> int | None:
    try:
        out = subprocess.run([binary, "--version"], check=False, capture_output=True, text=True, timeout=30).stdout
    except OSError:
        return None
    found = re.search(r"(\d+)(?:\.\d+)?", out)
    return int(found.group(1)) if found else None


def binary(name: str, server_major: int) -> str:
    """`name` from a client at least as new as the server (pg_dump refuses older-than-server otherwise)."""
    candidates = []
    if os.environ.get("POWTS_PG_BIN"):
        candidates.append(str(Path(os.environ["POWTS_PG_BIN"]) / name))
    candidates += [str(p) for p in sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
                                          key=lambda p: int(p.parts[-3]) if p.parts[-3].isdigit() else 0, reverse=True)]
    if shutil.which(name):
        candidates.append(shutil.which(name))
    versions = {c: _major(c) for c in dict.fromkeys(candidates) if os.access(c, os.X_OK)}
    usable = [c for c, v in versions.items() if v and v >= server_major]
    if not usable:
        found = ", ".join(f"{c} ({v})" for c, v in versions.items()) or "none"
        raise _error(f"{name} for PostgreSQL {server_major} or newer is needed and was not found (found: {found}); "
                     f"install the PostgreSQL client tools (Debian: postgresql-client-{server_major}) "
                     f"or point POWTS_PG_BIN at their folder")
    exact = [c for c in usable if versions[c] == server_major]
    return (exact or usable)[0]


def _run(command: list[str], env: dict, what: str) -> None:
    done = subprocess.run(command, check=False, env=env, capture_output=True, text=True)
    if done.returncode:
        raise _error(f"{what} failed: {(done.stderr or done.stdout).strip()[-2000:]}")


def _digests(conn) -> dict[str, dict]:
    return digests.table_digests(conn, digests.postgres_tables(conn),
                                 cursor_factory=lambda n: conn.cursor(name=f"powts_backup_{n}"))


def dump(connection, folder: Path) -> tuple[str, dict]:
    settings_dict = connection.settings_dict
    conn = _connect(settings_dict)
    try:
        server_major = conn.info.server_version // 10000
        pg_dump = binary("pg_dump", server_major)
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        snapshot = conn.execute("SELECT pg_export_snapshot()").fetchone()[0]
        _run([pg_dump, "--format=custom", "--no-owner", "--no-privileges", f"--snapshot={snapshot}",
              f"--file={folder / FILE}"], _environment(settings_dict), "pg_dump")
        found = _digests(conn)
        conn.rollback()
    finally:
        conn.close()
    return FILE, found


def load(connection, source: Path, expected: dict) -> None:
    settings_dict = connection.settings_dict
    connection.close()
    conn = _connect(settings_dict)
    try:
        pg_restore = binary("pg_restore", conn.info.server_version // 10000)
    finally:
        conn.close()
    _run([pg_restore, "--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction",
          "--exit-on-error", f"--dbname={settings_dict['NAME']}", str(source)], _environment(settings_dict), "pg_restore")
    conn = _connect(settings_dict)
    try:
        problems = digests.differences(expected, _digests(conn))
        conn.rollback()
    finally:
        conn.close()
    if problems:
        raise _error("the restored database differs from the backup: " + "; ".join(problems))
