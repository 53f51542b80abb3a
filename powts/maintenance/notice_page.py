"""The notices page at any size: the next batch counted in the database, and only the letters shown read.

`notices.preview` decides each due row's next notice in Python (`notices.next_notice`): the send needs
every letter, so it is the background job's work. The page needs counts and one page of letters, so the
same decision is written here as one SQL condition per notice kind, from the county's profile:

- a first notice: no notice yet for this due date, notice date reached, due date not yet;
- escalation step k: the last notice sent is step k-1 (any other for step 0), the step's days after the
  due date passed, and the days after the previous notice passed.

Each kind is counted over the notices index (maint_sched_notices), the kinds in one statement; the index holds every
column the kinds filter on and the schedule's kept flags (powts.maintenance.notice_flags): `retired` (no letter
for a system no longer in use) and `held` (no owner of record, or an address `addresses.problem` refuses). So
a month's letters are counted from the index alone. The stage is the last letter sent for the schedule's due
date, also when a due date comes back to one already noticed (powts.maintenance.stages), so the letters on file
need no probe here; the send still checks them before it records a letter. Letters whose owner's address has not been
checked since it was written (`held` empty: an edit since the last sync) are grouped by mailing address and
checked here, as before the flags. The page's list reads only its rows (LIMIT/OFFSET), kind by kind, earliest
notice date first. `test_notice_page.py` checks the counts and rows against `notices.preview` on both sides of
every date the sequence has; `test_notice_flags.py` the flags against the source tables after each writer.
"""
from __future__ import annotations

import datetime as dt
from contextlib import nullcontext
from dataclasses import dataclass, field

from django.db import connection, connections, transaction
from django.db.models import BooleanField, Count, DateField, ExpressionWrapper, F, Func, Q
from django.db.models.lookups import LessThanOrEqual

from powts.core import server_prepared
from powts.kernel.cited import for_the_public
from powts.maintenance import addresses
from powts.maintenance.choices import NoticeKind
from powts.maintenance.models import Schedule
from powts.maintenance.notices import PLAN_FIELDS, Planned
from powts.maintenance.services import profile_for

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


def _due(jurisdiction, condition: Q):
    return Schedule.objects.filter(condition, jurisdiction_id=jurisdiction.pk, retired=False)


@dataclass
class PageSummary:
    """What the page says of the batch on `as_of`: letters by kind and the owners held back, counted."""

    as_of: dt.date
    paused: bool = False
    counts: dict = field(default_factory=dict)  # kind -> letters to mail (kinds with none left out)
    held_by_kind: dict = field(default_factory=dict)
    unchecked: set = field(default_factory=set)  # kinds with letters whose owner's address is not checked yet
    unusable: set = field(default_factory=set)  # of those letters, the mailing addresses (text) that hold one back
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
        """Of the letters not checked yet: those held back (no owner, or an address found unusable)."""
        return Q(**{f"{OWNER}__isnull": True}) | Q(**{f"{ADDRESS}__in": sorted(self.unusable)})


def _add(counts: dict, kind: str, n: int) -> None:
    counts[kind] = counts.get(kind, 0) + n


def _union_all(querysets: list, select: str, using: str) -> tuple[str, list]:
    """One statement of several querysets: `select` over each (its `{k}` the part's number, its `{sql}` the
    queryset's compiled SQL), joined with UNION ALL, and their values in order."""
    parts, params = [], []
    for k, queryset in enumerate(querysets):
        sql, values = queryset.query.get_compiler(using=using).as_sql()
        parts.append(select.format(k=k, sql=sql))
        params += values
    return " UNION ALL ".join(parts), params


def count_statement(jurisdiction, kinds: list, using: str) -> tuple[str, list]:
    """One statement counting each kind's letters, held back and not checked yet: a count per kind over the
    notices index, joined with UNION ALL (one round trip and one compiled statement, where there were five).
    Counted side by side, not grouped: SQLite's GROUP BY sorts every row read (about a third of the query)."""
    return _union_all([_due(jurisdiction, condition).values("held") for _kind, _cite, condition in kinds],
                      "SELECT {k} AS k, COUNT(*), COALESCE(SUM(CASE WHEN held THEN 1 ELSE 0 END), 0), "
                      "COALESCE(SUM(CASE WHEN held IS NULL THEN 1 ELSE 0 END), 0) FROM ({sql}) AS kind{k}", using)


