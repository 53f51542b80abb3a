"""The import under real processes on a database of their own (a SQLite file, the embedded default;
a PostgreSQL database when the suite runs on PostgreSQL): an import and reports at the same time, two
imports of one county at once, and `powts import inventory` killed with SIGKILL in each phase. Each
process is a real `powts` (or a script calling the services) on the one database, as a server's workers
and a command line share it; none of it goes through the test database."""
import csv
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")

SETUP = """
import datetime as dt
from powts.accounts.services import license_create
from powts.inventory.services import system_create
from powts.jurisdictions.services import jurisdiction_ensure

dane = jurisdiction_ensure(slug="dane")
system_create(jurisdiction=dane, system_id="R-1", parcel_number="RP-1", system_type="conventional",
              owner_name="Rita Reporter", installed_on=dt.date(2000, 1, 1))
license_create(kind="septage_operator", number="SSO-1", holder_name="Perry Pumper")
"""

# `powts import inventory ...` through the real entry point, with a hook (HOOK=...) that says where it is
# on stdout and then waits there to be killed; SLOW_PARSE makes checking each row take that many seconds.
IMPORTER = """
import os, sys, time
from powts.inventory.importing import service, writer

hook = os.environ.get("HOOK", "")
slow = float(os.environ.get("SLOW_PARSE", "0"))
if slow:
    real_clean = service.clean_row
    def clean_row(raw, today):
        time.sleep(slow)
        return real_clean(raw, today=today)
    service.clean_row = clean_row

def stop_at(label):
    print(label, flush=True)
    time.sleep(120)

if hook == "check":
    real_compare, seen = writer.ChunkWriter.compare, []
    def compare(self, rows):
        seen.append(1)
        if len(seen) == 2:
            stop_at("checking")
        return real_compare(self, rows)
    writer.ChunkWriter.compare = compare
if hook == "write":
    real_write, seen = writer.ChunkWriter.write, []
    def write(self, rows):
        seen.append(1)
        if len(seen) == 3:
            stop_at("writing")
        return real_write(self, rows)
    writer.ChunkWriter.write = write
if hook == "follow_up":
    service.run_follow_up = lambda jurisdiction: stop_at("following up")

from powts.cli import main
print("started", flush=True)
sys.exit(main(sys.argv[1:]))
"""

REPORTER = """
import datetime as dt, json, os, time
from django.db import connection
from powts.jurisdictions.services import jurisdiction_ensure
from powts.maintenance.models import Report
from powts.maintenance.services import report_submit

dane = jurisdiction_ensure(slug="dane")
if connection.vendor == "sqlite":
    connection.cursor().execute("PRAGMA busy_timeout = %d" % int(os.environ["BUSY_MS"]))
ok, errors, waits, day = 0, [], [], 0
stop = os.environ["STOP_FILE"]
deadline = time.monotonic() + 90
while not os.path.exists(stop) and time.monotonic() < deadline:
    day += 1
    started = time.monotonic()
    try:
        report_submit(jurisdiction=dane, data={"system_id": "R-1", "kind": "pumping", "license_number": "SSO-1",
                                               "work_date": str(dt.date.today() - dt.timedelta(days=day)),
                                               "gallons_pumped": "1000"})
        ok += 1
    except Exception as exc:
        errors.append(f"{type(exc).__name__}: {exc}")
    waits.append(time.monotonic() - started)
    time.sleep(0.1)
print(json.dumps({"ok": ok, "errors": errors, "stored": Report.objects.count(), "longest_wait": max(waits)}))
"""

BOOT = "import os, sys, django; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'powts.settings'); django.setup()\n"


# Where each test's processes keep their data: a SQLite file in the folder, or (when the suite runs on
# PostgreSQL) a database of its own on the same server, made from a migrated template.
SERVER = os.environ.get("DATABASE_URL", "") if os.environ.get("DATABASE_URL", "").startswith("postgres") else ""
_URLS: dict = {}


def _pg(sql: str) -> None:
    import psycopg

    with psycopg.connect(_db_url("postgres"), autocommit=True) as db:
        db.execute(sql)


def _db_url(name: str) -> str:
    return SERVER.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(scope="module")
