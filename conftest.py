"""Shared fixtures: a county, a user for each role, and a way to write an inventory file."""
import csv
from pathlib import Path

import pytest


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
