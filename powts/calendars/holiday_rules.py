"""Holiday rules as data: a fixed date (`month`, `day`) or the nth weekday of a month
(`month`, `weekday`, `nth`, where nth = -1 is the last one).

Each rule carries its citation; a rule without one does not load (DESIGN.md: "A parameter without a
citation does not load").
"""
from __future__ import annotations

import calendar as _cal
import datetime as dt
from dataclasses import dataclass

from .errors import CalendarError

WEEKDAYS = {name: i for i, name in enumerate(
    ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])}


@dataclass(frozen=True)
class HolidayRule:
    name: str
    month: int
    citation: str
    day: int | None = None          # fixed date
    weekday: int | None = None      # nth-weekday rule
    nth: int | None = None
    observed: dict | None = None    # weekday index -> shift in days, for fixed dates only

    def actual(self, year: int) -> dt.date:
        """The calendar date of the holiday in `year` (before any weekend shift)."""
        if self.day is not None:
            return dt.date(year, self.month, self.day)
        days_in_month = _cal.monthrange(year, self.month)[1]
        if self.nth > 0:
            first = dt.date(year, self.month, 1)
            offset = (self.weekday - first.weekday()) % 7
            return first + dt.timedelta(days=offset + 7 * (self.nth - 1))
        last = dt.date(year, self.month, days_in_month)
        offset = (last.weekday() - self.weekday) % 7
        return last - dt.timedelta(days=offset + 7 * (-self.nth - 1))

    def observed_on(self, year: int) -> dt.date:
        """The day offices close for it: a fixed date on a weekend moves per `observed`."""
        day = self.actual(year)
        if self.day is not None and self.observed:
            day += dt.timedelta(days=self.observed.get(day.weekday(), 0))
        return day


def parse_rule(entry: dict, observed: dict | None, where: str) -> HolidayRule:
    """Build a rule from one YAML entry; `where` names the file and entry in errors."""
    if not isinstance(entry, dict):
        raise CalendarError(f"{where}: expected a mapping, got {entry!r}")
    name = entry.get("name")
    if not name:
        raise CalendarError(f"{where}: holiday without a name")
    if not entry.get("citation"):
        raise CalendarError(f"{where}: holiday {name!r} has no citation")
    month = entry.get("month")
    if not isinstance(month, int) or not 1 <= month <= 12:
        raise CalendarError(f"{where}: holiday {name!r}: month {month!r} is not 1-12")
    if "day" in entry:
        day = entry["day"]
        try:
            dt.date(2000, month, day)  # a leap year, so Feb 29 would pass here
        except (TypeError, ValueError):
            raise CalendarError(f"{where}: holiday {name!r}: day {day!r} is not a day of month {month}") from None
        return HolidayRule(name=name, month=month, day=day, citation=entry["citation"], observed=observed)
    weekday = WEEKDAYS.get(str(entry.get("weekday", "")).lower())
    nth = entry.get("nth")
    if weekday is None or nth not in (1, 2, 3, 4, 5, -1):
        raise CalendarError(
            f"{where}: holiday {name!r} needs either 'day' or 'weekday' (monday..sunday) "
            f"with 'nth' 1-5 or -1 (last)")
    return HolidayRule(name=name, month=month, weekday=weekday, nth=nth, citation=entry["citation"])
