"""Writing jobs: start one (and put it on the queue), claim it, report progress, finish, fail, retry, and
take back what a killed worker left. The queue carries the job's id only; the row says what is true.

"A job run twice does its work once": a worker claims the row with one UPDATE ... WHERE state='queued',
so a second delivery of the same id (a re-queue after a crash, a double click) finds nothing to claim;
each runner's writes are one transaction or keyed, so a retry after a crash finds its work done or undone,
never half done."""
from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from powts.audit.services import audit_create, audit_update, snapshot
from powts.jobs import liveness
from powts.jobs.errors import QueueUnavailable
from powts.jobs.models import Job, JobState

log = logging.getLogger(__name__)


def stale_after() -> dt.timedelta:
    """A running job not heard from for this long had its worker killed (a live one beats every few seconds),
    unless its worker holds the job's lock file (SQLite: powts.jobs.liveness)."""
    return dt.timedelta(seconds=getattr(settings, "POWTS_JOB_STALE_SECONDS", 120))


def job_record(*, kind: str, title: str, jurisdiction=None, user=None, params: dict | None = None,
               key: str | None = None, total: int = 0) -> tuple[Job, bool]:
    """The job recorded, not yet queued: (job, whether this call created it). For a caller that queues it
    once its own transaction commits (`transaction.on_commit(lambda: enqueue(job))`)."""
    if key:
        existing = Job.objects.filter(key=key).first()
        if existing is not None:
            return existing, False
    try:
        with transaction.atomic():
            job = Job.objects.create(kind=kind, title=title[:200], jurisdiction=jurisdiction,
                                     started_by=user if getattr(user, "pk", None) else None, params=params or {},
                                     key=key or None, total=total)
            audit_create(job, action=f"job started: {job.title}")
    except IntegrityError:  # the same key at the same moment (two workers' sweep clocks): theirs
        if not key:
            raise
        return Job.objects.get(key=key), False
    return job, True


def job_start(*, kind: str, title: str, jurisdiction=None, user=None, params: dict | None = None,
              key: str | None = None, total: int = 0) -> Job:
    """Record the job and put it on the queue. With `key`, asking again returns the same job.
    The row is committed before the queue hears of it (a worker never looks for a row not yet there); when
    the queue cannot be reached the row stays queued (QueueUnavailable says so) and a worker takes it later."""
    job, created = job_record(kind=kind, title=title, jurisdiction=jurisdiction, user=user, params=params, key=key,
                              total=total)
    if created:
        enqueue(job)
        from huey.contrib.djhuey import HUEY

        if HUEY.immediate:  # run already, in this thread (tests): the row as it ended
            job.refresh_from_db()
    return job


def enqueue(job: Job) -> None:
    from powts.jobs.tasks import run_job

    try:
        run_job(job.pk)
    except Exception as exc:  # the queue's own failure (Redis down, the SQLite queue file unwritable)
        log.warning("job %s could not be queued: %s", job.pk, exc)
        raise QueueUnavailable() from exc


def claim(job_id: int) -> Job | None:
    """The one worker that gets to run the job (None: another has it, or it is finished)."""
    now = timezone.now()
    with transaction.atomic():  # SQLite: in line for the write lock (powts.core.sqlite), not "database is locked"
        taken = Job.objects.filter(pk=job_id, state=JobState.QUEUED).update(
            state=JobState.RUNNING, started_at=now, heard_at=now, attempts=F("attempts") + 1, error="")
    return Job.objects.get(pk=job_id) if taken else None


def beat(job: Job, *, done: int | None = None, total: int | None = None, step: str | None = None) -> None:
    """Progress and a sign of life, written at once (outside the runner's transaction when it has one)."""
    fields = {"heard_at": timezone.now()}
    if done is not None:
        fields["done"] = max(0, int(done))
    if total is not None:
        fields["total"] = max(0, int(total))
    if step is not None:
        fields["step"] = step[:80]
    with transaction.atomic():
        Job.objects.filter(pk=job.pk, state=JobState.RUNNING, attempts=job.attempts).update(**fields)


def finish(job: Job, *, result: dict) -> bool:
    """Done, with its result; False when this run was overtaken (its job was taken back as stale)."""
    with transaction.atomic():
        return bool(Job.objects.filter(pk=job.pk, state=JobState.RUNNING, attempts=job.attempts).update(
            state=JobState.DONE, result=result, finished_at=timezone.now(), heard_at=timezone.now(), step=""))


def fail(job: Job, *, error: str) -> bool:
    with transaction.atomic():
        return bool(Job.objects.filter(pk=job.pk, state=JobState.RUNNING, attempts=job.attempts).update(
            state=JobState.FAILED, error=error[:500], finished_at=timezone.now(), heard_at=timezone.now()))


def job_retry(*, job: Job, user) -> Job:
    """A failed job, queued again by the person who started it or staff of its county (powts.jobs.policies)."""
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job.pk)
        if job.state != JobState.FAILED:
            return job  # already retried (a double click), or not failed
        before = snapshot(job, ["state", "error"])
        job.state, job.error, job.finished_at, job.done = JobState.QUEUED, "", None, 0
        job.save(update_fields=["state", "error", "finished_at", "done"])
        audit_update(job, before=before, action=f"job retried by {getattr(user, 'username', 'someone')}")
    enqueue(job)
    return job


def requeue_stale() -> int:
    """Take back running jobs whose worker stopped beating (killed) and queue again jobs left waiting longer
    than that (the queue was down when they were asked for). A job queued twice still runs once (claim)."""
    cutoff = timezone.now() - stale_after()
    silent = Job.objects.filter(state=JobState.RUNNING, heard_at__lt=cutoff)
    # First a plain read: on SQLite a write transaction would wait behind a job's long one, only to find
    # that job alive. A job whose worker holds its lock file is alive however long it has been silent.
    stale: list[Job] = []
    if any(not liveness.held(pk) for pk in silent.values_list("pk", flat=True)):
        with transaction.atomic():
            stale = [job for job in silent.select_for_update() if not liveness.held(job.pk)]
            for job in stale:
                before = snapshot(job, ["state"])
                job.state = JobState.QUEUED
                job.save(update_fields=["state"])
                audit_update(job, before=before, action="job taken back: its worker stopped")
    waiting = Job.objects.filter(state=JobState.QUEUED).filter(
        Q(heard_at__lt=cutoff) | Q(heard_at__isnull=True, created_at__lt=cutoff)).values_list("pk", flat=True)
    ids = sorted({*(j.pk for j in stale), *waiting})
    if ids:
        with transaction.atomic():
            Job.objects.filter(pk__in=ids).update(heard_at=timezone.now())  # not again until another stale period
    for pk in ids:
        try:
            enqueue(Job(pk=pk))
        except QueueUnavailable:
            break  # the queue is down: the next worker start or sweep tries again
    return len(ids)