def _counted(jurisdiction, kinds: list) -> list[tuple[int, int, int]]:
    """(letters, held back, not checked yet) of each kind."""
    using = Schedule.objects.db
    sql, params = count_statement(jurisdiction, kinds, using)
    connection = connections[using]
    on_postgresql = connection.vendor == "postgresql"
    with transaction.atomic(using=using) if on_postgresql else nullcontext():
        if on_postgresql:
            with connection.cursor() as cursor:  # for this statement only (SET LOCAL)
                # Planned once per connection, not at every view: the plan is the same index-only scan for any
                # day (only the dates change), and planning the five took 4.6 ms, more than running today's.
                cursor.execute("SET LOCAL plan_cache_mode = force_generic_plan")
                # PostgreSQL reads the five counts side by side in worker processes if let. Each is a small
                # index-only scan: on two cores the workers cost more than they saved (today's counts at
                # 1,000,000 systems, 15 ms in parallel, 9 ms one after another).
                cursor.execute("SET LOCAL max_parallel_workers_per_gather = 0")
        with server_prepared.cursor(using) as cursor:
            cursor.execute(sql, params)
            found = {row[0]: row[1:] for row in cursor.fetchall()}
    return [found[k] for k in range(len(kinds))]


def summary(*, jurisdiction, as_of: dt.date) -> PageSummary:
    profile = profile_for(jurisdiction)
    out = PageSummary(as_of=as_of)
    if profile.paused(as_of):
        out.paused = True
        return out
    out._conditions = conditions(profile, as_of)
    problems: dict[str, str] = {}
    for (kind, _cite, condition), (due, held_back, not_checked) in zip(out._conditions, _counted(jurisdiction, out._conditions)):
        ready = due - held_back - not_checked
        if held_back:
            _add(out.held_by_kind, kind, held_back)
        if ready:
            _add(out.counts, kind, ready)
        if not not_checked:
            continue
        out.unchecked.add(kind)
        rows = _due(jurisdiction, condition)
        # letters whose owner's address was written since its check: grouped by address, checked here
        no_owner = ExpressionWrapper(Q(**{f"{OWNER}__isnull": True}), output_field=BooleanField())
        for no_owner, address, n in (rows.filter(held__isnull=True).annotate(no_owner=no_owner).values("no_owner", ADDRESS)
                                     .annotate(n=Count("pk")).values_list("no_owner", ADDRESS, "n")):
            if no_owner:
                _add(out.held_by_kind, kind, n)
                continue
            address = address or ""
            if address not in problems:
                problems[address] = addresses.problem(address)
            if problems[address]:
                out.unusable.add(address)
                _add(out.held_by_kind, kind, n)
            else:
                _add(out.counts, kind, n)
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
        rows = _due(self.jurisdiction, condition)
        wanted = Q(held=self.held)
        if kind in self.found.unchecked:  # and those of its letters not checked yet, as the summary found them
            unchecked, held = rows.filter(held__isnull=True), self.found.held_q()
            unchecked = unchecked.filter(held) if self.held else unchecked.exclude(held).filter(**{f"{OWNER}__isnull": False})
            wanted |= Q(pk__in=unchecked.values("pk"))
        # the notices index's order (system is the schedule's key): no sort
        return rows.filter(wanted).order_by("notice_on", "due_on", "pk")

    def _ids(self, spans: list) -> list[tuple[int, int]]:
        """(span, id) of each span's rows (kind, condition, low, high), from the notices index alone (walking past the
        rows skipped, or, for the owners held back, past the letters between them: a day's few held among 100,000
        at the kind's stage took 600 ms read with their systems and owners), each span in its kind's order. A page
        spanning several kinds (the held list often does: a few owners of each) asks for them in one statement."""
        if len(spans) == 1:
            kind, condition, low, high = spans[0]
            return [(0, pk) for pk in self._rows(kind, condition).values_list("pk", flat=True)[low:high]]
        using = Schedule.objects.db
        sql, params = _union_all([self._rows(kind, condition).values_list("pk", "notice_on", "due_on")[low:high]
                                  for kind, condition, low, high in spans], "SELECT {k} AS k, span{k}.* FROM ({sql}) AS span{k}", using)
        with connections[using].cursor() as cursor:
            cursor.execute(sql, params)
            found = cursor.fetchall()
        # in each kind's order again: a union keeps no order (PostgreSQL may read its parts side by side)
        found.sort(key=lambda row: (row[0], row[2], row[3], row[1]))
        return [(row[0], row[1]) for row in found]

    def __getitem__(self, index):
        """Kind by kind in the sequence's order (each kind's count is known), each kind's rows earliest due first:
        a slice reads only the kinds it spans, each with its own LIMIT/OFFSET over the notices index, then only
        those rows whole."""
        if not isinstance(index, slice):
            return self[index:index + 1][0]
        first, stop, _ = index.indices(self.count)
        spans, skipped = [], 0
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
            spans.append((kind, condition, max(0, first - skipped), min(stop - skipped, n)))
            skipped += n
        if not spans:
            return []
        ids = self._ids(spans)
        rows = {v[0]: v for v in Schedule.objects.filter(pk__in=[pk for _span, pk in ids]).values_list(*PLAN_FIELDS)}
        out = []
        for span, pk in ids:
            if pk not in rows:  # deleted since its id was read
                continue
            kind = spans[span][0]
            item = Planned(*rows[pk])
            item.kind, item.citation = kind, self._cites[kind]
            out.append(item)
        return out
