"""Dates known only to the year or the month ("installed 1987"), written once. No Django.

Such a date is stored as the LAST day of its period (capped at today for the current period) with its
precision beside it. Why the last day: the maintenance texts count from the installation (Wis. Stat.
s. 145.20(5)(b): at least once every 3 years; SPS 383.54(4); the county ordinances'
maintenance programs count "within 3 years of the date of installation"). When only the year is
known, the end of that year is the latest day the installation can have been, so the due date counted
from it is the only one the owner is surely past when a notice says so; an earlier day could tell an
owner they are late when they are not. Checks that need the earliest possible day (a service before
the installation) use `period_start`.
"""
from __future__ import annotations

import calendar
import datetime as dt

DAY, MONTH, YEAR = "day", "month", "year"
PRECISIONS = (DAY, MONTH, YEAR)


def period_end(year: int, month: int | None = None, *, today: dt.date | None = None) -> dt.date:
    """The last day of the year (or of the month), or `today` when the period is not over yet."""
    if month is None:
        end = dt.date(year, 12, 31)
    else:
        end = dt.date(year, month, calendar.monthrange(year, month)[1])
    return min(end, today) if today is not None else end


def period_start(on: dt.date | None, precision: str) -> dt.date | None:
    """The earliest day a stored date of `precision` can stand for."""
    if on is None:
        return None
    if precision == YEAR:
        return on.replace(month=1, day=1)
    if precision == MONTH:
        return on.replace(day=1)
    return on


def display(on: dt.date | None, precision: str = DAY, *, style: str = "long", empty: str = "") -> str:
    """"1987", "June 1987" or "June 30, 1987" ("1987", "1987-06", "1987-06-30" with style="iso")."""
    if on is None:
        return empty
    if precision == YEAR:
        return str(on.year)
    if style == "iso":
        return on.strftime("%Y-%m") if precision == MONTH else on.isoformat()
    if precision == MONTH:
        return f"{on:%B} {on.year}"
    return f"{on:%B} {on.day}, {on.year}"


__all__ = ["DAY", "MONTH", "PRECISIONS", "YEAR", "display", "period_end", "period_start"]
