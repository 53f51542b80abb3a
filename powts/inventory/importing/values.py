"""Cell values from county exports, parsed or refused with a reason a clerk understands."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from powts.core import fields, spreadsheet
from powts.core.refusals import Refused

EXCEL_EPOCH = dt.date(1899, 12, 30)  # Excel's serial day 0 (after its 1900 leap-year bug)


class BadValue(Refused):
    """A cell that is not a value of its column; the message names the column."""


class Verbatim(str):
    """A cell that a powts export wrote with its formula guard (`'=...`): the guard is gone and the
    rest is exactly the value that was exported, so it is not trimmed (a leading tab stays)."""


def unquote_cells(cells: list) -> list:
    """Undoes powts.core.spreadsheet's `'` prefix, so an import of an export changes nothing."""
    try:
        joined = "\x00".join(cells)  # one C-level pass: most rows have no quoted cell at all
    except TypeError:  # XLSX rows hold numbers, dates and None too
        joined = "\x00".join(c for c in cells if type(c) is str)
    if joined[:1] != "'" and "\x00'" not in joined:
        return cells
    out = []
    for cell in cells:
        plain = spreadsheet.unquote(cell)
        out.append(cell if plain is cell else Verbatim(plain))
    return out


# Excel serial numbers are taken as dates only where installation and service dates really fall: from
# 1950 to today. A bare number from 1800 to 2100 is a year ("1987"), never serial day 1987 (1905-06-09).
EXCEL_FROM = dt.date(1950, 1, 1)
YEARS = (1800, 2100)


def parse_date(column: str, raw, *, today: dt.date | None = None) -> dt.date | None:
    """A full date (the day known): ISO (1978-06-30), US (6/30/1978) or an Excel date. A bare year or
    month is refused here: the column needs the day (installed_on takes less, see parse_partial_date)."""
    on, precision = parse_partial_date(column, raw, today=today)
    if on is not None and precision != "day":
        raise BadValue(f"{column} {text(raw)!r} gives only the {precision}; the day is needed (YYYY-MM-DD or MM/DD/YYYY)")
    return on


def parse_partial_date(column: str, raw, *, today: dt.date | None = None) -> tuple[dt.date | None, str]:
    """(date, precision): a day ("1978-06-30", "6/30/1978", an Excel date), a month ("1978-06", "6/1978")
    or a year ("1978"), the last two stored as the period's last day (powts.kernel.precision says why)."""
    today = today or dt.date.today()
    if raw is None or raw == "":
        return None, "day"
    if isinstance(raw, dt.datetime):
        raw = raw.date()
    if isinstance(raw, dt.date):
        # An XLSX date cell is a serial underneath: "1987" typed into a date-formatted column shows as
        # 1905-06-09. Such a serial is the year it was typed as; any other date cell is the date it shows.
        serial = (raw - EXCEL_EPOCH).days
        if YEARS[0] <= serial <= YEARS[1]:
            return _year_month(column, str(serial), serial, None, today), "year"
        return raw, "day"
    value = text(raw)
    if not value:
        return None, "day"
    try:
        if value.isascii() and value.isdigit() and len(value) == 4:
            return _year_month(column, value, int(value), None, today), "year"
        if "-" in value and len(value) == 7 and value[4] == "-":  # 1987-06
            return _year_month(column, value, int(value[:4]), int(value[5:]), today), "month"
        if "-" in value:
            return dt.date.fromisoformat(value[:10]), "day"
        if "/" in value:
            parts = [int(p) for p in value.split("/")]
            if len(parts) == 2:  # 6/1987
                month, year = parts
                if year < 100:
                    raise BadValue(f"{column} {value!r} has a two-digit year; write it as MM/YYYY")
                return _year_month(column, value, year, month, today), "month"
            month, day, year = parts
            if year < 100:
                raise BadValue(f"{column} {value!r} has a two-digit year; write it as MM/DD/YYYY")
            return dt.date(year, month, day), "day"
        serial = float(value)
    except BadValue:
        raise
    except ValueError:
        raise _not_a_date(column, value) from None
    if not serial.is_integer():
        raise _not_a_date(column, value)
    if YEARS[0] <= serial <= YEARS[1]:
        return _year_month(column, value, int(serial), None, today), "year"
    if not 1 <= serial <= 2958465:
        raise _not_a_date(column, value)
    return _serial_range(column, EXCEL_EPOCH + dt.timedelta(days=int(serial)), value, today), "day"


def _not_a_date(column: str, value: str) -> BadValue:
    # Built only when raised: two dates a row, a million rows (a profile found one built for every cell).
    return BadValue(f"{column} {value!r} is not a date (use YYYY-MM-DD, MM/DD/YYYY, a year such as 1987, or an Excel date)")


def _year_month(column: str, value: str, year: int, month: int | None, today: dt.date) -> dt.date:
    from powts.kernel.precision import period_end

    if not YEARS[0] <= year <= YEARS[1]:
        raise BadValue(f"{column} {value!r}: the year must be from {YEARS[0]} to {YEARS[1]}")
    if month is not None and not 1 <= month <= 12:
        raise BadValue(f"{column} {value!r}: the month must be from 1 to 12")
    if dt.date(year, month or 1, 1) > today:
        raise BadValue(f"{column} {value!r} is in the future")
    return period_end(year, month, today=today)


def _serial_range(column: str, on: dt.date, value: str, today: dt.date) -> dt.date:
    if not EXCEL_FROM <= on <= today:
        raise BadValue(f"{column} {value!r} is an Excel date ({on.isoformat()}) outside {EXCEL_FROM.isoformat()} "
                       "to today; if it is a year, type it as a number such as 1987 (or write YYYY-MM-DD)")
    return on


_YES = {"yes", "y", "true", "t", "1", "sewered", "x"}
_NO = {"no", "n", "false", "f", "0", "not sewered", "unsewered"}


def parse_yes_no(column: str, raw) -> bool:
    """yes/no, true/false, 1/0 (an empty cell is no): the sewered flag."""
    if isinstance(raw, bool):
        return raw
    value = " ".join(text(raw).lower().split())
    if value in _YES:
        return True
    if value in _NO or value == "":
        return False
    raise BadValue(f"{column} {text(raw)!r} is not yes or no")


def parse_count(column: str, raw, maximum: int) -> int | None:
    """A whole number from 0 to `maximum`; '1,000' and XLSX's 3.0 are fine. NaN, infinity and
    '1e1000000' are refused before any conversion (powts.core.fields)."""
    if type(raw) is str and raw.isascii() and raw.isdigit() and len(raw) <= 12:  # the common case, without Decimal
        number = int(raw)
        if number > maximum:
            raise BadValue(f"{column} {raw!r} is larger than {maximum:,}, which cannot be right")
        return number
    try:
        return fields.integer(column, raw, minimum=0, maximum=maximum,
                              above_message=f"{column} {raw!r} is larger than {maximum:,}, which cannot be right")
    except fields.FieldError as exc:
        raise BadValue(exc.message) from None


def parse_coordinate(column: str, raw, limit: int) -> Decimal | None:
    try:
        value = fields.decimal(column, raw)
    except fields.FieldError as exc:
        raise BadValue(exc.message) from None
    if value is None:
        return None
    if not -limit <= value <= limit:
        raise BadValue(f"{column} {raw!r} is outside -{limit} to {limit}")
    return value.quantize(Decimal("0.000001"))


def text(raw) -> str:
    if type(raw) is str:  # the CSV case, first: this runs for every cell of a million-row file
        return raw.strip()
    if raw is None:
        return ""
    if isinstance(raw, Verbatim):
        return str(raw)
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)  # XLSX gives 12345.0 for a number typed as 12345
    return str(raw).strip()
