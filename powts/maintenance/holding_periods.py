"""The periods a county's holding tank servicing reports cover (the profile's holding_tanks.report_periods):
which period a day falls in, when its report is due, and the last period whose report is overdue."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from powts.kernel.dates import add_months


@dataclass(frozen=True)
class Period:
    start: dt.date
    end: dt.date
    due_on: dt.date
    citation: str


def rule(raw_profile: dict) -> dict | None:
    return ((raw_profile.get("holding_tanks") or {}).get("report_periods")) or None


def period_of(r: dict, day: dt.date) -> Period:
    """The reporting period `day` falls in: periods of `months` starting in `first_month` of each year."""
    months, first = int(r["months"]), int(r["first_month"])
    offset = (day.month - first) % 12
    start_month_index = day.year * 12 + (day.month - 1) - offset % months
    start = dt.date(start_month_index // 12, start_month_index % 12 + 1, 1)
    end = add_months(start, months) - dt.timedelta(days=1)
    return Period(start, end, end + dt.timedelta(days=int(r["due_days_after_end"])), r["citation"])


def last_overdue(r: dict, as_of: dt.date) -> Period:
    """The latest period whose report was due before `as_of` (a report filed on the due day is on time)."""
    period = period_of(r, as_of)
    while period.due_on >= as_of:
        period = period_of(r, period.start - dt.timedelta(days=1))
    return period
