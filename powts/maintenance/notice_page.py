"""The notices page at any size: the next batch counted in the database, and only the letters shown read.

`notices.preview` decides each due row's next notice in Python (`notices.next_notice`): the send needs
every letter, so it is the background job's work. The page needs counts and one page of letters, so the
same decision is written here as one SQL condition per notice kind, from the county's profile:

- a first notice: no notice yet for this due date, notice date reached, due date not yet;
- escalation step k: the last notice sent is step k-1 (any other for step 0), the step's days after the
  due date passed, and the days after the previous notice passed.

Each kind is counted by one grouped query over the (jurisdiction, stage, notice_on, due_on) index, grouped
by mailing address, so owners held back for an unusable address (`addresses.problem`, a function of the
address text alone) are counted exactly without reading each letter. The page's list reads only its
rows (LIMIT/OFFSET), kind by kind, earliest notice date first. `test_notice_page.py` checks the counts and rows against
`notices.preview` on both sides of every date the sequence has.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import BooleanField, Count, DateField, Exists, ExpressionWrapper, F, Func, OuterRef, Q
from django.db.models.lookups import LessThanOrEqual

from powts.kernel.cited import for_the_public
from powts.maintenance import addresses
from powts.maintenance.choices import NoticeKind
from powts.maintenance.models import Notice, Schedule
from powts.maintenance.notices import PLAN_FIELDS, Planned
from powts.maintenance.services import profile_for

RETIRED = ("abandoned", "replaced")  # as notices.plan: no letter for a system no longer in use
OWNER = "system__parcel__owner_id"
ADDRESS = "system__parcel__owner__mailing_address"


def conditions(profile, as_of: dt.date) -> list[tuple[str, str, Q]]:
    """(kind, citation, condition on Schedule) for each notice the profile's sequence can send on `as_of`;
    the conditions do not overlap (each names the stage the row is at)."""
    base = Q(exempt=False, due_on__isnull=False, notice_on__lte=as_of)
    out = [(NoticeKind.FIRST_NOTICE.value, profile.citations["lead_time"], base & Q(stage="", due_on__gt=as_of))]
    kinds = [s.kind for s in profile.steps]
    others = [k for k in [""] + list(NoticeKind.values) if k not in kinds]  # before the first step: "", a first notice
    for k, step in enumerate(profile.steps):
        at = Q(stage__in=others) if k == 0 else Q(stage=kinds[k - 1])
        waited = Q(stage_on__isnull=True) | Q(stage=NoticeKind.FIRST_NOTICE) | Q(
            stage_on__lte=as_of - dt.timedelta(days=step.days_after_previous))
        out.append((step.kind, step.citation,
                    base & at & Q(LessThanOrEqual(_due_on(), as_of - dt.timedelta(days=step.days_after_due))) & waited))
    return out


def _due_on():
    """The due date as a later step compares it. On SQLite it is written `+due_on`, which no index answers: with
    statistics SQLite otherwise read every schedule due by the day through the due-date index (690 ms at
    1,000,000 systems, most of them long past and already at a later stage) instead of the few at the step's
    stage with a notice date by the day through the stage index (4 ms)."""
    if connection.vendor == "sqlite":
        return Func(F("due_on"), template="+%(expressions)s", output_field=DateField())
    return F("due_on")


def _due(jurisdiction, condition: Q, kind: str):
    sent = Notice.objects.filter(system_id=OuterRef("system_id"), kind=kind, due_on=OuterRef("due_on"))
    return (Schedule.objects.filter(condition, jurisdiction_id=jurisdiction.pk)
            .exclude(system__status__in=RETIRED).exclude(Exists(sent)))


@dataclass
class PageSummary:
    """What the page says of the batch on `as_of`: letters by kind and the owners held back, counted."""

    as_of: dt.date
    paused: bool = False
    counts: dict = field(default_factory=dict)  # kind -> letters to mail (kinds with none left out)
    held_by_kind: dict = field(default_factory=dict)
    unusable: set = field(default_factory=set)  # the mailing addresses (text) that hold a letter back
    _conditions: list = field(default_factory=list, repr=False)

    @property
    def counted(self) -> list[tuple[str, str, int]]:
        return [(k, label, self.counts.get(k, 0)) for k, label in NoticeKind.choices]

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def held_total(self) -> int:
        return sum(self.held_by_kind.values())

    def held_q(self) -> Q:
        return Q(**{f"{OWNER}__isnull": True}) | Q(**{f"{ADDRESS}__in": sorted(self.unusable)})


def summary(*, jurisdiction, as_of: dt.date) -> PageSummary:
    profile = profile_for(jurisdiction)
    out = PageSummary(as_of=as_of)
    if profile.paused(as_of):
        out.paused = True
        return out
    out._conditions = conditions(profile, as_of)
    problems: dict[str, str] = {}
    for kind, _cite, condition in out._conditions:  # one grouped query per kind
        no_owner = ExpressionWrapper(Q(**{f"{OWNER}__isnull": True}), output_field=BooleanField())
        for no_owner, address, n in (_due(jurisdiction, condition, kind).annotate(no_owner=no_owner).values("no_owner", ADDRESS)
                                     .annotate(n=Count("pk")).values_list("no_owner", ADDRESS, "n")):
            if no_owner:
                out.held_by_kind[kind] = out.held_by_kind.get(kind, 0) + n
                continue
            address = address or ""
            if address not in problems:
                problems[address] = addresses.problem(address)
            if problems[address]:
                out.unusable.add(address)
                out.held_by_kind[kind] = out.held_by_kind.get(kind, 0) + n
            else:
                out.counts[kind] = out.counts.get(kind, 0) + n
    return out


class Letters:
    """The letters (or, with `held`, the owners held back) as a sequence a Paginator can page: its length
    is the summary's count, and a slice reads only those rows."""

    def __init__(self, *, jurisdiction, found: PageSummary, held: bool = False):
        self.jurisdiction, self.found, self.held = jurisdiction, found, held
        self.count = found.held_total if held else found.total
        self._cites: dict[str, str] = {}

    def __len__(self) -> int:
        return self.count

    def _rows(self, kind: str, condition: Q):
        rows = _due(self.jurisdiction, condition, kind)
        held = self.found.held_q()
        rows = rows.filter(held) if self.held else rows.exclude(held).filter(**{f"{OWNER}__isnull": False})
        return rows.order_by("notice_on", "due_on", "pk").values_list(*PLAN_FIELDS)  # the stage index's order: no sort

    def __getitem__(self, index):
        """Kind by kind in the sequence's order (each kind's count is known), each kind's rows earliest due first:
        a slice reads only the kinds it spans, each with its own LIMIT/OFFSET over the stage index."""
        if not isinstance(index, slice):
            return self[index:index + 1][0]
        first, stop, _ = index.indices(self.count)
        out, skipped = [], 0
        counts = self.found.held_by_kind if self.held else self.found.counts
        for kind, cite, condition in self.found._conditions:
            n = counts.get(kind, 0)
            if not n or skipped + n <= first:
                skipped += n
                continue
            if skipped >= stop:
                break
            if kind not in self._cites:
                self._cites[kind] = for_the_public(cite)[:300]
            for values in self._rows(kind, condition)[max(0, first - skipped):stop - skipped]:
                item = Planned(*values)
                item.kind, item.citation = kind, self._cites[kind]
                out.append(item)
            skipped += n
        return out
