"""Speed, "every page p95 under 100 ms": what a web process does once before its first request, and how its
SQLite connections read the database."""
import gc
import importlib
import sys

import pytest
from django.conf import settings
from django.db import connection


def test_a_web_process_freezes_what_it_loaded_so_no_request_scans_it():
    """A full collection over the ~200,000 objects of the loaded project took 30-300 ms inside one dashboard
    request in ten; powts/wsgi.py freezes them (gc.freeze) after loading every view."""
    gc.unfreeze()
    try:
        importlib.reload(sys.modules["powts.wsgi"]) if "powts.wsgi" in sys.modules else importlib.import_module("powts.wsgi")
        assert gc.get_freeze_count() > 10_000
        assert "powts.maintenance.views" in sys.modules  # the views are loaded before the freeze, not by a request
    finally:
        gc.unfreeze()


@pytest.mark.skipif(connection.vendor != "sqlite", reason="a SQLite setting")
def test_sqlite_connections_read_the_file_through_mmap(tmp_path, django_db_blocker):
    """Django opens a connection per request: without mmap its cold page cache read every page with a read() call
    (the notices page as of 30 days on, 75,000 schedules at 1,000,000 systems: 1969 -> 1048 ms, load 6)."""
    from django.db import connections
    from django.db.utils import ConnectionHandler

    handler = ConnectionHandler({"default": {**settings.DATABASES["default"], "NAME": str(tmp_path / "db.sqlite3"),
                                             "TEST": {}}})
    conn = handler["default"]
    try:
        with django_db_blocker.unblock(), conn.cursor() as cursor:
            cursor.execute("PRAGMA mmap_size")
            assert cursor.fetchone()[0] >= 1 << 30
    finally:
        conn.close()
    assert connections["default"] is not conn
