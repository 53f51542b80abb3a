"""Inspection notice rules and deadlines, read from a profile's `inspections.yaml`.

`review_request` says whether a plumber's notice allows the inspection day asked for; when it does
not, the decision names the earliest allowed day, why, and the citation. `deadline` computes a
named deadline (`inspection`, `backfill`, `reinspection_fee`, ...) on the county's working days.
County differences are the rules in the data; nothing here knows which county it serves.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

from powts.kernel.profiles import ProfileError, resolve, profile_cached

from .errors import CalendarError
from .loading import calendar_for
from .workdays import WorkdayCalendar

NOTICE_KINDS = ("same_day_cutoff", "lead_hours", "lead_working_days")


@dataclass(frozen=True)
class NoticeRule:
    id: str
    applies_to: frozenset[str]
    kind: str            # one of NOTICE_KINDS
    value: object        # dt.time, or a number of hours / working days
    on_late: str         # "refuse" or "fee"
    citation: str
    quote: str = ""

    def applies(self, system: str) -> bool:
        return "*" in self.applies_to or system in self.applies_to


@dataclass(frozen=True)
class DeadlineRule:
    name: str
    working_days: int
    start: str           # "notice" or "requested_day"
    citation: str
    quote: str = ""
    not_before_requested: bool = False
    outside_texts: bool = False


@dataclass(frozen=True)
class Stage:
    """One inspection a system type needs (e.g. a mound's "plowed", "distribution_piping")."""
    id: str
    when: str
    citation: str
    quote: str = ""
    optional: bool = False


@dataclass(frozen=True)
class InspectionRules:
    jurisdiction: str
    system_types: tuple[str, ...]
    notice_rules: tuple[NoticeRule, ...]
    deadlines: dict
    stages: dict  # system type or "*" -> tuple[Stage, ...]


@dataclass(frozen=True)
class Finding:
    """One notice rule's verdict on a request."""
    rule_id: str
    ok: bool
    earliest_day: dt.date
    message: str
    citation: str
    consequence: str = ""   # "refuse" or "fee" when not ok


@dataclass(frozen=True)
class InspectionDecision:
    """The verdict on a notice: allowed or not, the earliest allowed day, fees, and why."""
    notice: dt.datetime
    system: str
    requested_day: dt.date
    earliest_day: dt.date
    not_before: dt.datetime | None
    findings: tuple[Finding, ...] = field(default_factory=tuple)

    @property
    def allowed(self) -> bool:
        return not self.refusals

    @property
    def refusals(self) -> list[Finding]:
        return [f for f in self.findings if not f.ok and f.consequence == "refuse"]

    @property
    def fees(self) -> list[Finding]:
        return [f for f in self.findings if not f.ok and f.consequence == "fee"]

    def explain(self) -> str:
        lines = [f"{'allowed' if self.allowed else 'not allowed'}: inspection of a {self.system} "
                 f"system on {self.requested_day.isoformat()} ({self.requested_day:%A}), "
                 f"notice {self.notice:%Y-%m-%d %H:%M} {self.notice.tzname() or ''}".rstrip()]
        lines += [f"  {f.message} [{f.citation}]" for f in self.findings]
        return "\n".join(lines)


@dataclass(frozen=True)
class Deadline:
    name: str
    day: dt.date
    citation: str
    explanation: str


# -- loading -------------------------------------------------------------------------------

def _parse_time(value, where: str) -> dt.time:
    try:
        return value if isinstance(value, dt.time) else dt.time.fromisoformat(str(value))
    except ValueError:
        raise CalendarError(f"{where}: same_day_cutoff {value!r} is not a time HH:MM") from None


def _notice_rule(entry: dict, where: str) -> NoticeRule:
    rid = entry.get("id") or where
    if not entry.get("citation"):
        raise CalendarError(f"{where}: notice rule {rid!r} has no citation")
    kinds = [k for k in NOTICE_KINDS if k in entry]
    if len(kinds) != 1:
        raise CalendarError(f"{where}: notice rule {rid!r} needs exactly one of {', '.join(NOTICE_KINDS)}")
    kind = kinds[0]
    value = _parse_time(entry[kind], where) if kind == "same_day_cutoff" else entry[kind]
    if kind != "same_day_cutoff" and (not isinstance(value, int) or value < 0):
        raise CalendarError(f"{where}: notice rule {rid!r}: {kind} must be a whole number >= 0")
    on_late = entry.get("on_late", "refuse")
    if on_late not in ("refuse", "fee"):
        raise CalendarError(f"{where}: notice rule {rid!r}: on_late must be 'refuse' or 'fee'")
    return NoticeRule(id=rid, applies_to=frozenset(entry.get("applies_to") or ["*"]), kind=kind,
                      value=value, on_late=on_late, citation=entry["citation"], quote=entry.get("quote", ""))


def _deadline_rule(name: str, entry: dict, where: str) -> DeadlineRule:
    if not isinstance(entry, dict) or not entry.get("citation"):
        raise CalendarError(f"{where}: deadline {name!r} has no citation")
    n = entry.get("working_days")
    if not isinstance(n, int):
        raise CalendarError(f"{where}: deadline {name!r}: working_days must be a whole number")
    start = entry.get("from", "requested_day")
    if start not in ("notice", "requested_day"):
        raise CalendarError(f"{where}: deadline {name!r}: from must be 'notice' or 'requested_day'")
    return DeadlineRule(name=name, working_days=n, start=start, citation=entry["citation"],
                        quote=entry.get("quote", ""),
                        not_before_requested=entry.get("not_before") == "requested_day",
                        outside_texts=bool(entry.get("outside_texts")))


def _resolved(slug: str) -> dict:
    """The county's inspections.yaml by the kernel's one rule of layers (`notice_rules+` matches the
    state's rules by id; a cited deadline or a system type's stage list replaces the state's)."""
    try:
        return resolve(slug, "inspections")[0]
    except ProfileError as exc:
        raise CalendarError(str(exc)) from None


@profile_cached
def inspection_rules_for(slug: str) -> InspectionRules:
    """The inspection rules of jurisdiction `slug`, with the state's rules when it `extends` them."""
    data = _resolved(slug)
    where = f"profiles/{slug}/inspections.yaml"
    return InspectionRules(
        jurisdiction=slug,
        system_types=tuple(data.get("system_types") or ["standard"]),
        notice_rules=tuple(_notice_rule(r, f"{where} notice rule #{i + 1}")
                           for i, r in enumerate(data.get("notice_rules") or [])),
        deadlines={name: _deadline_rule(name, e, where) for name, e in (data.get("deadlines") or {}).items()},
        stages={system: tuple(_stage(e, f"{where} stages[{system}] #{i + 1}") for i, e in enumerate(entries or []))
                for system, entries in (data.get("stages") or {}).items()},
    )


def _stage(entry: dict, where: str) -> Stage:
    if not isinstance(entry, dict) or not entry.get("id") or not entry.get("citation"):
        raise CalendarError(f"{where}: a stage needs an id and a citation")
    return Stage(id=entry["id"], when=entry.get("when", ""), citation=entry["citation"],
                 quote=entry.get("quote", ""), optional=bool(entry.get("optional")))


def required_stages(slug: str, system: str) -> tuple[Stage, ...]:
    """The inspections a `system` type needs in jurisdiction `slug`, in order, each cited."""
    rules = inspection_rules_for(slug)
    if system not in rules.system_types:
        raise CalendarError(f"unknown system type {system!r}; known: {', '.join(rules.system_types)}")
    return rules.stages.get(system) or rules.stages.get("*") or ()


# -- decisions -----------------------------------------------------------------------------

def local(moment: dt.datetime, timezone: str = "America/Chicago") -> dt.datetime:
    """`moment` in local time; a naive datetime is taken to be local already."""
    tz = ZoneInfo(timezone)
    return moment.replace(tzinfo=tz) if moment.tzinfo is None else moment.astimezone(tz)


def _day(d: dt.date) -> str:
    return f"{d:%A} {d.isoformat()}"


def _check(rule: NoticeRule, notice: dt.datetime, requested: dt.date | None,
           cal: WorkdayCalendar) -> tuple[Finding, dt.datetime | None]:
    """One rule's earliest allowed day for this notice, and whether `requested` meets it."""
    not_before = None
    if rule.kind == "same_day_cutoff":
        cutoff: dt.time = rule.value
        on_time = notice.time().replace(tzinfo=None) <= cutoff
        earliest = notice.date() if on_time else notice.date() + dt.timedelta(days=1)
        why = (f"notice must be given by {cutoff:%H:%M} of the day the system will be ready; "
               f"notice came {notice:%A %Y-%m-%d %H:%M}")
    elif rule.kind == "lead_hours":
        # elapsed hours, so a lead across a daylight-saving change stays 24 real hours
        not_before = (notice.astimezone(dt.UTC) + dt.timedelta(hours=rule.value)).astimezone(notice.tzinfo)
        earliest = cal.add_working_days(not_before.date(), 0)
        if earliest != not_before.date():
            not_before = None  # the whole earliest working day is already past the lead time
        why = (f"notice must be given at least {rule.value} hours in advance; "
               f"notice came {notice:%A %Y-%m-%d %H:%M}")
    else:  # lead_working_days
        # a notice on a closed day counts from the next working day
        counted_from = cal.add_working_days(notice.date(), 0)
        earliest = cal.add_working_days(counted_from, rule.value)
        why = (f"notice must be given at least {rule.value} working day(s) before the installation "
               f"(Saturdays, Sundays and holidays excluded); notice came {_day(notice.date())}")
    day = earliest if requested is None else requested
    ok = day >= earliest  # on the earliest day itself a lead_hours rule also sets `not_before`
    if ok:
        msg = f"{rule.id}: met; earliest allowed day {_day(earliest)}"
        if not_before is not None and day == earliest:
            msg += f", not before {not_before:%H:%M}"
    elif rule.on_late == "fee":
        msg = (f"{rule.id}: late notice for {_day(day)} ({why}); the inspection may go ahead, "
               f"an additional fee is due; without the fee the earliest day is {_day(earliest)}")
    else:
        msg = f"{rule.id}: {_day(day)} is too soon ({why}); earliest allowed day is {_day(earliest)}"
    finding = Finding(rule.id, ok, earliest, msg, rule.citation, "" if ok else rule.on_late)
    return finding, not_before if day == earliest else None


def review_request(slug: str, notice: dt.datetime, *, system: str = "standard",
                   requested_day: dt.date | None = None) -> InspectionDecision:
    """Check a notice against every notice rule of `slug` that applies to `system`.

    `requested_day` is the day the plumber asks for (the day the system will be ready, or the
    installation day); without it, the earliest day every refusing rule allows is taken.
    """
    rules = inspection_rules_for(slug)
    if system not in rules.system_types:
        raise CalendarError(f"unknown system type {system!r}; known: {', '.join(rules.system_types)}")
    cal = calendar_for(slug)
    notice = local(notice, cal.timezone)
    applicable = [r for r in rules.notice_rules if r.applies(system)]
    if requested_day is not None and requested_day < notice.date():
        raise CalendarError(f"requested day {requested_day.isoformat()} is before the notice "
                            f"({notice:%Y-%m-%d %H:%M}); notice comes first")
    if requested_day is None:
        # the earliest day that every rule allows without refusal or fee
        requested_day = notice.date()
        for rule in applicable:
            finding, _ = _check(rule, notice, None, cal)
            requested_day = max(requested_day, finding.earliest_day)
    findings, not_before = [], None
    for rule in applicable:
        finding, nb = _check(rule, notice, requested_day, cal)
        findings.append(finding)
        if nb is not None and finding.ok:
            not_before = nb if not_before is None else max(not_before, nb)
    refusing = [f.earliest_day for f, r in zip(findings, applicable) if r.on_late == "refuse"]
    earliest = max([notice.date(), *refusing])
    return InspectionDecision(notice=notice, system=system, requested_day=requested_day,
                              earliest_day=earliest, not_before=not_before, findings=tuple(findings))


def deadline(slug: str, name: str, notice: dt.datetime, *, system: str = "standard",
             requested_day: dt.date | None = None) -> Deadline:
    """The deadline `name` (e.g. "inspection", "backfill") for a notice given at `notice`.

    Raises CalendarError for an unknown deadline name or a request the notice rules refuse
    (the message names the earliest allowed day, why, and the citation).
    """
    rules = inspection_rules_for(slug)
    rule = rules.deadlines.get(name)
    if rule is None:
        raise CalendarError(f"unknown rule {name!r} for {slug}; known: {', '.join(sorted(rules.deadlines))}")
    cal = calendar_for(slug)
    notice = local(notice, cal.timezone)
    decision = review_request(slug, notice, system=system, requested_day=requested_day)
    if not decision.allowed:
        raise CalendarError("; ".join(f"{f.message} [{f.citation}]" for f in decision.refusals))
    start = notice.date() if rule.start == "notice" else decision.requested_day
    day = cal.add_working_days(start, rule.working_days)
    text = f"{rule.working_days} working day(s) after {rule.start.replace('_', ' ')} {_day(start)}"
    if rule.not_before_requested and day < decision.requested_day:
        day = cal.add_working_days(decision.requested_day, 0)
        text += f", but not before the requested day {_day(decision.requested_day)}"
    return Deadline(name=name, day=day, citation=rule.citation, explanation=f"{name}: {_day(day)} = {text}")
