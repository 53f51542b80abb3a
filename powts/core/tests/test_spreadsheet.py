"""Exports safe to open in a spreadsheet: "every CSV and XLSX the application writes neutralises cells that
start with `=`, `+`, `-`, `@`, tab or carriage return (prefix with `'`, as OWASP recommends), headers included":
the one helper every export uses, both sides of each rule."""
import csv
import datetime as dt
import io
from decimal import Decimal

import openpyxl
import pytest

from powts.core import spreadsheet

DANGEROUS = ["=1+1", "+1", "-1+2", "@SUM(1)", "\t=1", "\r=1", "'=1", "''-2"]
SAFE = ["Ann Smith", "1 Main St", "'quoted' text", " =1", "a=b", "", "O'Brien"]


@pytest.mark.parametrize("text", DANGEROUS)
def test_a_cell_starting_like_a_formula_is_prefixed_and_unquote_gives_it_back(text):
    assert spreadsheet.neutralise(text) == "'" + text
    assert spreadsheet.unquote(spreadsheet.neutralise(text)) == text


@pytest.mark.parametrize("text", SAFE)
def test_other_text_is_written_as_it_is_and_read_as_it_is(text):
    assert spreadsheet.neutralise(text) == text
    assert spreadsheet.unquote(text) == text


@pytest.mark.parametrize("number", [-12.5, -3, Decimal("-89.400000"), 0, 7])
def test_numbers_are_written_as_numbers_even_when_negative(number):
    """The documented choice: a number's text is never a formula, and quoting would make it text."""
    assert spreadsheet.neutralise(number) is number


def test_dates_none_and_booleans():
    assert spreadsheet.neutralise(dt.date(2026, 1, 2)) == "2026-01-02"
    assert spreadsheet.neutralise(None) == ""
    assert spreadsheet.neutralise(True) == "True"


def test_writer_and_dict_writer_neutralise_headers_and_rows():
    buf = io.StringIO()
    w = spreadsheet.writer(buf, lineterminator="\n")
    w.writerow(["=head", "n"])
    w.writerows([["@x", -1], ["ok", Decimal("-2.5")]])
    assert list(csv.reader(io.StringIO(buf.getvalue()))) == [["'=head", "n"], ["'@x", "-1"], ["ok", "-2.5"]]
    buf = io.StringIO()
    d = spreadsheet.DictWriter(buf, fieldnames=["+a", "b"], lineterminator="\n")
    d.writeheader()
    d.writerows([{"+a": "-1+2", "b": "fine"}])
    assert buf.getvalue() == "'+a,b\n'-1+2,fine\n"


@pytest.mark.parametrize("write_only", [False, True])
def test_xlsx_cells_hold_text_never_formulas(tmp_path, write_only):
    book = openpyxl.Workbook(write_only=write_only)
    sheet = book.create_sheet() if write_only else book.active
    sheet.append([spreadsheet.xlsx_cell(sheet, v) for v in ["=1+1", "@SUM(1)", "plain", -12.5, None]])
    book.save(tmp_path / "x.xlsx")
    cells = next(openpyxl.load_workbook(tmp_path / "x.xlsx").worksheets[0].iter_rows())
    assert [(c.value, c.data_type) for c in cells[:4]] == [("=1+1", "s"), ("@SUM(1)", "s"), ("plain", "s"), (-12.5, "n")]
    assert [c.quotePrefix for c in cells[:3]] == [True, True, False]
