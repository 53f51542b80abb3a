"""Backup and restore: `powts backup --output FILE` and `powts restore FILE`; a county
with records is backed up, restored into a fresh data directory (and, on PostgreSQL, a fresh database),
and every table's row count and a checksum of its contents compared with the original.

Runs on whichever database the suite runs on (SQLite by default, PostgreSQL with DATABASE_URL)."""
import io
import os
import subprocess
import sys
import tarfile
import uuid
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from powts.core.backup import digests, postgres, sqlite

pytestmark = pytest.mark.django_db(transaction=True)  # pg_dump reads committed rows only


def source_digests(tmp_path) -> dict:
    if connection.vendor == "sqlite":
        return sqlite._live_digests(connection, tmp_path)
    conn = postgres._connect(connection.settings_dict)
    try:
        return postgres._digests(conn)
    finally:
        conn.close()


@pytest.fixture
def fresh_target(tmp_path):
    """(environment for a `powts` process, function giving that target's digests): an empty data
    directory and, on PostgreSQL, a new empty database that is dropped afterwards."""
    data = tmp_path / "restored"
    data.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["POWTS_DATA_DIR"] = str(data)
    if connection.vendor == "sqlite":
        yield env, data, lambda: sqlite.file_digests(data / "powts.sqlite3")
        return
    try:
        postgres.binary("pg_restore", connection.pg_version // 10000)
    except Exception as exc:  # noqa: BLE001 - any missing client is a skip with its reason
        pytest.skip(f"PostgreSQL client tools are not installed: {exc}")
    s = connection.settings_dict
    name = f"{s['NAME']}_restore_{uuid.uuid4().hex[:8]}"
    admin = postgres._connect(s)
    admin.autocommit = True
    admin.execute(f'CREATE DATABASE "{name}"')
    auth = f"{s['USER']}:{s['PASSWORD']}@" if s.get("PASSWORD") else f"{s['USER']}@" if s.get("USER") else ""
    env["DATABASE_URL"] = f"postgres://{auth}{s.get('HOST') or 'localhost'}:{s.get('PORT') or 5432}/{name}"

    def target_digests():
        conn = postgres._connect({**s, "NAME": name})
        try:
            return postgres._digests(conn)
        finally:
            conn.close()

    try:
        yield env, data, target_digests
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


def powts(env, *args):
    return subprocess.run([sys.executable, "-m", "powts.cli", *args], check=False, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def county(settings, tmp_path):
    """The demo county: inventory, people, reports, notices with their letters (files), permits."""
    source = tmp_path / "source"
    settings.DATA_DIR, settings.MEDIA_ROOT = source, source / "media"
    call_command("demo", jurisdiction="dane", systems=40, stdout=io.StringIO())
    (source / "outbox").mkdir(parents=True, exist_ok=True)
    (source / "outbox" / "sent.log").write_text("a sent message\n")
    (source / "secret_key").write_text("not part of a backup")
    (source / "caseloads").mkdir()
    (source / "caseloads" / "copy.arrow").write_bytes(b"the what-if's copy, rebuilt from the database")
    return source


def test_backup_then_restore_into_a_fresh_data_directory_gives_identical_tables(county, cli, tmp_path, fresh_target):
    env, restored, target_digests = fresh_target
    backup = tmp_path / "powts-backup.tar.gz"
    code, out, err = cli("backup", "--output", str(backup))
    assert code == 0, err
    assert "Backed up" in out and backup.stat().st_mode & 0o777 == 0o600
    before = source_digests(tmp_path)
    # Not a vacuous comparison: the county's records are there.
    # 40 imported and 1 installed under the demo's completed replacement permit
    assert len(before) >= 30 and before["inventory_system"]["rows"] == 41
    assert before["maintenance_notice"]["rows"] > 0 and before["permits_permit"]["rows"] > 0

    done = powts(env, "restore", str(backup))
    assert done.returncode == 0, done.stderr
    assert "every table checked against the backup" in done.stdout
    after = target_digests()
    assert after == before, digests.differences(before, after)
    # The data directory's records come back byte for byte, private; the secret key stays behind.
    letters = sorted(p.relative_to(county) for p in (county / "media").rglob("*.pdf"))
    assert letters and sorted(p.relative_to(restored) for p in (restored / "media").rglob("*.pdf")) == letters
    for name in [*letters, Path("outbox/sent.log")]:
        assert (restored / name).read_bytes() == (county / name).read_bytes()
        assert (restored / name).stat().st_mode & 0o777 == 0o600
    assert (restored / "secret_key").read_text() != "not part of a backup"
    assert not (restored / "caseloads").exists()  # the what-if's copy of the caseload is not a record

    # Once it holds records, a second restore is refused without --force and changes nothing ...
    again = powts(env, "restore", str(backup))
    assert again.returncode == 1 and "already holds records" in again.stderr and "--force" in again.stderr
    assert target_digests() == before
    # ... and with --force replaces them with the backup's.
    forced = powts(env, "restore", "--force", str(backup))
    assert forced.returncode == 0, forced.stderr
    assert target_digests() == before


@pytest.fixture
def outbox(settings, tmp_path):
    source = tmp_path / "source"
    settings.DATA_DIR, settings.MEDIA_ROOT = source, source / "media"
    (source / "outbox").mkdir(parents=True)
    (source / "outbox" / "sent.log").write_text("a sent message\n")


def test_a_damaged_backup_is_refused_and_nothing_is_restored(outbox, dane, cli, tmp_path, fresh_target):
    env, restored, _ = fresh_target
    backup = tmp_path / "b.tar.gz"
    assert cli("backup", "--output", str(backup))[0] == 0
    damaged = tmp_path / "damaged.tar.gz"
    with tarfile.open(backup, "r:gz") as src, tarfile.open(damaged, "w:gz") as dst:
        for member in src.getmembers():
            data = src.extractfile(member).read()
            if member.name == "files/outbox/sent.log":
                data = b"altered\n"
                member.size = len(data)
            dst.addfile(member, io.BytesIO(data))
    done = powts(env, "restore", str(damaged))
    assert done.returncode == 1 and "files/outbox/sent.log does not match its manifest" in done.stderr
    assert not (restored / "outbox").exists()
    assert "Traceback" not in done.stderr


def test_bad_arguments_get_a_clear_message(db, cli, tmp_path):
    code, _, err = cli("backup", "--output", str(tmp_path / "missing-folder" / "b.tar.gz"))
    assert code == 1 and "does not exist" in err
    code, _, err = cli("backup", "--output", str(tmp_path))
    assert code == 1 and "is a folder" in err
    (tmp_path / "not-a-backup.tar.gz").write_bytes(b"hello")
    code, _, err = cli("restore", str(tmp_path / "not-a-backup.tar.gz"))
    assert code == 1 and "is not a readable powts backup" in err
    code, _, err = cli("restore", str(tmp_path / "nowhere.tar.gz"))
    assert code == 1 and "does not exist" in err
