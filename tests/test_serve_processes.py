"""`powts serve --processes N` (the real command, on SQLite in a fresh data directory, as the
newcomer runs it): N processes on one port, the embedded queue's consumer in exactly one of them; reports
sent at once through all of them are each stored exactly once, with no "database is locked" (SQLite
writes serialised: BEGIN IMMEDIATE and a busy timeout) and no server error."""
import datetime as dt
import http.client
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from powts.jobs.tests.ports import free_port

PROCESSES, THREADS = 3, 2
SYSTEMS, CLIENTS, EACH = 20, 12, 20

SETUP = f"""
import datetime as dt, os, django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "powts.settings"); django.setup()
from knox.models import AuthToken
from powts.accounts.services import license_create, user_create
from powts.inventory.services import system_create
from powts.jurisdictions.services import jurisdiction_ensure
dane = jurisdiction_ensure(slug="dane")
user = user_create(username="perry", password="a-long-test-password", role="pumper")
license_create(kind="septage_operator", number="SSO-1", holder_name="Perry Pumper", user=user)
for i in range({SYSTEMS}):
    system_create(jurisdiction=dane, system_id=f"DA-{{i}}", parcel_number=f"P-{{i}}", system_type="conventional",
                  owner_name="Olive Owner", owner_mailing_address="12 Lake Rd, Verona, WI 53593", site_address="12 Lake Rd",
                  municipality="Town of Verona", installed_on=dt.date(2020, 6, 1))
print(AuthToken.objects.create(user=user)[1])
"""

STORED = """
import json, os, django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "powts.settings"); django.setup()
from powts.maintenance.models import Report
print(json.dumps(list(Report.objects.values_list("id", flat=True))))
"""


def _children(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


@pytest.fixture(scope="module")
def server(tmp_path_factory, django_db_setup, django_db_blocker):
    """The server on SQLite in a fresh data directory, its database a copy of the test run's migrated one
    (migrating anew takes minutes on a busy machine; `powts serve` without --no-setup is tested apart)."""
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("SQLite's serialised writes across processes; the API load on PostgreSQL is in bench/bench_maintenance.py")
    data = tmp_path_factory.mktemp("serve")
    with django_db_blocker.unblock():
        connection.ensure_connection()
        target = sqlite3.connect(data / "powts.sqlite3")
        connection.connection.backup(target)
        target.close()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "POWTS_QUEUE_URL")}
    env["POWTS_DATA_DIR"] = str(data)
    log_path = data / "serve.log"
    log = log_path.open("w")
    proc = subprocess.Popen([sys.executable, "-m", "powts.cli", "serve", "--port", str(port), "--processes", str(PROCESSES),
                             "--threads", str(THREADS), "--no-setup"], env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 180  # a busy machine
        status = None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                    status = r.status
                break
            except OSError:
                time.sleep(0.5)
        assert status == 200, log_path.read_text()[-3000:]
        for _ in range(60):  # the workers boot one after the other
            if len(_children(proc.pid)) == PROCESSES and "background jobs run in worker" in log_path.read_text():
                break
            time.sleep(0.25)
        yield {"proc": proc, "port": port, "env": env, "log": log_path}
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
            log.close()


def test_serve_starts_n_processes_on_one_port_with_one_consumer(server):
    workers = _children(server["proc"].pid)
    assert len(workers) == PROCESSES
    text = server["log"].read_text()
    consumers = re.findall(r"background jobs run in worker (\d+)", text)
    assert len(consumers) == 1 and int(consumers[0]) in workers, text
    with urllib.request.urlopen(f"http://127.0.0.1:{server['port']}/accounts/login/", timeout=10) as r:
        assert r.status == 200 and b"Sign in" in r.read()


def test_reports_sent_at_once_through_every_process_are_stored_exactly_once(server):
    setup = subprocess.run([sys.executable, "-c", SETUP], env=server["env"], capture_output=True, text=True, timeout=300)
    assert setup.returncode == 0, setup.stderr[-3000:]
    token = setup.stdout.strip().splitlines()[-1]
    results, errors, lock = [], [], threading.Lock()
    start = threading.Barrier(CLIENTS)

    def client(k):
        conn = http.client.HTTPConnection("127.0.0.1", server["port"], timeout=60)  # one keep-alive connection each
        try:
            start.wait(timeout=60)
            for j in range(EACH):
                n = k * EACH + j
                body = json.dumps({"jurisdiction": "dane", "system_id": f"DA-{n % SYSTEMS}", "kind": "pumping",
                                   "work_date": (dt.date(2021, 1, 1) + dt.timedelta(days=n)).isoformat(),
                                   "license_number": "SSO-1", "gallons_pumped": 1000, "disposal_site": "Nine Springs"})
                for _ in range(2 if j % 5 == 0 else 1):  # every fifth report sent twice: the second is a duplicate
                    conn.request("POST", "/api/maintenance/reports/", body,
                                 {"Content-Type": "application/json", "Authorization": f"Token {token}"})
                    r = conn.getresponse()
                    payload = r.read()
                    with lock:
                        results.append((n, r.status, json.loads(payload) if r.status < 300 else payload[:300]))
        except Exception as exc:  # noqa: BLE001 - a client's failure is reported by the test, not lost
            errors.append(repr(exc))
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(k,)) for k in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not errors, errors
    assert {status for _, status, _ in results} <= {200, 201}, [r for r in results if r[1] not in (200, 201)][:5]
    created = {n: body["id"] for n, status, body in results if status == 201}
    assert len(created) == CLIENTS * EACH  # every report acknowledged once as new ...
    assert all(body["duplicate"] and body["id"] == created[n] for n, status, body in results if status == 200)  # ... and once more as itself
    stored = subprocess.run([sys.executable, "-c", STORED], env=server["env"], capture_output=True, text=True, timeout=120)
    assert stored.returncode == 0, stored.stderr[-3000:]
    assert sorted(json.loads(stored.stdout)) == sorted(created.values())  # stored exactly once each
    log = server["log"].read_text()
    assert "database is locked" not in log and "Traceback" not in log, log[-3000:]
