"""Cell values from county exports, parsed or refused with a reason a clerk understands."""
from __future__ import annotations

import datetime as dt
import re
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


def parse_date(column: str, raw, *, today: dt.date | None = None, notes: list | None = None) -> dt.date | None:
    """A full date (the day known): ISO (1978-06-30), US (6/30/1978) or an Excel date. Without `notes` a bare
    year or month is refused (the edit forms want the day). With `notes` (the import) it is read as the period's
    last day, as installed_on is, and a note saying so is added to `notes`."""
    on, precision = parse_partial_date(column, raw, today=today, notes=notes)
    if on is not None and precision != "day":
        if notes is None:
            raise BadValue(f"{column} {text(raw)!r} gives only the {precision}; the day is needed (YYYY-MM-DD or MM/DD/YYYY)")
        notes.append(f"{column} {text(raw)!r} gives only the {precision}; stored as {on.isoformat()}, "
                     f"the {precision}'s last day (as for installed_on)")
    return on


# Two-digit years (3/7/87): read with a pivot on today's year, said in the import's help (guide.py).
def two_digit_year(yy: int, today: dt.date) -> int:
    """The century of today's year, or the one before if that year would be after this year: in 2026, 26 is 2026
    and 27 is 1927."""
    year = today.year // 100 * 100 + yy
    return year - 100 if year > today.year else year


def two_digit_rule(today: dt.date) -> str:
    century, yy = divmod(today.year, 100)
    return f"two-digit years 00 to {yy:02d} are read as {century}00 to {today.year}, {yy + 1:02d} to 99 as the century before"


MONTHS = {m: i for i, names in enumerate(
    (("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",), ("jun", "june"),
     ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
     ("dec", "december")), start=1) for m in names}
_ISO = re.compile(r"(\d{4})-(\d{1,2})(?:-(\d{1,2}))?(?:[T ][\d:.+Z -]*)?")
_YMD_SLASH = re.compile(r"(\d{4})/(\d{1,2})/(\d{1,2})")
_MDY = re.compile(r"(\d{1,2})([/-])(\d{1,2})\2(\d{4}|\d{2})")
_MY = re.compile(r"(\d{1,2})[/-](\d{4}|\d{2})")
_NAMED_MDY = re.compile(r"([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4}|\d{2})")
_NAMED_DMY = re.compile(r"(\d{1,2})[\s-]([A-Za-z]{3,9})\.?[\s-](\d{4}|\d{2})")
_NAMED_MY = re.compile(r"([A-Za-z]{3,9})\.?(?:\s+|-|,\s*)(\d{4}|\d{2})")
_COMPACT = re.compile(r"(1[89]\d\d|20\d\d)(\d\d)(\d\d)")


