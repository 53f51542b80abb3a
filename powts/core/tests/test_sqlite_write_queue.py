"""On SQLite "the writes serialised without 'database is locked' errors": several processes
of several threads each write at once, every transaction held a while, with a busy timeout far shorter than
the wait. With Django's own SQLite backend some writers give up ("database is locked"); with powts.core.sqlite
they wait their turn on the lock file, and every write is stored once."""
import json
import subprocess
import sys
import threading
import time

import pytest

WRITER = r"""
import json, sys, threading, time
import django
from django.conf import settings
engine, path = sys.argv[1], sys.argv[2]
settings.configure(DATABASES={"default": {"ENGINE": engine, "NAME": path, "CONN_MAX_AGE": 0, "OPTIONS": {
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20;",
    "transaction_mode": "IMMEDIATE"}}})
django.setup()
from django.db import connection, transaction
ok, errors = [], []
def write(k):
    for i in range(15):
        try:
            with transaction.atomic(), connection.cursor() as c:
                c.execute("INSERT INTO t (who) VALUES (%s)", [f"{sys.argv[3]}-{k}-{i}"])
                time.sleep(0.005)  # the write lock held a while, as a report's transaction holds it
            ok.append(1)
        except Exception as exc:
            errors.append(str(exc))
    connection.close()
ts = [threading.Thread(target=write, args=(k,)) for k in range(3)]
[t.start() for t in ts]; [t.join() for t in ts]
print(json.dumps({"ok": len(ok), "errors": errors}))
"""


def _run(engine, path, processes=4):
    import sqlite3

    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, who TEXT UNIQUE)")
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, engine, str(path), str(n)], stdout=subprocess.PIPE, text=True)
             for n in range(processes)]
    results = [json.loads(p.communicate(timeout=300)[0]) for p in procs]
    with sqlite3.connect(path) as db:
        stored = db.execute("SELECT count(*), count(DISTINCT who) FROM t").fetchone()
    return sum(r["ok"] for r in results), [e for r in results for e in r["errors"]], stored


def test_writers_in_several_processes_wait_their_turn(tmp_path):
    acknowledged, errors, stored = _run("powts.core.sqlite", tmp_path / "queued.sqlite3")
    assert errors == []
    assert acknowledged == 4 * 3 * 15 and stored == (acknowledged, acknowledged)


FAILING = r"""
import fcntl, os, sys
import django
from django.conf import settings
path = sys.argv[1]
settings.configure(DATABASES={"default": {"ENGINE": "powts.core.sqlite", "NAME": path, "OPTIONS": {"transaction_mode": "IMMEDIATE"}}})
django.setup()
from django.db import IntegrityError, connection, transaction
for attempt in range(2):
    try:
        with transaction.atomic(), connection.cursor() as c:
            c.execute("INSERT INTO t (who) VALUES ('same')")
            c.execute("INSERT INTO t (who) VALUES ('same')")
    except IntegrityError:
        pass
fd = os.open(path + "-writelock", os.O_RDWR)
fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # BlockingIOError if the failed transaction kept the lock
print("free")
"""


def test_the_lock_is_released_after_a_failed_transaction(tmp_path):
    """A write that fails (a duplicate) rolls back and lets the next writer in: nothing waits forever."""
    import sqlite3

    path = tmp_path / "one.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, who TEXT UNIQUE)")
    out = subprocess.run([sys.executable, "-c", FAILING, str(path)], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "free", out.stderr[-2000:]


@pytest.mark.django_db(transaction=True)
def test_threads_writing_the_in_memory_test_database_wait_their_turn():
    """The tests' in-memory database: a job consumer's thread writes while another thread's write transaction is
    open. Without the queue SQLite refuses the second at once ("database table is locked", as CI once did)."""
    from django.db import connection, transaction

    from powts.jurisdictions.services import jurisdiction_ensure

    if connection.vendor != "sqlite" or not connection.is_in_memory_db():
        pytest.skip("the in-memory SQLite test database only")
    inside, errors = threading.Event(), []

    def hold():
        try:
            with transaction.atomic():
                jurisdiction_ensure(slug="dane")
                inside.set()
                time.sleep(0.5)  # the write transaction held open while the other thread starts its own
        except Exception as exc:  # noqa: BLE001 - the thread's failure is the test's to report
            errors.append(repr(exc))
        finally:
            connection.close()

    thread = threading.Thread(target=hold)
    thread.start()
    assert inside.wait(10)
    jurisdiction_ensure(slug="lincoln")  # waits for the other transaction, then writes
    thread.join(10)
    assert errors == []
    from powts.jurisdictions.models import Jurisdiction
    assert set(Jurisdiction.objects.values_list("slug", flat=True)) >= {"dane", "lincoln"}
