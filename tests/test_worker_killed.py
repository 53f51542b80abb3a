"""Faults: "A worker killed in the middle of a job: the job is retried and its work
done once." A real `powts worker` process is killed with SIGKILL while it runs a job (no handler runs, nothing
is marked); the next worker to start takes the job back and runs it, and a second delivery of the same job
does nothing. The processes share the database: on SQLite a file in a fresh data directory (the test
database is in memory, out of another process's reach), on PostgreSQL the test database itself."""
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

HELPER = Path(__file__).with_name("killed_worker_helper.py")
STALE = 4  # seconds: the workers' POWTS_JOB_STALE_SECONDS in this test (120 in production)


def _env(settings, data_dir: Path) -> dict:
    from django.db import connection

    env = dict(os.environ, POWTS_DATA_DIR=str(data_dir), POWTS_JOB_STALE_SECONDS=str(STALE))
    env.pop("DATABASE_URL", None)  # SQLite: the file in the data directory, migrated by the first process
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        login = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
        env["DATABASE_URL"] = f"postgres://{login}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    if settings.POWTS_QUEUE_URL:
        env["POWTS_QUEUE_URL"] = settings.POWTS_QUEUE_URL
    return env


def _helper(env, *args, **kw):
    return subprocess.Popen([sys.executable, str(HELPER), *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, **kw)


def _run(env, *args) -> str:
    proc = _helper(env, *args)
    out, _ = proc.communicate(timeout=600)
    assert proc.returncode == 0, out[-2000:]
    return out.strip().splitlines()[-1]


def _job(data_dir: Path, pk: int) -> dict:
    """The job's row and how many times its work was written, read as another process sees it (committed)."""
    from django.db import connection

    sql = ("SELECT state, attempts, step, (SELECT COUNT(*) FROM audit_auditevent a WHERE a.object_id = %(pk)s "
           "AND a.action = 'test work done'), heard_at FROM jobs_job WHERE id = %(pk)s")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(sql, {"pk": pk})
            row = cursor.fetchone()
    else:
        with sqlite3.connect(data_dir / "powts.sqlite3") as db:
            row = db.execute(sql.replace("%(pk)s", ":pk"), {"pk": pk}).fetchone()
    return dict(zip(["state", "attempts", "step", "work", "heard_at"], row, strict=True))


def _wait_for(predicate, seconds=300):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def _stop(proc) -> str:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)  # Huey's graceful stop
    out, _ = proc.communicate(timeout=120)
    return out


