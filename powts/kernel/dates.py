"""Calendar arithmetic the texts need, written once."""
from __future__ import annotations

import datetime as dt

MAX_DATE = dt.date(9999, 12, 31)


def add_years(day: dt.date, years: int) -> dt.date:
    """The same calendar day `years` later; February 29 falls to February 28 (interpretation)."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)
