"""`powts serve` starts gunicorn for real with the worker class it names
(powts.core.gunicorn_worker.FreeThreadWorker): the master boots the processes asked for, they answer on
one port over kept-alive connections and 32 connections opened at once (the API benchmark's clients),
and a SIGTERM stops them all cleanly. The other serve tests replace gunicorn; this one runs it, so a worker
class that fails to import or to boot under a new gunicorn fails here, not on a county's server.

The app is powts' own WSGI application; /healthz reads no database, so an empty data directory will do
(no migrations: on SQLite they take longer than the whole test)."""
import http.client
import os
import signal
import subprocess
import sys
import time
from concurrent import futures
from pathlib import Path

import pytest

from powts.jobs.tests.ports import free_port

SERVE = """
import sys
from powts.core.management.commands.serve import run_gunicorn
from powts.wsgi import application
run_gunicorn(application, bind=sys.argv[1], processes=2, threads=1, consumer=False)
"""


def _healthz(conn: http.client.HTTPConnection) -> int:
    conn.request("GET", "/healthz")
    response = conn.getresponse()
    response.read()
    return response.status


@pytest.fixture
def server(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "POWTS_QUEUE_URL")}
    env["POWTS_DATA_DIR"] = str(tmp_path)
    log = Path(tmp_path, "gunicorn.log")
    with open(log, "w") as err:
        proc = subprocess.Popen([sys.executable, "-c", SERVE, f"127.0.0.1:{port}"], env=env, cwd=Path(__file__).parents[3],
                                stdout=subprocess.DEVNULL, stderr=err)
    deadline = time.monotonic() + 60
    while log.read_text().count("Booting worker") < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    try:
        yield proc, port, log
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_two_processes_answer_on_one_port_and_stop_on_sigterm(server):
    proc, port, log = server
    booted = log.read_text()
    assert proc.poll() is None, booted
    assert "Using worker: powts.core.gunicorn_worker.FreeThreadWorker" in booted
    assert booted.count("Booting worker") == 2

    kept = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    assert [_healthz(kept) for _ in range(20)] == [200] * 20
    assert kept.sock is not None  # the same connection answered all twenty: kept alive

    def one_client(_):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            return [_healthz(conn) for _ in range(5)]
        finally:
            conn.close()

    with futures.ThreadPoolExecutor(32) as pool:
        answers = list(pool.map(one_client, range(32)))
    assert answers == [[200] * 5] * 32
    kept.close()

    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=40) == 0
    assert "Shutting down: Master" in log.read_text()
