"""A county's working-day calendar: which days its office works, and arithmetic on them.

Working days are every day that is not a weekend day, a holiday (as observed) or an extra closure.
They are kept as a sorted list of day ordinals for the years in use, with a running count per day,
so adding n working days is two list lookups, not a day-by-day walk; the index grows on demand.

Conventions (chosen here; the ordinances only say "next workday" and "within 10 working days"):
- `add_working_days(d, n)` with n > 0 is the n-th working day strictly after d, whether or not d
  itself is a working day ("the end of the next workday ... after receiving notice" on a Saturday
  is Monday); n < 0 is the |n|-th working day strictly before d; n == 0 is d when d is a working
  day, else the next working day (a deadline never lands on a closed day).
- Datetimes are converted to the calendar's time zone (America/Chicago) before taking the date;
  naive datetimes are taken to be local time already.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

import numpy as np

from .errors import CalendarError
from .holiday_rules import HolidayRule

MIN_YEAR, MAX_YEAR = 1900, 2200
_fromordinal = dt.date.fromordinal
WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


@dataclass(frozen=True)
class Closure:
    """A day the office is closed, with the reason and its citation."""
    day: dt.date
    reason: str
    citation: str


@dataclass
class WorkdayCalendar:
    """Working days of one jurisdiction. Build it with `calendar_for(slug)` from its profile."""
    name: str
    holidays: list[HolidayRule]
    weekend: frozenset[int] = frozenset({5, 6})
    weekend_citation: str = ""
    extra_closures: dict[dt.date, Closure] = field(default_factory=dict)
    timezone: str = "America/Chicago"
    _years: tuple[int, int] | None = field(default=None, init=False, repr=False)
    _closed: dict[int, Closure] = field(default_factory=dict, init=False, repr=False)
    _workdays: list[int] = field(default_factory=list, init=False, repr=False)
    _workdays_np: np.ndarray | None = field(default=None, init=False, repr=False)
    _first_ord: int = field(default=0, init=False, repr=False)
    _upto: list[int] = field(default_factory=list, init=False, repr=False)
    _before: list[int] = field(default_factory=list, init=False, repr=False)
    _last_ord: int = field(default=-1, init=False, repr=False)

    # -- building the index ---------------------------------------------------------------
    def _build(self, first_year: int, last_year: int) -> None:
        if first_year < MIN_YEAR or last_year > MAX_YEAR:
            raise CalendarError(f"dates outside {MIN_YEAR}-{MAX_YEAR} are not supported")
        closed: dict[int, Closure] = {}
        for year in range(first_year, last_year + 1):
            for rule in self.holidays:
                day = rule.observed_on(year)
                closed.setdefault(day.toordinal(), Closure(day, rule.name, rule.citation))
        for day, closure in self.extra_closures.items():
            closed.setdefault(day.toordinal(), closure)
        start = dt.date(first_year, 1, 1).toordinal()
        end = dt.date(last_year, 12, 31).toordinal()
        # ordinal 1 (0001-01-01) was a Monday, so (ordinal - 1) % 7 is date.weekday()
        self._workdays = [o for o in range(start, end + 1)
                          if (o - 1) % 7 not in self.weekend and o not in closed]
        self._workdays_np = np.asarray(self._workdays, dtype=np.int64)
        # _upto[k]: how many working days fall on or before ordinal start + k, i.e.
        # bisect_right(self._workdays, start + k), precomputed so the hot path is one list lookup
        is_work = np.zeros(end - start + 1, dtype=np.int64)
        is_work[self._workdays_np - start] = 1
        upto = np.cumsum(is_work)
        self._upto = upto.tolist()
        self._before = (upto - is_work).tolist()  # bisect_left: working days strictly before
        self._closed = closed
        self._years = (first_year, last_year)
        self._first_ord, self._last_ord = start, end

    def _cover(self, first_year: int, last_year: int) -> None:
        # grow in decade steps so a sweep over many years rebuilds the index a few times, not yearly
        if first_year < MIN_YEAR or last_year > MAX_YEAR:
            raise CalendarError(f"dates outside {MIN_YEAR}-{MAX_YEAR} are not supported")
        if self._years is None:
            self._build(max(first_year - 1, MIN_YEAR), min(last_year + 10, MAX_YEAR))
        elif first_year < self._years[0] or last_year > self._years[1]:
            lo = min(first_year - 10, self._years[0]) if first_year < self._years[0] else self._years[0]
            hi = max(last_year + 10, self._years[1]) if last_year > self._years[1] else self._years[1]
            self._build(max(lo, MIN_YEAR), min(hi, MAX_YEAR))

    def _as_date(self, day) -> dt.date:
        if isinstance(day, dt.datetime):
            if day.tzinfo is not None:
                day = day.astimezone(ZoneInfo(self.timezone))
            return day.date()
        if isinstance(day, dt.date):
            return day
        raise CalendarError(f"{day!r} is not a date")

    # -- questions ------------------------------------------------------------------------
    def closure(self, day) -> Closure | None:
        """Why `day` is not a working day (weekend, holiday, closure), or None if it is one."""
        day = self._as_date(day)
        if day.weekday() in self.weekend:
            return Closure(day, WEEKDAY_NAMES[day.weekday()], self.weekend_citation)
        self._cover(day.year, day.year)
        return self._closed.get(day.toordinal())

    def is_working_day(self, day) -> bool:
        """True when the office works on `day` (a date, or a datetime taken in local time)."""
        return self.closure(day) is None

    def next_working_day(self, day) -> dt.date:
        """The first working day strictly after `day`."""
        return self.add_working_days(day, 1)

    def add_working_days(self, day, n: int) -> dt.date:
        """The n-th working day after `day` (see the module docstring for n <= 0)."""
        if type(day) is not dt.date:
            day = self._as_date(day)
        if type(n) is not int:
            raise CalendarError(f"number of working days {n!r} is not a whole number")
        k = day.toordinal() - self._first_ord
        # fast path: the index covers the day and the answer (the index is complete within it)
        if 0 <= k < len(self._upto):
            i = self._upto[k] + n - 1 if n > 0 else self._before[k] + n
            if 0 <= i < len(self._workdays):
                return _fromordinal(self._workdays[i])
        spare_years = abs(n) // 240 + 1  # at least ~250 working days a year
        self._cover(day.year - (spare_years if n < 0 else 0), day.year + (spare_years if n > 0 else 0))
        return self.add_working_days(day, n)

    def add_working_days_array(self, days: np.ndarray, n: int) -> np.ndarray:
        """Vectorised `add_working_days` for an array of numpy datetime64[D] dates."""
        days = np.asarray(days, dtype="datetime64[D]")
        if days.size == 0:
            return days
        years = days.astype("datetime64[Y]").astype(int) + 1970
        spare = abs(n) // 240 + 1
        self._cover(int(years.min()) - (spare if n < 0 else 0), int(years.max()) + (spare if n > 0 else 0))
        # datetime64[D] counts from 1970-01-01, whose ordinal is 719163
        ords = days.astype(np.int64) + 719163
        side = "right" if n > 0 else "left"
        idx = np.searchsorted(self._workdays_np, ords, side=side) + (n - 1 if n > 0 else n)
        return (self._workdays_np[idx] - 719163).astype("datetime64[D]")

    def closures_between(self, first: dt.date, last: dt.date) -> list[Closure]:
        """Holidays and extra closures from `first` to `last` inclusive (weekends left out)."""
        self._cover(first.year, last.year)
        lo, hi = first.toordinal(), last.toordinal()
        return [c for o, c in sorted(self._closed.items()) if lo <= o <= hi]

    def holiday_ordinals(self, first_year: int, last_year: int) -> list[int]:
        """Ordinals of all closure days in the years given (for numpy.busdaycalendar peers)."""
        self._cover(first_year, last_year)
        return sorted(self._closed)
