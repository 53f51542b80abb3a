"""The notice stage a due date has reached, read from the letters already sent for it.

A schedule's `stage` is the last notice of the maintenance sequence sent for its current due date, and a new
due date starts the sequence again (services._apply). But a due date can come back to one the owner was
already sent letters for: a report recorded and then withdrawn, an installation date corrected and corrected
back. Its stage is then the one those letters reached, not "": so no letter of the sequence is sent twice for
one due date, and the notices page counts each kind from the stage alone, without probing the letters on file
once per schedule (at 1,000,000 systems with years of letters, that probe was most of the page's time).
"""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable

from django.db.models import Exists, OuterRef

from powts.core.prepared import Prepared
from powts.maintenance.choices import STAGE_ORDER
from powts.maintenance.models import Notice, Schedule

FIELDS = ("system_id", "due_on", "stage", "stage_on", "delinquent")
RANK = {kind.value: k for k, kind in enumerate(STAGE_ORDER)}  # the holding tank's own letter is not a stage


def reached(letters: Iterable[tuple[str, dt.date]], delinquent_kinds) -> tuple[str, dt.date | None, bool]:
    """(stage, stage_on, delinquent) for one due date whose letters sent are `letters` [(kind, as_of)]: the
    latest step of the sequence sent, the day it was sent, and whether a letter that marks the owner
    delinquent went out. ("", None, False) when none was."""
    best = None
    delinquent = False
    for kind, on in letters:
        delinquent = delinquent or kind in delinquent_kinds
        if kind in RANK and (best is None or (RANK[kind], on) > (RANK[best[0]], best[1])):
            best = (kind, on)
    return (best[0], best[1], delinquent) if best else ("", None, delinquent)


# The arguments in the order Django writes the conditions (by name: due_on, system_id), as Prepared needs.
_letters_for_due = Prepared(lambda due_on, pk: Notice.objects.filter(due_on=due_on, system_id=pk).order_by()
                            .values_list("kind", "as_of"))


def restore_one(row, delinquent_kinds) -> None:
    """A schedule whose due date just changed: its stage from the letters sent for the new date (one indexed
    read, compiled once: this runs on every report that moves a due date)."""
    if row.due_on is not None:
        row.stage, row.stage_on, row.delinquent = reached(_letters_for_due(row.due_on, row.system_id), delinquent_kinds)


def restore(rows: list, delinquent_kinds, chunk: int = 5000) -> None:
    """The same for many schedules whose due dates changed (a sync, a migration): one read per chunk of
    schedules."""
    rows = [r for r in rows if r.due_on is not None]
    for start in range(0, len(rows), chunk):
        wanted = {(r.system_id, r.due_on): r for r in rows[start:start + chunk]}
        found = defaultdict(list)
        for sid, due, kind, on in (Notice.objects.filter(system_id__in=[k[0] for k in wanted],
                                                         due_on__in={k[1] for k in wanted}).order_by()
                                   .values_list("system_id", "due_on", "kind", "as_of")):
            if (sid, due) in wanted:
                found[(sid, due)].append((kind, on))
        for key, letters in found.items():
            row = wanted[key]
            row.stage, row.stage_on, row.delinquent = reached(letters, delinquent_kinds)


def repair(jurisdiction_id: int, delinquent_kinds, chunk: int = 5000) -> int:
    """Schedules whose stage lags behind the letters sent for their due date (due dates that came back before
    stages were restored) brought up to those letters; never lowered. Returns how many moved. One pass over the
    schedules that have any letter for their due date."""
    sent = Notice.objects.filter(system_id=OuterRef("system_id"), due_on=OuterRef("due_on"), kind__in=list(RANK))
    ids = list(Schedule.objects.filter(Exists(sent), jurisdiction_id=jurisdiction_id).order_by("pk").values_list("pk", flat=True))
    moved = 0
    for start in range(0, len(ids), chunk):
        rows = list(Schedule.objects.filter(pk__in=ids[start:start + chunk]).only(*FIELDS))  # only: run by a migration
        was = {r.pk: (r.stage, r.delinquent) for r in rows}
        restore(rows, delinquent_kinds, chunk=chunk)
        lagging = []  # only these are written: the others keep their stage
        for r in rows:
            stage, delinquent = was[r.pk]
            if RANK.get(r.stage, -1) > RANK.get(stage, -1):
                r.delinquent = r.delinquent or delinquent
                lagging.append(r)
        Schedule.objects.bulk_update(lagging, ["stage", "stage_on", "delinquent"], batch_size=1000)
        moved += len(lagging)
    return moved
