"""The permit program's daily sweeps as background jobs (powts.jobs; times in settings.POWTS_SWEEPS).
Each is safe to run twice: a permit expires once, an order turns overdue once."""
import datetime as dt

from django.utils import timezone

from powts.audit.choices import Channel
from powts.audit.context import acting


def _today(job):
    return dt.date.fromisoformat(job.params["today"]) if job.params.get("today") else timezone.localdate()


def expire(job, progress) -> dict:
    from powts.permits import services

    with acting(channel=Channel.JOB, actor_label="daily sweep: permits expire"):
        expired = services.permits_expire(today=_today(job))
    return {"counts": {"permits expired": len(expired)}, "changed": [p.number for p in expired][:200]}


def orders_overdue(job, progress) -> dict:
    from powts.permits.services import enforcement

    with acting(channel=Channel.JOB, actor_label="daily sweep: correction orders overdue"):
        overdue = enforcement.correction_orders_mark_overdue(today=_today(job))
    return {"counts": {"correction orders now overdue": overdue}}


def register() -> None:
    from powts.jobs import kinds

    kinds.register("sweep.permits_expire", expire)
    kinds.register("sweep.permits_orders_overdue", orders_overdue)
