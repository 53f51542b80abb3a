"""Proof that a running job's worker is alive, without writing to the database (the heartbeat).

On the embedded SQLite database a heartbeat row written every few seconds cannot be trusted: writes are
queued one at a time (powts.core.sqlite), so while a job writes in one long transaction (an import of
1,000,000 rows) the beat waits behind it, or meets "database is locked", and the stale check would take
the live job back and run it twice. Every process that uses a SQLite file runs on the machine that holds
the file, so there the worker instead holds an exclusive flock() on a file per running job, beside the
database, for as long as it runs the job. The kernel drops the lock the moment the process dies (SIGKILL,
a crash, a power cut): a held lock is proof of life, a free one proof of death, and neither is a write.

On PostgreSQL (workers on other machines, no shared files) there is no such proof: `supported()` is False
and the database heartbeat (powts.jobs.tasks) is kept."""
from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path


def folder() -> Path | None:
    """Where the running jobs' lock files are: beside the SQLite database file (every process using that file
    sees the same folder), or None when a lock file proves nothing (a server database, SQLite in memory)."""
    from django.db import connection

    if connection.vendor != "sqlite" or connection.is_in_memory_db():
        return None
    database = Path(os.fspath(connection.settings_dict["NAME"]))
    return database.with_name(f"{database.name}-running-jobs")


def supported() -> bool:
    return folder() is not None


def _path(where: Path, job_id: int) -> Path:
    return where / f"{int(job_id)}.lock"


def hold(job_id: int) -> int | None:
    """Take job `job_id`'s lock for this run (the file descriptor, kept open until `release`), or None when
    locks prove nothing here or another run of the same job, still alive, holds it."""
    where = folder()
    if where is None:
        return None
    try:
        where.mkdir(mode=0o700, exist_ok=True)
        handle = os.open(_path(where, job_id), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError:  # the folder not writable: the database heartbeat instead
        return None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(handle)
        return None
    return handle


def release(job_id: int, handle: int | None) -> None:
    """After the job's outcome is committed. The file goes first, then the lock (closing it releases it): a
    later run of the job makes a new file, never one this run is about to remove."""
    if handle is None:
        return
    where = folder()
    try:
        if where is not None:
            _path(where, job_id).unlink(missing_ok=True)
    finally:
        os.close(handle)


def held(job_id: int) -> bool:
    """Whether a live process holds job `job_id`'s lock (False where locks prove nothing: use the heartbeat)."""
    where = folder()
    if where is None:
        return False
    try:
        handle = os.open(_path(where, job_id), os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            return True
        raise
    finally:
        os.close(handle)  # closing also drops the shared lock just taken, if it was taken
    return False
