"""Calendar arithmetic the texts need, written once."""
from __future__ import annotations

import calendar
import datetime as dt

MAX_DATE = dt.date(9999, 12, 31)


def add_years(day: dt.date, years: int) -> dt.date:
    """The same calendar day `years` later; February 29 falls to February 28 (interpretation)."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)


def add_months(day: dt.date, months: int) -> dt.date:
    """`day` plus whole months, on the same day of the month or the month's last day (Feb 29 + 12 -> Feb 28)."""
    month = day.month - 1 + months
    year = day.year + month // 12
    month = month % 12 + 1
    return dt.date(year, month, min(day.day, calendar.monthrange(year, month)[1]))