def template_db(tmp_path_factory):
    """A migrated database with Dane County, one system and a pumper's license, copied for each test."""
    folder = tmp_path_factory.mktemp("template")
    name = f"powts_faults_template_{os.getpid()}"
    if SERVER:
        _pg(f"DROP DATABASE IF EXISTS {name}")
        _pg(f"CREATE DATABASE {name}")
        _URLS[folder] = _db_url(name)
    env = _env(folder)
    subprocess.run([sys.executable, "-c", _entry(), "migrate", "-v", "0"], env=env, check=True, timeout=600)
    subprocess.run([sys.executable, "-c", BOOT + SETUP], env=env, check=True, timeout=120)
    yield folder, name
    if SERVER:
        _pg(f"DROP DATABASE IF EXISTS {name}")


@pytest.fixture
def data_dir(template_db, tmp_path):
    template, name = template_db
    folder = tmp_path / "data"
    folder.mkdir()
    shutil.copy(template / "secret_key", folder / "secret_key")
    if not SERVER:
        shutil.copy(template / "powts.sqlite3", folder / "powts.sqlite3")
        yield folder
        return
    copy = f"powts_faults_{os.getpid()}_{tmp_path.name[-40:].lower().replace('-', '_')}"
    copy = "".join(c for c in copy if c.isalnum() or c == "_")[:60]
    _pg(f"DROP DATABASE IF EXISTS {copy}")
    _pg(f"CREATE DATABASE {copy} TEMPLATE {name}")
    _URLS[folder] = _db_url(copy)
    yield folder
    _pg(f"DROP DATABASE IF EXISTS {copy} WITH (FORCE)")


def _entry() -> str:
    return "import sys; from powts.cli import main; sys.exit(main(sys.argv[1:]))"


