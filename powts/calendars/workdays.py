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
import threading
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


@dataclass(frozen=True)
class _Index:
    """Working days of a span of years. Immutable and swapped in whole, so a reader in another
    thread never sees half of an old index and half of a new one."""
    years: tuple[int, int]
    first_ord: int
    workdays: list[int]            # ordinals of working days, ascending
    workdays_np: np.ndarray
    upto: list[int]                # upto[k]: working days on or before first_ord + k (bisect_right)
    before: list[int]              # before[k]: working days strictly before first_ord + k (bisect_left)
    closed: dict[int, Closure]     # holidays (as observed) and extra closures


@dataclass
class WorkdayCalendar:
    """Working days of one jurisdiction. Build it with `calendar_for(slug)` from its profile."""
    name: str
    holidays: list[HolidayRule]
    weekend: frozenset[int] = frozenset({5, 6})
    weekend_citation: str = ""
    extra_closures: dict[dt.date, Closure] = field(default_factory=dict)
    timezone: str = "America/Chicago"
    _index: _Index | None = field(default=None, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    # -- building the index ---------------------------------------------------------------
    def _build(self, first_year: int, last_year: int) -> _Index:
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
        workdays = [o for o in range(start, end + 1) if (o - 1) % 7 not in self.weekend and o not in closed]
        workdays_np = np.asarray(workdays, dtype=np.int64)
        is_work = np.zeros(end - start + 1, dtype=np.int64)
        is_work[workdays_np - start] = 1
        upto = np.cumsum(is_work)
        return _Index(years=(first_year, last_year), first_ord=start, workdays=workdays,
                      workdays_np=workdays_np, upto=upto.tolist(), before=(upto - is_work).tolist(),
                      closed=closed)

    def _cover(self, first_year: int, last_year: int) -> _Index:
        """An index covering the years given; grown in decade steps so a sweep over many years
        rebuilds it a few times, not once a year."""
        if first_year < MIN_YEAR or last_year > MAX_YEAR:
            raise CalendarError(f"dates outside {MIN_YEAR}-{MAX_YEAR} are not supported")
        index = self._index
        if index is not None and index.years[0] <= first_year and last_year <= index.years[1]:
            return index
        with self._lock:
            index = self._index
            if index is None:
                lo, hi = first_year - 1, last_year + 10
            else:
                lo = min(first_year - 10, index.years[0]) if first_year < index.years[0] else index.years[0]
                hi = max(last_year + 10, index.years[1]) if last_year > index.years[1] else index.years[1]
            if index is None or lo < index.years[0] or hi > index.years[1]:
                index = self._build(max(lo, MIN_YEAR), min(hi, MAX_YEAR))
                self._index = index
            return index

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
        return self._cover(day.year, day.year).closed.get(day.toordinal())

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
        index = self._index
        if index is not None:
            # fast path: the index covers the day and the answer (it is complete within its span)
            k = day.toordinal() - index.first_ord
            if 0 <= k < len(index.upto):
                i = index.upto[k] + n - 1 if n > 0 else index.before[k] + n
                if 0 <= i < len(index.workdays):
                    return _fromordinal(index.workdays[i])
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
        index = self._cover(int(years.min()) - (spare if n < 0 else 0), int(years.max()) + (spare if n > 0 else 0))
        # datetime64[D] counts from 1970-01-01, whose ordinal is 719163
        ords = days.astype(np.int64) + 719163
        side = "right" if n > 0 else "left"
        idx = np.searchsorted(index.workdays_np, ords, side=side) + (n - 1 if n > 0 else n)
        return (index.workdays_np[idx] - 719163).astype("datetime64[D]")

    def closures_between(self, first: dt.date, last: dt.date) -> list[Closure]:
        """Holidays and extra closures from `first` to `last` inclusive (weekends left out)."""
        closed = self._cover(first.year, last.year).closed
        lo, hi = first.toordinal(), last.toordinal()
        return [c for o, c in sorted(closed.items()) if lo <= o <= hi]

    def holiday_ordinals(self, first_year: int, last_year: int) -> list[int]:
        """Ordinals of all closure days in the years given (for numpy.busdaycalendar peers)."""
        closed = self._cover(first_year, last_year).closed
        lo, hi = dt.date(first_year, 1, 1).toordinal(), dt.date(last_year, 12, 31).toordinal()
        return sorted(o for o in closed if lo <= o <= hi)
