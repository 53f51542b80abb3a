"""State fiscal years ("2026-27": July 1, 2026 to June 30, 2027). No Django."""
from __future__ import annotations

import datetime as dt
import re

from powts.grants.errors import GrantRefused

_FY = re.compile(r"^(\d{4})-(\d{2})$")


def parse(field: str, raw) -> str:
    """'2026-27' as given, checked: two consecutive years."""
    text = str(raw or "").strip()
    m = _FY.match(text)
    if not m or (int(m.group(1)) + 1) % 100 != int(m.group(2)):
        raise GrantRefused(f"{field} {text!r} is not a fiscal year like 2026-27", field=field)
    return text


def start(fiscal_year: str) -> dt.date:
    return dt.date(int(fiscal_year[:4]), 7, 1)


def label(first_year: int) -> str:
    return f"{first_year}-{(first_year + 1) % 100:02d}"


def for_application(applied_on: dt.date) -> str:
    """The fiscal year an owner's application is funded in. A county applies to the department
    before February 1 of the previous fiscal year (s. 145.246(7)(a)), so an application received
    before February 1 of year Y goes into the county's application for the fiscal year starting
    July 1 of Y; one received from February 1 on waits for the next (a choice: the texts do not
    say which year an owner's application belongs to). Staff may name another year."""
    year = applied_on.year if applied_on < dt.date(applied_on.year, 2, 1) else applied_on.year + 1
    return label(year)
