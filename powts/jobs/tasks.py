"""The one task every job runs through: claim the row, beat while the runner works, record the outcome."""
from __future__ import annotations

import logging
import threading

from huey import crontab
from huey.contrib.djhuey import HUEY, db_periodic_task, task

log = logging.getLogger(__name__)
BEAT_SECONDS = 5


def _connections_for_next_job() -> None:
    """Before and after each job, as Huey's db_task does (close_old_connections), except that a worker
    thread keeps a healthy SQLite connection from one job to the next however long it waited (not only for
    CONN_MAX_AGE): opening one re-runs its pragmas and closing the last checkpoints the WAL, most of a small
    job's cost."""
    from django.db import connections

    if HUEY.immediate:  # tests: the caller's own connection, never closed under it
        return
    for conn in connections.all(initialized_only=True):
        if conn.vendor == "sqlite" and conn.connection is not None and conn.get_autocommit() and not conn.in_atomic_block:
            conn.errors_occurred = False
            continue
        conn.close_if_unusable_or_obsolete()


@HUEY.on_shutdown()
def _close_connections() -> None:
    """A worker thread stopping closes its connections (kept between jobs): none is left open on the database."""
    from django.db import connections

    connections.close_all()


@task(retries=0)
def run_job(job_id: int) -> str:
    from powts.kernel.profiles import check_done, check_soon

    _connections_for_next_job()
    token = check_soon()  # a county's settings changed since this worker last read its profile are read afresh
    try:
        return execute(job_id)
    finally:
        check_done(token)
        _connections_for_next_job()


class _Heart:
    """One thread per process beats for every job running in it, every BEAT_SECONDS (more often when the
    stale limit is shorter than four beats): a job that ends sooner (most) costs no thread and no write for
    its heartbeat. On SQLite a lock file proves the job alive instead (powts.jobs.liveness)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.jobs: dict[int, object] = {}
        self.thread: threading.Thread | None = None

    def add(self, job) -> None:
        with self.lock:
            self.jobs[job.pk] = job
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self.run, name="jobs-heartbeat", daemon=True)
                self.thread.start()

    def remove(self, job) -> None:
        with self.lock:
            if self.jobs.get(job.pk) is job:
                del self.jobs[job.pk]

    def run(self) -> None:
        from django.db import connections

        from powts.jobs import services

        try:
            while True:
                threading.Event().wait(min(BEAT_SECONDS, services.stale_after().total_seconds() / 4))
                with self.lock:
                    running = list(self.jobs.values())
                    if not running:
                        self.thread = None
                        return
                for job in running:
                    try:
                        services.beat(job)
                    except Exception:  # a beat missed is not the job failing
                        log.exception("job %s: heartbeat", job.pk)
        finally:
            connections.close_all()  # this thread's own connection, not left to the garbage collector


heart = _Heart()


def execute(job_id: int) -> str:
    """Run job `job_id` if it is still waiting; what happened, in a word (for tests and the log)."""
    from powts.core.refusals import Refused, refused_text
    from powts.jobs import kinds, liveness, services

    job = services.claim(job_id)
    if job is None:
        return "not claimed"
    life = liveness.hold(job.pk)
    if life is None:  # no lock file proves this worker alive here (PostgreSQL): beat in the database
        heart.add(job)
    try:
        try:
            runner = kinds.get(job.kind).runner

            def progress(done=None, total=None, step=None):
                services.beat(job, done=done, total=total, step=step)

            result = runner(job, progress)
        except Refused as exc:
            services.fail(job, error=refused_text(exc))
            return "failed"
        except Exception:
            log.exception("job %s (%s) failed", job_id, job.kind)
            services.fail(job, error="The job stopped on an unexpected error. Nothing it was doing was half saved; "
                                     "you can retry it, and if it fails again tell the administrator.")
            return "failed"
        finally:
            heart.remove(job)
        return "done" if services.finish(job, result=result or {}) else "overtaken"
    finally:
        liveness.release(job.pk, life)  # only once the outcome is committed: until then the job is alive


@db_periodic_task(crontab(minute="*"))
def every_minute() -> None:
    """The sweeps' clock, and jobs left behind by a killed worker taken back."""
    from powts.jobs.services import requeue_stale
    from powts.jobs.sweeps import sweep_clock

    sweep_clock()
    requeue_stale()
