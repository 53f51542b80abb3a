"""Cells that are safe to open in a spreadsheet (OWASP "CSV Injection").

Every CSV and XLSX powts writes goes through here. A text cell that starts with `=`, `+`, `-`, `@`,
tab or carriage return is a formula to Excel and LibreOffice; we prefix it with `'` so it shows as
text. Headers are cells too.

Numbers written as numbers (int, Decimal, float) are left alone: their text is never a formula
(`-12.5` is a number to a spreadsheet, not `=-12.5`), and quoting them would turn a numeric column
into text. So callers pass numeric columns as numbers, not as pre-formatted strings.

The prefix is reversible: `unquote` removes exactly the one `'` that `neutralise` added, so an
import of an exported file reads what the database had. A value that itself starts with `'`s
followed by a dangerous character gets one more `'`, so even `'=x` survives the round trip.
"""
from __future__ import annotations

import csv
import datetime as dt
import re
from decimal import Decimal

# One or more leading quotes (already-quoted text) or none, then a character a spreadsheet reads as a formula.
_FORMULA_START = re.compile(r"'*[=+\-@\t\r]")
_RISKY_FIRST = frozenset("=+-@\t\r'")
_NUMBERS = (int, float, Decimal)


def neutralise(value):
    """The cell to write for `value`: '' for None, numbers as they are, text made safe."""
    if type(value) is str:  # the common case first: exports run this for every cell
        return "'" + value if value[:1] in _RISKY_FIRST and _FORMULA_START.match(value) else value
    if value is None:
        return ""
    if isinstance(value, _NUMBERS) and not isinstance(value, bool):
        return value
    text = value.isoformat() if isinstance(value, (dt.date, dt.datetime, dt.time)) else str(value)
    return "'" + text if _FORMULA_START.match(text) else text


def unquote(value):
    """What `neutralise` was given: drops the one `'` it added; anything else comes back as it is."""
    if type(value) is str and value[:1] == "'" and _FORMULA_START.match(value, 1):
        return value[1:]
    return value


class SafeWriter:
    """Wraps a csv writer so that every row (headers included) is neutralised."""

    def __init__(self, writer):
        self._writer = writer
        self.dialect = writer.dialect

    def writerow(self, row):
        return self._writer.writerow([neutralise(v) for v in row])

    def writerows(self, rows):
        for row in rows:
            self.writerow(row)


def writer(handle, *args, **kwargs) -> SafeWriter:
    """`csv.writer`, with safe cells."""
    return SafeWriter(csv.writer(handle, *args, **kwargs))


class DictWriter(csv.DictWriter):
    """`csv.DictWriter`, with safe cells (its header row too)."""

    def __init__(self, handle, fieldnames, *args, **kwargs):
        super().__init__(handle, fieldnames, *args, **kwargs)
        self.writer = SafeWriter(self.writer)


def xlsx_cell(sheet, value):
    """An openpyxl cell for `sheet` that holds `value` as data, never as a formula.

    XLSX has a real text type, so no visible `'` is needed: the cell is typed as a string and marked
    with Excel's own quote prefix (what Excel does when someone types `'=1`). Use it with
    `sheet.append([xlsx_cell(sheet, v) for v in row])`, in normal and write-only workbooks alike.
    """
    from openpyxl.cell import Cell, WriteOnlyCell

    if value is not None and (not isinstance(value, _NUMBERS) or isinstance(value, bool)) and \
            not isinstance(value, (dt.date, dt.datetime, dt.time)):
        value = str(value)
    cell = WriteOnlyCell(sheet, value=value) if not hasattr(sheet, "cell") else Cell(sheet, value=value)
    if isinstance(value, str):
        cell.data_type = "s"  # openpyxl would otherwise store "=..." as a formula
        if _FORMULA_START.match(value):
            cell.quotePrefix = True
    return cell
