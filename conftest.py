"""Shared fixtures: a county, a user for each role, and a way to write an inventory file."""
import csv
import os
from pathlib import Path

import pytest

if os.environ.get("PYTEST_XDIST_WORKER"):
    # A test worker of a parallel run: settings gave it its own data directory (DATA_DIR/<worker>). The programs a
    # test starts (powts serve, powts worker, backup) get that directory, not the worker's name, so that a test that
    # hands one a fresh directory of its own gets exactly that directory.
    from django.conf import settings as _settings

    os.environ["POWTS_DATA_DIR"] = str(_settings.DATA_DIR)
    del os.environ["PYTEST_XDIST_WORKER"]


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hashing():
    """Argon2 (production's first hasher) costs about a quarter of a second of CPU per user, and the fixtures make
    thousands of users: tests hash with MD5. powts/accounts/tests/test_passwords.py checks production's order."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture
def dane(db):
    from powts.jurisdictions.services import jurisdiction_ensure

    return jurisdiction_ensure(slug="dane")


@pytest.fixture
def lincoln(db):
    from powts.jurisdictions.services import jurisdiction_ensure

    return jurisdiction_ensure(slug="lincoln")


@pytest.fixture
def make_user(db):
    from powts.accounts.services import user_create

    def make(username, role, jurisdiction=None, **kw):
        return user_create(username=username, password="a-long-test-password", role=role, jurisdiction=jurisdiction, **kw)

    return make


@pytest.fixture
def staff(make_user, dane):
    return make_user("sam", "county_staff", dane, first_name="Sam", last_name="Sanitarian")


@pytest.fixture
def write_csv(tmp_path):
    """write_csv([header, row, ...], name="x.csv", encoding="utf-8") -> Path"""

    def write(rows, name="inventory.csv", encoding="utf-8"):
        path = Path(tmp_path) / name
        with open(path, "w", newline="", encoding=encoding) as handle:
            csv.writer(handle).writerows(rows)
        return path

    return write


@pytest.fixture
def cli(capsys, monkeypatch):
    """cli("import", "inventory", ...) -> (exit code, stdout, stderr), through the real `powts` entry point."""
    from powts.cli import main

    # Django's command runner closes every connection when a command ends; the test's own
    # connection (inside its transaction on PostgreSQL) must survive it.
    monkeypatch.setattr("django.db.connections.close_all", lambda: None)

    def run(*argv):
        try:
            code = main(list(argv))
        except SystemExit as exc:  # Django's CommandError exits 1 through sys.exit
            code = exc.code
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


@pytest.fixture(autouse=True)
def attachment_dir(settings, tmp_path):
    """Attached documents and photos go to this test's own directory (never the data directory)."""
    path = tmp_path / "attachments"
    settings.STORAGES = {**settings.STORAGES, "attachments": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": str(path), "base_url": "/nowhere/", "file_permissions_mode": 0o600,
                    "directory_permissions_mode": 0o700}}}
    return path


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache, so per-address limits (public posts) do not carry over."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _queue_immediate():
    """Background tasks run at once, in the caller's thread (Huey's immediate mode, in memory): a test sees
    their result when the request returns. tests/test_notice_queue.py turns it off to run a real consumer."""
    from huey.contrib.djhuey import HUEY

    was = HUEY.immediate
    HUEY.immediate = True
    yield
    HUEY.immediate = was


# -- no test leaves a session on the PostgreSQL test database (CI once failed with "database "test_powts" is being
# accessed by other users" when the test database was dropped at the end) --------------------------------

_OPENED = None  # a weakref.WeakSet once tracking starts


def _track_connections():
    """Every database connection the test process opens, in any thread (a live server's request threads)."""
    global _OPENED
    import weakref

    from django.db.backends.signals import connection_created

    if _OPENED is None:
        _OPENED = weakref.WeakSet()
        connection_created.connect(lambda sender, connection, **kw: _OPENED.add(connection), weak=False)
    return _OPENED


@pytest.fixture(scope="session")
def _postgres_sessions(request):
    """Other sessions on the test database, read from the server (None on SQLite)."""
    from django.db import connection

    _track_connections()
    if connection.vendor != "postgresql":
        yield None
        return
    import psycopg

    db = connection.settings_dict
    watcher = psycopg.connect(host=db["HOST"] or "127.0.0.1", port=db["PORT"] or 5432, user=db["USER"],
                              password=db.get("PASSWORD") or None, dbname="postgres", autocommit=True)

    def others() -> list:
        own = connection.connection.info.backend_pid if connection.connection is not None else 0
        return watcher.execute(
            "SELECT pid, state, left(query, 200) FROM pg_stat_activity WHERE datname = %s AND pid <> %s "
            "AND backend_type = 'client backend'", [connection.settings_dict["NAME"], own]).fetchall()

    yield others
    watcher.close()


@pytest.fixture(autouse=True)
def _no_session_left_on_the_test_database(_postgres_sessions):
    """After each test: a connection opened in this thread under another context, or by a finished thread, is
    closed. A browser test reads the database between Playwright's steps, inside Playwright's greenlet, whose
    context has its own copy of Django's per-context connections: nothing closed that one, and it was the
    session still open when the test database was dropped at the end of the run. Then any other session on
    the test database (a subprocess that did not exit or close its connection) fails the test that left it."""
    yield
    if _postgres_sessions is None:
        return
    import threading
    import time

    from django.db import connections

    own = connections["default"]  # this context's connection itself (django.db.connection is only a proxy to it):
    # kept open, for a module's records built in a transaction that outlives the test (the access matrix's world)
    me, alive = threading.get_ident(), {t.ident for t in threading.enumerate()}
    for wrapper in list(_OPENED):  # this thread's in another context (Playwright's greenlet), or a finished thread's
        if (wrapper is not own and wrapper.connection is not None
                and (wrapper._thread_ident == me or wrapper._thread_ident not in alive)):
            wrapper.connection.close()  # from this thread: the wrapper's own close() refuses another thread's
            wrapper.connection = None
    deadline = time.monotonic() + 10  # a server process ends a session a moment after its client has gone
    while (left := _postgres_sessions()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, f"sessions left open on the test database: {left}"
