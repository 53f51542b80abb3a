"""A notice batch asked for from the browser: requested once per county and mailing date and sent by a
background job (powts.jobs), which owns its state, progress, claim, heartbeat and retry. The batch keeps
its letters and counts.

Sending twice does the work once: a second request for the same county and date returns the batch
already asked for (queued, running or sent); only a batch whose job failed is started again (the same job,
retried). A batch whose worker was killed is taken back by the jobs' stale check. The notices themselves
are unique per system, kind and due date besides (powts.maintenance.notices).
"""
from __future__ import annotations

import datetime as dt
import logging
import uuid
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from powts.audit.services import audit_create, audit_update, snapshot
from powts.core.refusals import Refused
from powts.jobs.models import JobState
from powts.maintenance.models import NoticeBatch
from powts.maintenance.notices import notices_send, sender_for

log = logging.getLogger(__name__)

KIND = "maintenance.notice_batch"


def letters_dir() -> Path:
    """Where letters are kept: MEDIA_ROOT/letters in the data directory (a backup carries them), read when
    asked so it follows MEDIA_ROOT; a POWTS_LETTERS_DIR setting, if a deployment sets one, wins."""
    return Path(getattr(settings, "POWTS_LETTERS_DIR", None) or Path(settings.MEDIA_ROOT) / "letters")


@transaction.atomic
def batch_request(*, jurisdiction, as_of: dt.date, user) -> tuple[NoticeBatch, bool]:
    """The batch for `jurisdiction` on `as_of`, asked for now or before: (batch, whether this call queued it).
    Refused (powts.core.refusals.Refused) when the county's letters lack a return address; QueueUnavailable
    (after the batch and its job are committed, waiting) when the queue cannot be reached."""
    from powts.jobs.services import enqueue, job_record, job_retry

    sender_for(jurisdiction)
    existing = NoticeBatch.objects.select_for_update(of=("self",)).select_related("job").filter(jurisdiction=jurisdiction, as_of=as_of).first()
    if existing is not None and existing.job_id and existing.job.state != JobState.FAILED:
        return existing, False
    now = timezone.now()
    if existing is None:
        try:
            with transaction.atomic():
                batch = NoticeBatch.objects.create(jurisdiction=jurisdiction, as_of=as_of, requested_by=user, requested_at=now)
        except IntegrityError:  # asked for at the same moment by someone else: theirs
            return NoticeBatch.objects.get(jurisdiction=jurisdiction, as_of=as_of), False
        audit_create(batch, action=f"notice batch for {as_of} asked for")
    else:  # its job stopped on an error: asked for again (same label: its recorded notices are printed again)
        batch = existing
        before = snapshot(batch, ["requested_by_id", "requested_at"])
        batch.requested_by, batch.requested_at = user, now
        batch.save(update_fields=["requested_by", "requested_at"])
        audit_update(batch, before=before, action=f"notice batch for {as_of} asked for again")
        if batch.job_id:
            job = batch.job
            transaction.on_commit(lambda: job_retry(job=job, user=user))
            return batch, True
    job, _ = job_record(kind=KIND, title=f"Notice batch for {as_of:%B %-d, %Y}", jurisdiction=jurisdiction, user=user,
                        params={"batch_id": batch.pk}, key=f"notice-batch:{batch.pk}")
    batch.job = job
    batch.save(update_fields=["job"])
    # Queued once the batch and its job are committed (a worker never looks for a row not yet there).
    transaction.on_commit(lambda: enqueue(job))
    return batch, True


def batch_run(job, progress) -> dict:
    """The job's work: records, prints and e-mails the batch, reporting progress to the job. Raises Refused,
    in plain words, when it stops; the notices already recorded stay recorded and a retry sends the rest."""
    from django.urls import reverse

    from powts.audit.choices import Channel
    from powts.audit.context import acting

    batch = NoticeBatch.objects.select_related("jurisdiction", "requested_by").get(pk=job.params["batch_id"])
    if not batch.batch:  # the label goes on the row first, so a retry finds the notices this run records
        batch.batch = f"{batch.jurisdiction.slug}-{batch.as_of.isoformat()}-{uuid.uuid4().hex[:6]}"
        NoticeBatch.objects.filter(pk=batch.pk).update(batch=batch.batch)

    def step(name: str, done: int, total: int) -> None:
        if name == "printing":
            progress(step=name, done=done, total=total)
        else:
            progress(step=name)

    progress(step="recording the notices")
    try:
        with acting(actor=batch.requested_by, channel=Channel.JOB, actor_label="notice batch"):
            result = notices_send(jurisdiction=batch.jurisdiction, as_of=batch.as_of, output_dir=letters_dir(), progress=step,
                                  batch=batch.batch)
    except Exception as exc:  # the job fails with the reason; the batch may be asked for again
        log.exception("notice batch %s failed", batch.pk)
        raise Refused(_failure_text(exc)) from exc
    NoticeBatch.objects.filter(pk=batch.pk).update(
        total=result.total, counts=result.counts, held=len(result.held), emailed=result.emailed,
        email_failed=result.email_failed, batch=result.batch, merged_path=str(result.merged_file or ""))
    return {"counts": {"letters printed": result.total, "e-mailed": result.emailed, "e-mail refused": result.email_failed,
                       "held back (no usable mailing address)": len(result.held)},
            "download": reverse("maintenance:notice-batch", args=[batch.pk]), "download_label": "Open the batch"}


def _failure_text(exc: Exception) -> str:
    """Why a batch stopped, in plain words for its page: a refusal as it reads, a file or disk error by its
    cause (never its path), anything else as unexpected (the log has the details)."""
    from powts.core.refusals import refused_text

    if isinstance(exc, Refused):
        return refused_text(exc)
    if isinstance(exc, OSError):
        cause = exc.strerror or (str(exc.args[0]) if exc.args else "a file error")
        return f"the letters could not be written ({cause})"
    return "an unexpected error (the administrator's log has the details)"
