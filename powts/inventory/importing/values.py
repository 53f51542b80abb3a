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


def parse_date(column: str, raw) -> dt.date | None:
    """ISO (1978-06-30), US (6/30/1978) or an Excel serial number (28671)."""
    if raw is None or raw == "":
        return None
    if isinstance(raw, dt.datetime):
        return raw.date()
    if isinstance(raw, dt.date):
        return raw
    text = str(raw).strip()
    if not text:
        return None
    try:
        if "-" in text:
            return dt.date.fromisoformat(text[:10])
        if "/" in text:
            month, day, year = (int(p) for p in text.split("/"))
            if year < 100:
                raise BadValue(f"{column} {text!r} has a two-digit year; write it as MM/DD/YYYY")
            return dt.date(year, month, day)
        serial = float(text)
        if serial.is_integer() and 1 <= serial <= 2958465:
            return EXCEL_EPOCH + dt.timedelta(days=int(serial))
    except BadValue:
        raise
    except ValueError:
        pass
    raise BadValue(f"{column} {text!r} is not a date (use YYYY-MM-DD, MM/DD/YYYY or an Excel date)")


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
