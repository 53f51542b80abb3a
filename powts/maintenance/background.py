"""The maintenance program's daily sweeps as background jobs (powts.jobs; times in settings.POWTS_SWEEPS):
schedules brought in step with the inventory, and each county's notices due counted (read-only: mailing
stays a person's decision on the notices page)."""
import datetime as dt

from django.utils import timezone

from powts.audit.choices import Channel
from powts.audit.context import acting


def _counties():
    from powts.jurisdictions.models import Jurisdiction

    return list(Jurisdiction.objects.order_by("name"))


def schedule_sync(job, progress) -> dict:
    from powts.inventory.models import System
    from powts.maintenance import standing_counts
    from powts.maintenance.services import schedule_sync as sync

    created = updated = 0
    counties = [u for u in _counties() if System.objects.filter(jurisdiction=u).exists()]
    with acting(channel=Channel.JOB, actor_label="daily sweep: maintenance schedules"):
        for n, unit in enumerate(counties, 1):
            done = sync(jurisdiction=unit)
            created, updated = created + done["created"], updated + done["updated"]
            progress(done=n, total=len(counties), step=f"schedules of {unit.name}")
    standing_counts.compact()  # the day's large changes leave the kept counts spread thin (PostgreSQL)
    return {"counts": {"counties": len(counties), "schedules created": created, "schedules updated": updated}}


def notices_due(job, progress) -> dict:
    from powts.maintenance.selectors import due_list

    as_of = dt.date.fromisoformat(job.params["today"]) if job.params.get("today") else timezone.localdate()
    per_county = {}
    for unit in _counties():
        rows = due_list(jurisdiction=unit, as_of=as_of)
        if rows:
            per_county[unit.name] = len(rows)
    return {"counts": {"notices due": sum(per_county.values()), "counties with notices due": len(per_county)},
            "per_county": per_county}


def notice_batch(job, progress) -> dict:
    """A notice batch asked for on the notices page (powts.maintenance.batches): the job owns its state;
    run again after a killed worker, the notices already recorded stay recorded and the rest are sent."""
    from powts.maintenance.batches import batch_run

    return batch_run(job, progress)


def register() -> None:
    from powts.jobs import kinds

    kinds.register("maintenance.notice_batch", notice_batch)
    kinds.register("sweep.schedule_sync", schedule_sync)
    kinds.register("sweep.notices_due", notices_due)
