"""On the embedded default (a SQLite file) a server thread keeps its connection from one
request to the next, as on PostgreSQL (CONN_MAX_AGE). Opened per request, each re-ran its PRAGMAs and
re-read the schema (inside the write lock, for a report) and closing it checkpointed the WAL: at 200
reports a second the write queue never emptied (p99 38 s; 114 ms with the connection kept)."""
import os
import subprocess
import sys

SCRIPT = """
import django
django.setup()
from django.core import signals
from django.db import connection
connection.ensure_connection()
opened = connection.connection
signals.request_started.send(sender=None)
with connection.cursor() as cursor:
    cursor.execute("SELECT 1")
signals.request_finished.send(sender=None)  # what the WSGI handler sends when a response is done
print(connection.vendor, connection.settings_dict["NAME"], connection.connection is opened)
"""


def test_a_request_ending_leaves_the_threads_sqlite_connection_open(tmp_path):
    """In a process of its own: the test database is in memory, which Django never closes."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(DJANGO_SETTINGS_MODULE="powts.settings", POWTS_DATA_DIR=str(tmp_path))
    run = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["sqlite", str(tmp_path / "powts.sqlite3"), "True"]
