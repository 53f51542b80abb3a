"""Builds a `WorkdayCalendar` from a county profile's `calendar.yaml`.

A county calendar may say `extends: state` (the kernel's one rule of layers): it then starts from
the state's calendar, `holidays-` drops holidays by name, `holidays+` replaces (same name) or adds
holidays and `extra_closures+` adds closures. So a county that differs from the state lists only
the difference.
"""
from __future__ import annotations

import datetime as dt

from powts.kernel.cited import line_of
from powts.kernel.profiles import ProfileError, resolve, profile_cached

from .errors import CalendarError
from .holiday_rules import WEEKDAYS, parse_rule
from .workdays import Closure, WorkdayCalendar


def _resolved(slug: str) -> dict:
    """The calendar data of `slug`, by the kernel's one rule of layers (`holidays+` / `holidays-` match
    the state's holidays by name, `extra_closures+` adds to its closures)."""
    try:
        data, slug = resolve(slug, "calendar")
    except ProfileError as exc:
        raise CalendarError(str(exc)) from None
    return {**data, "_where": f"profiles/{slug}/calendar.yaml"}


def _at(entry) -> str:
    line = line_of(entry)
    return f":{line}" if line else ""


def calendar_from_data(data: dict, name: str = "calendar") -> WorkdayCalendar:
    """Build a calendar from already-loaded data (the format of calendar.yaml, no `extends`)."""
    where = data.get("_where", name)
    weekend = data.get("weekend") or {}
    try:
        weekend_days = frozenset(WEEKDAYS[d.lower()] for d in weekend.get("days", []))
    except (KeyError, AttributeError):
        raise CalendarError(f"{where}: weekend days must be names monday..sunday") from None
    if weekend_days and not weekend.get("citation"):
        raise CalendarError(f"{where}: weekend has no citation")
    observed = data.get("observed") or {}
    if observed and not observed.get("citation"):
        raise CalendarError(f"{where}: 'observed' weekend shift has no citation")
    shift = {WEEKDAYS[k]: int(v) for k, v in observed.items() if k in WEEKDAYS}
    rules = [parse_rule(h, shift, f"{where}{_at(h)} holiday #{i + 1}")
             for i, h in enumerate(data.get("holidays") or [])]
    extra: dict[dt.date, Closure] = {}
    for i, entry in enumerate(data.get("extra_closures") or []):
        label = f"{where}{_at(entry)} extra_closures #{i + 1}"
        day = entry.get("date") if isinstance(entry, dict) else None
        if isinstance(day, str):
            try:
                day = dt.date.fromisoformat(day)
            except ValueError:
                raise CalendarError(f"{label}: date {day!r} is not a date (YYYY-MM-DD)") from None
        if not isinstance(day, dt.date):
            raise CalendarError(f"{label}: needs a 'date' (YYYY-MM-DD)")
        if not entry.get("citation"):
            raise CalendarError(f"{label}: closure on {day} has no citation")
        extra[day] = Closure(day, entry.get("reason", "office closed"), entry["citation"])
    return WorkdayCalendar(
        name=name, holidays=rules, weekend=weekend_days, weekend_citation=weekend.get("citation", ""),
        extra_closures=extra, timezone=data.get("timezone") or "America/Chicago",
    )


@profile_cached
def calendar_for(slug: str) -> WorkdayCalendar:
    """The working-day calendar of jurisdiction `slug` (cached; raises CalendarError)."""
    return calendar_from_data(_resolved(slug), name=slug)
