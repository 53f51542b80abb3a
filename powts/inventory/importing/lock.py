"""One import per county at a time, on both databases, released even when the process is killed.

PostgreSQL: a session advisory lock (dies with the connection). SQLite: flock on a file in the data
directory (dies with the process; SQLite is one machine's database, so a file lock covers every worker).
"""
from __future__ import annotations

import contextlib
import fcntl
import os

from django.conf import settings
from django.db import connection

from powts.inventory.importing.readers import InventoryFileRefused

# First key of the PostgreSQL advisory lock pair: "inventory import"; the second is the county's id.
_PG_KEY = 0x504F5754


class ImportBusy(InventoryFileRefused):
    """Another import of the same county is running; nothing was written."""


def _busy(jurisdiction) -> ImportBusy:
    return ImportBusy(f"Another import of {jurisdiction}'s inventory is running; "
                      "try again when it has finished (nothing was imported).")


@contextlib.contextmanager
def county_import_lock(jurisdiction):
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [_PG_KEY, jurisdiction.pk])
            if not cursor.fetchone()[0]:
                raise _busy(jurisdiction)
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [_PG_KEY, jurisdiction.pk])
        return
    folder = settings.DATA_DIR / "locks"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(folder / f"inventory-import-{jurisdiction.pk}.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise _busy(jurisdiction) from None
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the flock


__all__ = ["ImportBusy", "county_import_lock"]
