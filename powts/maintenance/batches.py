"""A notice batch asked for from the browser: requested once per county and mailing date, run in the
background (powts.maintenance.tasks), its progress kept on the NoticeBatch row for the page to poll.

Sending twice does the work once: a second request for the same county and date returns the batch
already asked for (queued, running or sent); only a batch stopped by an error is started again. The
notices themselves are unique per system, kind and due date besides (powts.maintenance.notices).
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
from powts.maintenance.models import BatchStatus, NoticeBatch
from powts.maintenance.notices import notices_send, sender_for

log = logging.getLogger(__name__)


STALLED_AFTER = dt.timedelta(minutes=30)  # a running batch not heard from this long died with its process


def stalled(batch: NoticeBatch) -> bool:
    return batch.status == BatchStatus.RUNNING and batch.heard_at is not None and timezone.now() - batch.heard_at > STALLED_AFTER


def letters_dir() -> Path:
    """Where letters are kept: MEDIA_ROOT/letters in the data directory (a backup carries them), read when
    asked so it follows MEDIA_ROOT; a POWTS_LETTERS_DIR setting, if a deployment sets one, wins."""
    return Path(getattr(settings, "POWTS_LETTERS_DIR", None) or Path(settings.MEDIA_ROOT) / "letters")


@transaction.atomic
def batch_request(*, jurisdiction, as_of: dt.date, user) -> tuple[NoticeBatch, bool]:
    """The batch for `jurisdiction` on `as_of`, asked for now or before: (batch, whether this call queued it).
    Refused (powts.core.refusals.Refused) when the county's letters lack a return address."""
    sender_for(jurisdiction)
    existing = NoticeBatch.objects.select_for_update().filter(jurisdiction=jurisdiction, as_of=as_of).first()
    if existing is not None and not (existing.status == BatchStatus.FAILED or stalled(existing)):
        return existing, False
    now = timezone.now()
    if existing is None:
        try:
            with transaction.atomic():
                batch = NoticeBatch.objects.create(jurisdiction=jurisdiction, as_of=as_of, requested_by=user, requested_at=now,
                                                   step="waiting to start")
        except IntegrityError:  # asked for at the same moment by someone else: theirs
            return NoticeBatch.objects.get(jurisdiction=jurisdiction, as_of=as_of), False
        audit_create(batch, action=f"notice batch for {as_of} asked for")
    else:  # stopped by an error, or its process died: asked for again (same label: its recorded notices are printed again)
        batch = existing
        before = snapshot(batch, ["status", "error", "requested_by_id"])
        batch.status, batch.step, batch.error, batch.done, batch.requested_by, batch.requested_at = (
            BatchStatus.QUEUED, "waiting to start", "", 0, user, now)
        batch.save()
        audit_update(batch, before=before, action=f"notice batch for {as_of} asked for again")
    # A background job (powts.jobs) runs it once the batch is committed: a killed worker's batch is taken back
    # by the jobs' stale check; a queue that cannot be reached leaves it waiting and says so (QueueUnavailable).
    transaction.on_commit(lambda: queue_batch(batch))
    return batch, True


def queue_batch(batch: NoticeBatch):
    from powts.jobs.services import job_start

    return job_start(kind="maintenance.notice_batch", title=f"Notice batch for {batch.as_of:%B %-d, %Y}",
                     jurisdiction=batch.jurisdiction, user=batch.requested_by, params={"batch_id": batch.pk},
                     key=f"notice-batch:{batch.pk}:{batch.requested_at.isoformat()}")


def batch_run(batch_id: int) -> None:
    """The background job: records, prints and e-mails the batch, writing its progress as it goes."""
    from powts.audit.choices import Channel
    from powts.audit.context import acting

    now = timezone.now()
    claimed = NoticeBatch.objects.filter(pk=batch_id, status=BatchStatus.QUEUED).update(
        status=BatchStatus.RUNNING, started_at=now, heard_at=now, step="recording the notices")
    if not claimed:  # already running or done (a task delivered twice): nothing to do
        return
    batch = NoticeBatch.objects.select_related("jurisdiction", "requested_by").get(pk=batch_id)
    if not batch.batch:  # the label goes on the row first, so a retry finds the notices this run records
        batch.batch = f"{batch.jurisdiction.slug}-{batch.as_of.isoformat()}-{uuid.uuid4().hex[:6]}"
        NoticeBatch.objects.filter(pk=batch_id).update(batch=batch.batch)

    def progress(step: str, done: int, total: int) -> None:
        fields = {"step": step, "heard_at": timezone.now()}
        if step == "printing":
            fields.update(done=done, total=total)
        NoticeBatch.objects.filter(pk=batch_id).update(**fields)

    try:
        with acting(actor=batch.requested_by, channel=Channel.JOB, actor_label="notice batch"):
            result = notices_send(jurisdiction=batch.jurisdiction, as_of=batch.as_of, output_dir=letters_dir(), progress=progress,
                                  batch=batch.batch)
    except Exception as exc:  # the job stops; the page says so and the batch may be asked for again
        log.exception("notice batch %s failed", batch_id)
        NoticeBatch.objects.filter(pk=batch_id).update(status=BatchStatus.FAILED, finished_at=timezone.now(), step="",
                                                       error=_failure_text(exc)[:300])
        return
    NoticeBatch.objects.filter(pk=batch_id).update(
        status=BatchStatus.DONE, finished_at=timezone.now(), step="", total=result.total, done=result.total, counts=result.counts,
        held=len(result.held), emailed=result.emailed, email_failed=result.email_failed, batch=result.batch,
        merged_path=str(result.merged_file or ""))


def _failure_text(exc: Exception) -> str:
    """Why a batch stopped, in plain words for its page: a refusal as it reads, a file or disk error by its
    cause (never its path), anything else as unexpected (the log has the details)."""
    from powts.core.refusals import Refused, refused_text

    if isinstance(exc, Refused):
        return refused_text(exc)
    if isinstance(exc, OSError):
        cause = exc.strerror or (str(exc.args[0]) if exc.args else "a file error")
        return f"the letters could not be written ({cause})"
    return "an unexpected error (the administrator's log has the details)"
