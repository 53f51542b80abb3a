"""The one task every job runs through: claim the row, beat while the runner works, record the outcome."""
from __future__ import annotations

import logging
import threading

from huey import crontab
from huey.contrib.djhuey import db_periodic_task, db_task

log = logging.getLogger(__name__)
BEAT_SECONDS = 5


@db_task(retries=0)
def run_job(job_id: int) -> str:
    return execute(job_id)


def execute(job_id: int) -> str:
    """Run job `job_id` if it is still waiting; what happened, in a word (for tests and the log)."""
    from django.db import connections

    from powts.core.refusals import Refused, refused_text
    from powts.jobs import kinds, services

    job = services.claim(job_id)
    if job is None:
        return "not claimed"
    stop = threading.Event()

    def heart():
        try:
            while not stop.wait(BEAT_SECONDS):
                try:
                    services.beat(job)
                except Exception:  # a beat missed is not the job failing
                    log.exception("job %s: heartbeat", job_id)
        finally:
            connections.close_all()  # this thread's own connection, not left to the garbage collector

    beating = threading.Thread(target=heart, name=f"job-{job_id}-beat", daemon=True)
    beating.start()
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
        stop.set()
        beating.join()
    return "done" if services.finish(job, result=result or {}) else "overtaken"


@db_periodic_task(crontab(minute="*"))
def every_minute() -> None:
    """The sweeps' clock, and jobs left behind by a killed worker taken back."""
    from powts.jobs.services import requeue_stale
    from powts.jobs.sweeps import sweep_clock

    sweep_clock()
    requeue_stale()
