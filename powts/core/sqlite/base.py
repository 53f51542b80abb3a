"""SQLite with its writes queued in line: every write transaction (BEGIN IMMEDIATE, Django's
transaction_mode) first takes an exclusive lock on a file beside the database, held until COMMIT or ROLLBACK.

Why: SQLite's own busy handler makes a waiting writer sleep and retry, so under load (several processes of
`powts serve`, each with threads) a writer can lose the race again and again and give up with "database is
locked" after the busy timeout, though the database is free most of the time. A blocking flock() is a queue
the kernel keeps: a waiting writer wakes as soon as the one before it commits. Readers are untouched (WAL).
Each connection (one per thread) opens the file itself: flock() excludes between open files, not processes.

The tests' database is in memory, shared between threads (the live server, a job consumer). There SQLite does
not wait at all: a second writer gets "database table is locked" at once. Its writers queue on a lock in the
process instead (one process holds an in-memory database)."""
from __future__ import annotations

import fcntl
import os
import threading

from django.db import OperationalError
from django.db.backends.sqlite3 import base

_MEMORY_LOCKS: dict[str, threading.Lock] = {}
_MEMORY_WAIT = 60  # seconds; a writer that waits longer is stuck behind one that never ends: say so, not hang


class DatabaseWrapper(base.DatabaseWrapper):
    _write_lock_file = None
    _memory_lock = None  # the in-memory database's lock, while this connection holds it

    def _take_write_lock(self) -> None:
        """In line for the right to write: the lock file's, or, for an in-memory database, the process's lock."""
        if self.is_in_memory_db():
            lock = _MEMORY_LOCKS.setdefault(os.fspath(self.settings_dict["NAME"]), threading.Lock())
            if not lock.acquire(timeout=_MEMORY_WAIT):
                raise OperationalError("database is locked: another thread's write transaction did not end")
            self._memory_lock = lock
            return
        if self._write_lock_file is None:
            path = f"{os.fspath(self.settings_dict['NAME'])}-writelock"
            self._write_lock_file = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        fcntl.flock(self._write_lock_file, fcntl.LOCK_EX)

    def _release_write_lock(self) -> None:
        if self._write_lock_file is not None:
            fcntl.flock(self._write_lock_file, fcntl.LOCK_UN)
        if self._memory_lock is not None:
            lock, self._memory_lock = self._memory_lock, None
            lock.release()

    def _start_transaction_under_autocommit(self):
        self._take_write_lock()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_write_lock()
            raise

    def _commit(self):
        try:
            super()._commit()
        finally:
            self._release_write_lock()

    def _rollback(self):
        try:
            super()._rollback()
        finally:
            self._release_write_lock()

    def _close(self):
        try:
            super()._close()
        finally:
            if self._write_lock_file is not None:
                os.close(self._write_lock_file)  # closing the file also releases its lock
                self._write_lock_file = None
            self._release_write_lock()  # an in-memory database's lock, if closed mid-transaction