def parse_partial_date(column: str, raw, *, today: dt.date | None = None,
                       notes: list | None = None) -> tuple[dt.date | None, str]:
    """(date, precision): a day ("1978-06-30", "6/30/1978", "June 30, 1978", "30-Jun-1978", "19780630", an Excel
    date), a month ("1978-06", "6/1978", "June 1978") or a year ("1978"), the last two stored as the period's
    last day (powts.kernel.precision says why). A two-digit year (6/30/78) is refused without `notes`; with
    `notes` it is read by two_digit_year() and a note saying so is added."""
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
    short = []  # set when the value's year had two digits

    def year_of(digits: str, form: str) -> int:
        if len(digits) == 4:
            return int(digits)
        if notes is None:
            raise BadValue(f"{column} {value!r} has a two-digit year; write it as {form}")
        short.append(True)
        return two_digit_year(int(digits), today)

    def month_of(name: str) -> int:
        month = MONTHS.get(name.lower())
        if month is None:
            raise _not_a_date(column, value)
        return month

    def noted(result: tuple[dt.date, str]) -> tuple[dt.date, str]:
        if short and notes is not None:
            from powts.kernel.precision import display

            notes.append(f"{column} {value!r} has a two-digit year; read as {display(result[0], result[1], style='iso')} "
                         f"({two_digit_rule(today)})")
        return result

    try:
        if value.isascii() and value.isdigit() and len(value) == 4:
            return _year_month(column, value, int(value), None, today), "year"
        if m := _ISO.fullmatch(value):
            year, month, day = int(m[1]), int(m[2]), m[3]
            if day is None:
                return _year_month(column, value, year, month, today), "month"
            return dt.date(year, month, int(day)), "day"
        if m := _YMD_SLASH.fullmatch(value):
            return dt.date(int(m[1]), int(m[2]), int(m[3])), "day"
        if m := _MDY.fullmatch(value):
            return noted((dt.date(year_of(m[4], "MM/DD/YYYY"), int(m[1]), int(m[3])), "day"))
        if m := _MY.fullmatch(value):
            year = year_of(m[2], "MM/YYYY")
            return noted((_year_month(column, value, year, int(m[1]), today), "month"))
        if m := _NAMED_MDY.fullmatch(value):
            return noted((dt.date(year_of(m[3], "MM/DD/YYYY"), month_of(m[1]), int(m[2])), "day"))
        if m := _NAMED_DMY.fullmatch(value):
            return noted((dt.date(year_of(m[3], "MM/DD/YYYY"), month_of(m[2]), int(m[1])), "day"))
        if m := _NAMED_MY.fullmatch(value):
            month = month_of(m[1])
            return noted((_year_month(column, value, year_of(m[2], "MM/YYYY"), month, today), "month"))
        if m := _COMPACT.fullmatch(value):
            return dt.date(int(m[1]), int(m[2]), int(m[3])), "day"
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


# Cells that county exports use for "no value": read as empty (any case). Listed in the import's help (guide.py).
EMPTY_MARKERS = ("n/a", "na", "-", "--", "none", "unknown")
_EMPTY = frozenset(EMPTY_MARKERS)


def means_empty(cell: str) -> bool:
    return cell.lower() in _EMPTY if len(cell) <= 7 else False


# The units a number may carry in its cell ("750 gal", "1,000 gallons"), per column; a unit of another
# measure (litres, cubic metres) is refused rather than converted.
UNITS = {
    "tank_capacity_gallons": ("gallons", {"gal", "gals", "gal.", "gallon", "gallons", "g"}),
    "design_flow_gpd": ("gallons per day", {"gpd", "gal/day", "gallons/day", "gallons per day", "gal per day", "gal/d"}),
    "bedrooms": ("bedrooms", {"br", "bd", "bdr", "bdrm", "bdrms", "bed", "beds", "bedroom", "bedrooms"}),
}
_OTHER_UNITS = {"l": "litres", "liter": "litres", "liters": "litres", "litre": "litres", "litres": "litres",
                "m3": "cubic metres", "m³": "cubic metres", "cu m": "cubic metres", "cf": "cubic feet",
                "cu ft": "cubic feet", "ft3": "cubic feet", "cubic feet": "cubic feet", "gpm": "gallons per minute",
                "l/day": "litres per day", "lpd": "litres per day"}
_WITH_UNIT = re.compile(r"([-+]?[\d,]*\.?\d+)\s*([^\d\s].*)")
_WITH_UNIT_MAX = 40  # "1,000,000 gallons per day" fits; a longer cell is no number with a unit (and the pattern
# backtracks over a long run of digits: 100,000 nines took minutes)


def parse_quantity(column: str, raw, maximum: int) -> int | None:
    """parse_count, the number possibly followed by its column's unit ("750 gal", "1,000 gallons", "3 br")."""
    if type(raw) is str and len(raw) <= _WITH_UNIT_MAX and (m := _WITH_UNIT.fullmatch(raw.strip())):
        unit = " ".join(m[2].lower().split())
        name, accepted = UNITS.get(column, ("", set()))
        if unit in accepted:
            return parse_count(column, m[1], maximum)
        if unit in _OTHER_UNITS:
            raise BadValue(f"{column} {raw.strip()!r} is in {_OTHER_UNITS[unit]}; the column is in {name}")
    return parse_count(column, raw, maximum)
