"""`powts worker [--workers N]` runs Huey consumers on the configured queue, as its
own process; a job put on the queue by another process is taken and run by it."""
import os
import signal
import subprocess
import sys
import time
import uuid

import pytest


def _wait_for(predicate, seconds=300):  # a fresh SQLite database is migrated first: slow on a busy machine
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value is not None:
            return value
        time.sleep(0.2)
    return None


@pytest.mark.jobs
@pytest.mark.django_db(transaction=True)  # so pytest-django makes the test database even when this test runs alone
def test_powts_worker_takes_a_job_from_the_queue_of_another_process(settings):
    from django.db import connection
    from huey.contrib.djhuey import HUEY

    from powts.core.tasks import queue_ping

    HUEY.immediate = False  # the queue as configured (the embedded SQLite file, or Redis in CI's second run)
    env = dict(os.environ, POWTS_DATA_DIR=str(settings.DATA_DIR))
    db = connection.settings_dict
    if connection.vendor == "postgresql":  # the worker reads the test database (SQLite: its own file, migrated)
        name = db["NAME"]  # the test database pytest-django made (this test asks for it: django_db)
        login = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
        env["DATABASE_URL"] = f"postgres://{login}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"
    if settings.POWTS_QUEUE_URL:
        env["POWTS_QUEUE_URL"] = settings.POWTS_QUEUE_URL
    token = uuid.uuid4().hex
    result = queue_ping(token)  # queued before any worker runs: it waits on the queue
    proc = subprocess.Popen([os.path.join(os.path.dirname(sys.executable), "powts"), "worker", "--workers", "1", "--no-periodic"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        answer = _wait_for(lambda: result.get() if proc.poll() is None else "worker stopped")
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=120)
    assert answer == f"pong {token}", (env.get("DATABASE_URL"), out[-300:])
    assert "powts worker: 1 worker(s)" in out
    assert proc.returncode == 0, out


def test_powts_worker_refuses_zero_workers():
    from django.core.management import call_command
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="--workers"):
        call_command("worker", workers=0)