def _env(folder, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    env.update(POWTS_DATA_DIR=str(folder), PYTHONUNBUFFERED="1", **{k: str(v) for k, v in extra.items()})
    if folder in _URLS:
        env["DATABASE_URL"] = _URLS[folder]
    return env


def _inventory(folder, rows: int, bad: int = 0):
    path = folder / "county.csv"
    with open(path, "w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["system_id", "parcel_id", "system_type", "owner_name", "installed_on"])
        for i in range(rows):
            out.writerow([f"D-{i}", f"P-{i}", "mound", f"Owner {i}", "2001-05-01"])
        for i in range(bad):
            out.writerow([f"X-{i}", f"XP-{i}", "Spaceship", f"Bad {i}", ""])
    return path


def _importer(folder, path, hook="", slow=0.0, json_out=True):
    argv = ["import", "inventory", str(path), "--jurisdiction", "dane"] + (["--json"] if json_out else [])
    env = _env(folder, HOOK=hook, SLOW_PARSE=slow)
    return subprocess.Popen([sys.executable, "-c", BOOT + IMPORTER, *argv], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_for(process, marker: str, timeout: float = 120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if marker in line:
            return
        if not line and process.poll() is not None:
            raise AssertionError(f"importer ended before {marker!r}: {process.stderr.read()}")
    raise AssertionError(f"no {marker!r} within {timeout}s")


def _count(folder, table: str, where: str = "") -> int:
    if folder in _URLS:
        import psycopg

        with psycopg.connect(_URLS[folder]) as db:
            return db.execute(f"SELECT COUNT(*) FROM {table} {where}").fetchone()[0]
    with sqlite3.connect(folder / "powts.sqlite3") as db:
        return db.execute(f"SELECT COUNT(*) FROM {table} {where}").fetchone()[0]


def _kill(process, may_have_finished=False):
    try:
        os.kill(process.pid, signal.SIGKILL)
    except ProcessLookupError:  # already reaped
        pass
    process.wait(30)
    # "at an arbitrary moment" includes just after its last step, on a fast machine
    assert process.returncode == -signal.SIGKILL or (may_have_finished and process.returncode == 0)
    process.stdout.close()
    process.stderr.close()


def test_reports_filed_during_an_import_wait_and_succeed(data_dir):
    """A report that arrives during an import waits within a busy timeout and then succeeds, never
    "database is locked". Checking the file takes the import ~5 s here (3 ms a row, as a large county's
    file would), longer than the reporter's 3 s busy timeout: only if the write lock is held for the writes
    alone (well under 3 s for 1,500 rows) does every report get through."""
    path = _inventory(data_dir, 1500)
    stop = data_dir / "stop"
    env = _env(data_dir, BUSY_MS=3000, STOP_FILE=stop)
    reporter = subprocess.Popen([sys.executable, "-c", BOOT + REPORTER], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    importer = _importer(data_dir, path, slow=0.003)
    out, err = importer.communicate(timeout=300)
    stop.touch()
    report_out, report_err = reporter.communicate(timeout=120)
    assert importer.returncode == 0, err
    assert _counts(out) == {"rows": 1500, "created": 1500, "updated": 0, "unchanged": 0, "rejected": 0}
    summary = json.loads(report_out.strip().splitlines()[-1])
    assert summary["errors"] == [] and summary["ok"] >= 20, (summary, report_err)
    assert summary["stored"] == summary["ok"]
    print(f"\nreports during an import: {summary}")
    assert _count(data_dir, "inventory_system") == 1501


def test_killed_in_every_phase_nothing_is_half_written_and_a_rerun_loses_no_row(data_dir):
    """kill -9 a running `powts import inventory` while it checks, while it writes (third chunk of
    three, inside the transaction) and while it follows up; a second import meanwhile is refused with a
    message; after each kill nothing is half-written and a rerun completes. Rows lost must be 0."""
    valid, bad = 6000, 7
    path = _inventory(data_dir, valid, bad)

    def systems():
        return _count(data_dir, "inventory_system", "WHERE system_id LIKE 'D-%'")

    def audited():
        return _count(data_dir, "audit_auditevent", "WHERE channel = 'import'")


    schedules_before = _count(data_dir, "maintenance_schedule")

    checking = _importer(data_dir, path, hook="check")
    _wait_for(checking, "checking")
    argv = ["import", "inventory", str(path), "--jurisdiction", "dane"]
    second = subprocess.run([sys.executable, "-c", _entry(), *argv],
                            env=_env(data_dir), capture_output=True, text=True, timeout=120, check=False)
    assert second.returncode == 1 and "Another import of Dane County's inventory is running" in second.stderr
    assert "Traceback" not in second.stderr
    _kill(checking)
    assert systems() == 0 and audited() == 0

    writing = _importer(data_dir, path, hook="write")
    _wait_for(writing, "writing")
    _kill(writing)
    assert systems() == 0 and audited() == 0 and _count(data_dir, "inventory_importfollowuppending") == 0

    following = _importer(data_dir, path, hook="follow_up")
    _wait_for(following, "following up")
    _kill(following)
    assert systems() == valid and _count(data_dir, "maintenance_schedule") == schedules_before
    assert _count(data_dir, "inventory_importfollowuppending") == 1

    rerun = _importer(data_dir, path)
    out, err = rerun.communicate(timeout=300)
    assert rerun.returncode == 0, err
    counts = _counts(out)
    assert counts == {"rows": valid + bad, "created": 0, "updated": 0, "unchanged": valid, "rejected": bad}
    rows_lost = valid - systems()
    assert rows_lost == 0
    assert _count(data_dir, "maintenance_schedule") == _count(data_dir, "inventory_system")
    assert _count(data_dir, "inventory_importfollowuppending") == 0
    print(textwrap.dedent(f"""
        kill -9 fault test: {valid + bad} rows, killed while checking, writing and following up;
        rows lost {rows_lost}"""))


def test_killed_at_an_arbitrary_moment_a_rerun_stores_every_row(data_dir):
    """The plain command, killed 1.5 s after it started, whatever it was doing: all or nothing, then a rerun."""
    path = _inventory(data_dir, 6000, 3)
    process = _importer(data_dir, path)
    _wait_for(process, "started")
    time.sleep(1.5)
    if process.poll() is None:
        _kill(process, may_have_finished=True)
    assert _count(data_dir, "inventory_system", "WHERE system_id LIKE 'D-%'") in (0, 6000)
    rerun = _importer(data_dir, path)
    out, err = rerun.communicate(timeout=300)
    assert rerun.returncode == 0, err
    counts = json.loads(out.strip().splitlines()[-1])
    assert counts["rows"] == counts["created"] + counts["updated"] + counts["unchanged"] + counts["rejected"] == 6003
    assert _count(data_dir, "inventory_system", "WHERE system_id LIKE 'D-%'") == 6000
    assert _count(data_dir, "maintenance_schedule") == _count(data_dir, "inventory_system")


def _counts(out: str) -> dict:
    """The row counts of `powts import inventory --json`'s last line (it also lists warnings and the rejects file)."""
    summary = json.loads(out.strip().splitlines()[-1])
    return {k: summary[k] for k in ("rows", "created", "updated", "unchanged", "rejected")}
