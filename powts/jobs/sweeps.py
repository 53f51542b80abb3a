"""The daily sweeps: each named in settings.POWTS_SWEEPS with its local time runs once a day, as a job
(its page and its result say what it changed). The clock ticks every minute on every worker; the job's
key (sweep, day) lets only one of them start it, and a worker that was down at that minute starts it
when it is back."""
from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.utils import timezone

from powts.jobs import kinds
from powts.jobs.errors import QueueUnavailable
from powts.jobs.models import Job
from powts.jobs.services import job_start

TITLES = {
    "permits_expire": "Daily sweep: permits past their expiry date",
    "permits_orders_overdue": "Daily sweep: correction orders past due",
    "schedule_sync": "Daily sweep: maintenance schedules in step with the inventory",
    "notices_due": "Daily sweep: notices due",
    "map_cells": "Daily sweep: map clusters counted again",
    "database_statistics": "Daily sweep: the database's statistics measured",
}


def _at(text: str) -> dt.time:
    hours, minutes = text.split(":")
    return dt.time(int(hours), int(minutes))


def sweep_clock(now: dt.datetime | None = None) -> list[Job]:
    """Start every sweep whose time has come today and that has not run today; returns the jobs started."""
    now = timezone.localtime(now or timezone.now())
    started = []
    for name, at in settings.POWTS_SWEEPS.items():
        if now.time() < _at(at):
            continue
        key = f"sweep:{name}:{now.date().isoformat()}"
        if Job.objects.filter(key=key).exists():
            continue
        kinds.get(f"sweep.{name}")  # a sweep named in settings that no app runs is a configuration mistake
        try:
            started.append(job_start(kind=f"sweep.{name}", title=f"{TITLES.get(name, 'Daily sweep: ' + name)}, "
                                     f"{now.date():%B %-d, %Y}", params={"today": now.date().isoformat()}, key=key))
        except QueueUnavailable:
            started.append(Job.objects.get(key=key))  # recorded, waiting: a worker takes it when the queue is back
    return started