@pytest.mark.jobs
@pytest.mark.django_db(transaction=True)  # on PostgreSQL the worker processes use this test's database
def test_a_worker_killed_mid_job_leaves_the_job_to_the_next_worker_which_does_its_work_once(settings, tmp_path):
    from huey.contrib.djhuey import HUEY

    HUEY.immediate = False
    env = _env(settings, tmp_path)
    pk = int(_run(env, "enqueue"))  # migrates the SQLite file first; the job waits on the queue
    first = _helper(env, "worker", start_new_session=True)
    try:
        assert _wait_for(lambda: first.poll() is not None or _job(tmp_path, pk)["step"] == "working"), "never started"
        assert first.poll() is None, first.communicate()[0][-2000:]
        os.kill(first.pid, signal.SIGKILL)  # mid-job: no handler, no "failed", no "done"
        first.wait(timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
    killed = _job(tmp_path, pk)
    assert (killed["state"], killed["attempts"], killed["work"]) == ("running", 1, 0)
    time.sleep(STALE + 1)  # silent for longer than the stale time: its worker is gone
    second = _helper(env, "worker")
    try:
        assert _wait_for(lambda: second.poll() is not None or _job(tmp_path, pk)["state"] == "done")
        assert second.poll() is None
        done = _job(tmp_path, pk)
        assert (done["state"], done["attempts"], done["work"]) == ("done", 2, 1)
        assert _run(env, "again", str(pk)) == "pong after"  # the same job delivered once more: nothing to claim
        assert _job(tmp_path, pk)["work"] == 1 and _job(tmp_path, pk)["attempts"] == 2
    finally:
        out = _stop(second)
    assert "1 interrupted job(s) queued again" in out, out[-2000:]


# -- a job in one long write transaction (the heartbeat during a long SQLite write) --

def _sweep(env, *, stale: float, tmp_path: Path) -> str:
    """The stale check, once, in its own process with limit `stale`: how many jobs it took back. On SQLite a
    check that waited for the write lock would wait for the long transaction to end: after two minutes the
    job is let go, so that such a check ends (and says it waited) instead of hanging."""
    proc = _helper(dict(env, POWTS_JOB_STALE_SECONDS=str(stale)), "sweep")
    waited = ""
    try:
        out, _ = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        (tmp_path / "let-go").touch()
        out, _ = proc.communicate(timeout=600)
        waited = "waited for the long transaction, then: "
    assert proc.returncode == 0, out[-2000:]
    return waited + out.strip().splitlines()[-1]


def _silent_for(row: dict) -> float:
    """Seconds since the job's last sign of life in the database."""
    import datetime as dt

    heard = row["heard_at"]
    if isinstance(heard, str):  # SQLite's text
        heard = dt.datetime.fromisoformat(heard)
    heard = heard if heard.tzinfo else heard.replace(tzinfo=dt.timezone.utc)
    return (dt.datetime.now(dt.timezone.utc) - heard).total_seconds()


@pytest.mark.jobs
@pytest.mark.django_db(transaction=True)
def test_a_job_writing_in_one_long_transaction_is_not_taken_back_while_its_worker_lives(settings, tmp_path):
    """The job holds its write transaction open for longer than the stale limit (STALE). On SQLite its
    worker writes no heartbeat then (it would wait behind that very transaction): the lock file it holds
    is its sign of life. A stale check past the limit leaves it running; it then finishes, once."""
    from django.db import connection
    from huey.contrib.djhuey import HUEY

    HUEY.immediate = False
    env = _env(settings, tmp_path)
    pk = int(_run(env, "enqueue-long"))
    worker = _helper(env, "worker", start_new_session=True)
    try:
        assert _wait_for(lambda: worker.poll() is not None or (tmp_path / "inside-1").exists()), "never started"
        assert worker.poll() is None, worker.communicate()[0][-2000:]
        time.sleep(STALE + 1)  # inside its transaction for longer than the limit
        if connection.vendor == "sqlite":  # no write got through: only the lock says it is alive
            assert _silent_for(_job(tmp_path, pk)) > STALE
        assert _sweep(env, stale=STALE, tmp_path=tmp_path) == "0"
        assert (_job(tmp_path, pk)["state"], _job(tmp_path, pk)["attempts"]) == ("running", 1)
        (tmp_path / "let-go").touch()
        assert _wait_for(lambda: worker.poll() is not None or _job(tmp_path, pk)["state"] == "done")
        done = _job(tmp_path, pk)
        assert (done["state"], done["attempts"], done["work"]) == ("done", 1, 1)
    finally:
        (tmp_path / "let-go").touch()
        out = _stop(worker)
    assert "database is locked" not in out, out[-2000:]


@pytest.mark.jobs
@pytest.mark.django_db(transaction=True)
def test_a_job_writing_in_one_long_transaction_is_taken_back_once_its_worker_is_killed(settings, tmp_path):
    """The same job, its worker killed inside the transaction (which rolls back): under the limit it is left
    alone, past it taken back; the next worker does its work, once."""
    from huey.contrib.djhuey import HUEY

    HUEY.immediate = False
    env = _env(settings, tmp_path)
    pk = int(_run(env, "enqueue-long"))
    first = _helper(env, "worker", start_new_session=True)
    try:
        assert _wait_for(lambda: first.poll() is not None or (tmp_path / "inside-1").exists()), "never started"
        assert first.poll() is None, first.communicate()[0][-2000:]
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
    assert _sweep(env, stale=3600, tmp_path=tmp_path) == "0"  # dead, but silent for less than the limit
    assert (_job(tmp_path, pk)["state"], _job(tmp_path, pk)["work"]) == ("running", 0)
    assert _wait_for(lambda: _silent_for(_job(tmp_path, pk)) > STALE)
    assert _sweep(env, stale=STALE, tmp_path=tmp_path) == "1"
    assert (_job(tmp_path, pk)["state"], _job(tmp_path, pk)["work"]) == ("queued", 0)  # its write rolled back
    second = _helper(env, "worker")
    try:
        assert _wait_for(lambda: second.poll() is not None or _job(tmp_path, pk)["state"] == "done")
        done = _job(tmp_path, pk)
        assert (done["state"], done["attempts"], done["work"]) == ("done", 2, 1)
    finally:
        _stop(second)
