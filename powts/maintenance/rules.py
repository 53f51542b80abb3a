"""When a system's maintenance is due, from its type, its dates and its reports. No Django imports.

    Wis. Stat. s. 145.20(5)(b): inspection or pumping at least once every 3 years.
    SPS 383.54(4), and the county ordinances cited in each profile's maintenance.yaml: within 3 years
        of installation and every 3 years after, unless an inspection finds less than 1/3 of the tank
        occupied by sludge and scum (that inspection restarts the cycle); at 1/3 or more, pump.
    Other treatment on its component's cycle, holding tanks on the county's interval, notices a
        lead time before the due date: all of it data in the profile, each value cited there.

The due date is the last qualifying event, or the installation date when there is none, plus the
type's interval; a system with neither is `needs_data`, never silently skipped.
"""
from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from decimal import Decimal

from powts.core import fields
from powts.kernel.dates import add_months
from powts.kernel.money import round_half_up
from powts.maintenance.profile import MaintenanceProfile

INSPECTION, PUMPING, SERVICING = "inspection", "pumping", "servicing"
# Fractions are stored to 4 places; the threshold is compared at that precision, so "1/3" as
# entered (0.3333) counts as reaching 1/3, and 0.3332 does not.
FRACTION_PLACES = Decimal("0.0001")


def threshold(profile: MaintenanceProfile) -> Decimal:
    f = profile.pump_at_fraction
    return round_half_up(Decimal(f.numerator) / Decimal(f.denominator), FRACTION_PLACES)


def parse_fraction(value) -> Decimal:
    """'1/3', '0.25', 0.25 or '25%' -> Decimal at 4 places, bounded (powts.core.fields). Raises ValueError in words."""
    return fields.fraction("sludge_scum_fraction", value, required=True)


def needs_pumping(profile: MaintenanceProfile, fraction: Decimal | None) -> bool:
    return fraction is not None and round_half_up(Decimal(fraction), FRACTION_PLACES) >= threshold(profile)


@dataclass(frozen=True)
class Event:
    on: dt.date
    kind: str
    sludge_scum_fraction: Decimal | None = None
    source: str = "report"


@dataclass
class Schedule:
    rule: str
    interval_months: int | None
    basis_on: dt.date | None = None
    basis_kind: str = ""
    due_on: dt.date | None = None
    notice_on: dt.date | None = None
    needs_data: bool = False
    exempt: bool = False
    pumping_required: bool = False
    explanation: list[str] = field(default_factory=list)


def qualifies(rule: str, event: Event, profile: MaintenanceProfile) -> bool:
    if rule == "septic_tank":
        if event.kind == PUMPING:
            return True
        return event.kind == INSPECTION and not needs_pumping(profile, event.sludge_scum_fraction)
    if rule == "holding_tank":
        return event.kind in (PUMPING, SERVICING)
    return event.kind in (INSPECTION, PUMPING, SERVICING)


def spread_offset(key: str | int, days: int) -> int:
    if days <= 0:
        return 0
    return int(hashlib.blake2s(str(key).encode(), digest_size=4).hexdigest(), 16) % (days + 1)


def stagger_week(key: str | int, weeks: int) -> int:
    """Which of the county's weekly batches a system's first notice goes in (0: the latest, at the lead
    time); the same every cycle, so an owner hears at the same time of year."""
    if weeks <= 1:
        return 0
    return int(hashlib.blake2s(f"stagger:{key}".encode(), digest_size=4).hexdigest(), 16) % weeks


def phase_in_due(profile: MaintenanceProfile, key: int, municipality: str) -> dt.date | None:
    phase = profile.phase_in
    if not phase:
        return None
    if phase.get("method") == "by_year":
        first = dt.date.fromisoformat(str(phase["first_due_on"]))
        return add_months(first, 12 * (int(key) % int(phase["years"])))
    if phase.get("method") == "by_area":
        for group in phase.get("groups") or []:
            if municipality in (group.get("municipalities") or []):
                return dt.date.fromisoformat(str(group["due_by"]))
        default = phase.get("default_due_by")
        return dt.date.fromisoformat(str(default)) if default else None
    return None


def notice_date(profile: MaintenanceProfile, due_on: dt.date, key) -> dt.date:
    """The day the first notice goes out: the lead time before the due date, earlier by the county's
    mailing spread and by whole weeks for its staggered batches, and before a winter pause rather than
    inside it."""
    day = due_on - dt.timedelta(days=profile.lead_time_days + spread_offset(key, profile.spread_days)
                                + 7 * stagger_week(key, profile.stagger_weeks))
    guard = 0
    while profile.paused(day) and guard < 370:
        day -= dt.timedelta(days=1)
        guard += 1
    return day


def compute(profile: MaintenanceProfile, *, system_type: str, installed_on: dt.date | None,
            last_serviced_on: dt.date | None, events: list[Event] = (), key: int = 0, municipality: str = "",
            retired: str = "") -> Schedule:
    """`retired`: the status of a system no longer in use ("replaced", "abandoned"), "" for one in use."""
    tr = profile.type_rule(system_type)
    out = Schedule(rule=tr.rule, interval_months=tr.interval_months)
    if retired:
        out.exempt = True
        out.explanation.append(f"{retired}: no longer in use, so no longer on the maintenance program")
        return out
    if tr.rule == "exempt":
        out.exempt = True
        out.explanation.append(f"{system_type}: not on a maintenance cycle ({tr.citation})")
        return out
    cutoff = profile.applies_installed_on_or_after
    if cutoff and installed_on and installed_on < cutoff:
        out.exempt = True
        out.explanation.append(f"installed {installed_on} before the program applies ({cutoff}; {profile.citations['program']})")
        return out
    all_events = list(events)
    if last_serviced_on:
        all_events.append(Event(last_serviced_on, PUMPING if tr.rule != "management_plan" else SERVICING, None, "inventory"))
    good = [e for e in all_events if qualifies(tr.rule, e, profile)]
    if good:
        last = max(good, key=lambda e: e.on)
        out.basis_on, out.basis_kind = last.on, ("inventory" if last.source == "inventory" else last.kind)
        out.explanation.append(f"last qualifying {last.kind if last.source != 'inventory' else 'service on record'}: {last.on}")
    elif installed_on:
        out.basis_on, out.basis_kind = installed_on, "installed"
        out.explanation.append(f"no qualifying report; installed {installed_on}")
    else:
        out.needs_data = True
        out.explanation.append("no installation date and no report: needs data")
        return out
    out.due_on = add_months(out.basis_on, tr.interval_months)
    out.explanation.append(f"{out.basis_on} + {tr.interval_months} months = {out.due_on} ({tr.citation})")
    if tr.rule == "septic_tank":
        over = [e for e in all_events if e.kind == INSPECTION and e.on >= out.basis_on and needs_pumping(profile, e.sludge_scum_fraction)]
        if over:
            insp = max(over, key=lambda e: e.on)
            pump_by = insp.on + dt.timedelta(days=profile.pump_within_days)
            out.pumping_required = True
            out.due_on = min(out.due_on, pump_by)
            out.explanation.append(f"inspection {insp.on} found sludge and scum {insp.sludge_scum_fraction} >= {profile.pump_at_fraction}: "
                                   f"pump by {pump_by} ({profile.citations['sludge']}; {profile.citations['pump_within']})")
    start = profile.program_start_on
    if profile.phase_in and start and out.basis_on < start:
        group_due = phase_in_due(profile, key, municipality)
        if group_due and out.due_on < group_due:
            out.due_on = group_due
            out.explanation.append(f"phased in: first due {group_due} ({profile.raw.get('program', {}).get('phase_in_citation', '')})")
    out.notice_on = notice_date(profile, out.due_on, key)
    return out


def due_kind(*, due_on: dt.date | None, notice_on: dt.date | None, needs_data: bool, as_of: dt.date) -> str | None:
    """The kinds of a due list's entry: first_notice when notice_on (due_on minus the lead time) <= as_of < due_on;
    overdue when as_of >= due_on; needs_data when no date is known; otherwise None."""
    if needs_data:
        return "needs_data"
    if due_on is None:
        return None
    if as_of >= due_on:
        return "overdue"
    if notice_on is not None and notice_on <= as_of:
        return "first_notice"
    return None
