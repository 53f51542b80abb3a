"""A bare year is a year, Excel serials only where installation dates fall, the preview
shows rows, errors name the user's file, legal description and sewered travel in and out.

Maintenance counts from a year-only installation's last day (powts.kernel.precision: Wis. Stat.
s. 145.20(5)(b); SPS 383.54(4); Lincoln County Ch. 22 (draft), SEPTIC TANK MAINTENANCE PROGRAM (1),
"within 3 years of the date of installation")."""
import csv
import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from powts.inventory.importing.service import import_inventory
from powts.inventory.models import Component, Parcel, System

TODAY = dt.date(2026, 11, 29)
HEADER = ["system_id", "parcel_id", "system_type", "owner_name", "installed_on"]


def run(path, jurisdiction, **kw):
    return import_inventory(path=path, jurisdiction=jurisdiction, today=TODAY, **kw)


def one(dane, write_csv, installed, extra_header=(), extra=(), **kw):
    result = run(write_csv([[*HEADER, *extra_header], ["D-1", "P-1", "conventional", "Ann Owner", installed, *extra]]), dane, **kw)
    return result


def reasons(result):
    return [r["reason"] for r in result.rejects_preview]


@pytest.mark.parametrize("written, stored, precision", [
    ("1987", dt.date(1987, 12, 31), "year"),          # a county's file: was serial day 1987 = 1905-06-09
    ("1800", dt.date(1800, 12, 31), "year"),          # both ends of the year range
    ("2026", TODAY, "year"),                          # this year: its last day is not over yet, so today
    ("1987-06", dt.date(1987, 6, 30), "month"),
    ("6/1987", dt.date(1987, 6, 30), "month"),
    ("1987-06-15", dt.date(1987, 6, 15), "day"),
    ("18264", dt.date(1950, 1, 1), "day"),            # Excel serial of 1950-01-01: the first accepted
    (str((TODAY - dt.date(1899, 12, 30)).days), TODAY, "day"),  # Excel serial of today: the last accepted
])
def test_a_bare_year_is_a_year_and_serials_are_dates(dane, write_csv, written, stored, precision):
    result = one(dane, write_csv, written, ["tank_capacity_gallons"], ["1000"])
    assert result.rejected == 0, reasons(result)
    system = System.objects.get()
    assert (system.installed_on, system.installed_on_precision) == (stored, precision)
    tank = Component.objects.get(system=system)
    assert (tank.installed_on, tank.installed_on_precision) == (stored, precision)


@pytest.mark.parametrize("written, words", [
    ("18263", "installed_on '18263' is an Excel date (1949-12-31) outside 1950-01-01 to today"),
    (str((TODAY - dt.date(1899, 12, 30)).days + 1), "is an Excel date (2026-11-30) outside 1950-01-01 to today"),
    ("1799", "installed_on '1799': the year must be from 1800 to 2100"),
    ("2101", "installed_on '2101': the year must be from 1800 to 2100"),
    ("2027", "installed_on '2027' is in the future"),
    ("2026-12", "installed_on '2026-12' is in the future"),
    ("1987-13", "installed_on '1987-13': the month must be from 1 to 12"),
    ("87.5", "installed_on '87.5' is not a date"),
])
def test_other_numbers_are_that_rows_reject_naming_the_column(dane, write_csv, written, words):
    result = one(dane, write_csv, written, strict=True)  # without --strict: a warning, the cell left empty
    assert result.rejected == 1 and System.objects.count() == 0
    assert words in reasons(result)[0]


def test_xlsx_year_cells_as_numbers_and_as_date_formatted_serials(dane, tmp_path):
    """1987 typed as a number, and 1987 typed into a date-formatted column (Excel shows 1905-06-09)."""
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(HEADER)
    sheet.append(["D-1", "P-1", "mound", "Ann", 1987])
    sheet.append(["D-2", "P-2", "mound", "Bob", 1987.0])
    sheet.append(["D-3", "P-3", "mound", "Cy", dt.datetime(1905, 6, 9)])
    sheet.append(["D-4", "P-4", "mound", "Di", dt.datetime(1978, 6, 30)])
    path = tmp_path / "county.xlsx"
    book.save(path)
    result = run(path, dane)
    assert result.rejected == 0, reasons(result)
    got = dict(System.objects.values_list("system_id", "installed_on"))
    assert got == {"D-1": dt.date(1987, 12, 31), "D-2": dt.date(1987, 12, 31), "D-3": dt.date(1987, 12, 31),
                   "D-4": dt.date(1978, 6, 30)}
    assert System.objects.get(system_id="D-4").installed_on_precision == "day"


def test_last_serviced_needs_the_day_when_strict_and_a_service_in_the_installation_year_is_not_before_it(dane, write_csv):
    path = write_csv([[*HEADER, "last_serviced_on"],
                      ["D-1", "P-1", "mound", "Ann", "1987", "1987-03-01"],    # March 1987: within the year installed
                      ["D-2", "P-2", "mound", "Bob", "1987", "1986-12-31"],    # before any day of 1987
                      ["D-3", "P-3", "mound", "Cy", "1987-05-01", "1990"]])
    result = run(path, dane, strict=True)
    assert result.created == 1 and System.objects.get().system_id == "D-1"
    assert reasons(result) == ["last_serviced_on 1986-12-31 is before installed_on 1987",
                               "last_serviced_on '1990' gives only the year; the day is needed (YYYY-MM-DD or MM/DD/YYYY)"]


@pytest.mark.django_db(transaction=True)
def test_the_owners_letter_gives_the_due_date_from_the_years_end_not_1905(dane, write_csv, tmp_path):
    """Once "1987" was stored as 1905-06-09 and the letter said "Due date: December 9, 1905"."""
    from pypdf import PdfReader

    from powts.maintenance.models import Notice, Schedule
    from powts.maintenance.notices import notices_send

    run(write_csv([[*HEADER, "owner_mailing_address"], ["D-1", "P-1", "conventional", "Ann Owner", "1987", "1 Elm St, Verona, WI 53593"]]), dane)
    notices_send(jurisdiction=dane, as_of=TODAY, output_dir=tmp_path / "out", email=False)
    assert Schedule.objects.get().due_on == dt.date(1990, 12, 31)  # 1987's last day + 3 years
    text = PdfReader(Notice.objects.get().pdf_path).pages[0].extract_text()
    assert "Due date: December 31, 1990" in text and "1905" not in text


def test_shown_as_the_year_on_the_page_and_exported_as_it_came(dane, write_csv, client, staff, tmp_path):
    from powts.inventory.exporting import export_inventory

    one(dane, write_csv, "1987")
    client.force_login(staff)
    page = client.get(f"/inventory/systems/{System.objects.get().pk}/").content.decode()
    assert "<dd>1987" in page and "December 31, 1987" in page and "Only the year is on record" in page
    out = tmp_path / "export.csv"
    export_inventory(jurisdiction=dane, path=out)
    row = next(csv.DictReader(out.open(encoding="utf-8")))
    assert row["installed_on"] == "1987"
    again = run(out, dane)
    assert (again.unchanged, again.updated, again.rejected) == (1, 0, 0)


def test_a_day_precision_date_is_shown_with_its_day(dane, write_csv, client, staff):
    one(dane, write_csv, "1987-06-15")
    client.force_login(staff)
    page = client.get(f"/inventory/systems/{System.objects.get().pk}/").content.decode()
    assert "June 15, 1987" in page and "Only the" not in page


def test_legal_description_and_sewered_are_import_and_export_columns(dane, write_csv, tmp_path):
    """Both fields exist on the parcel (SPS 383.255: the inventory holds the legal description)."""
    from powts.inventory.exporting import export_inventory

    header = [*HEADER[:4], "legal_description", "sewered"]
    run(write_csv([header, ["D-1", "P-1", "mound", "Ann", "NE 1/4 SW 1/4 Sec 12 T7N R9E", "yes"],
                   ["D-2", "P-2", "mound", "Bob", "", "no"], ["D-3", "P-3", "mound", "Cy", "", "maybe"]]), dane)
    parcel = Parcel.objects.get(parcel_number="P-1")
    assert (parcel.legal_description, parcel.sewered) == ("NE 1/4 SW 1/4 Sec 12 T7N R9E", True)
    assert Parcel.objects.get(parcel_number="P-2").sewered is False
    out = tmp_path / "export.csv"
    export_inventory(jurisdiction=dane, path=out)
    rows = {r["system_id"]: r for r in csv.DictReader(out.open(encoding="utf-8"))}
    assert (rows["D-1"]["legal_description"], rows["D-1"]["sewered"]) == ("NE 1/4 SW 1/4 Sec 12 T7N R9E", "yes")
    assert rows["D-2"]["sewered"] == "no"
    result = run(write_csv([header, ["D-1", "P-1", "mound", "Ann", "Lot 4, Plat of Elm", "no"]], name="second.csv"), dane)
    assert result.updated == 1
    parcel.refresh_from_db()
    assert (parcel.legal_description, parcel.sewered) == ("Lot 4, Plat of Elm", False)
    bad = run(write_csv([header, ["D-9", "P-9", "mound", "Cy", "", "maybe"]], name="third.csv"), dane, strict=True)
    assert reasons(bad) == ["sewered 'maybe' is not yes or no"]


def test_preview_lists_the_first_50_rows_of_each_outcome(dane, write_csv):
    run(write_csv([HEADER, ["D-1", "P-1", "mound", "Ann", "1987"], ["D-2", "P-2", "mound", "Bob", "1990-01-01"]]), dane)
    rows = [HEADER, ["D-1", "P-1", "mound", "Ann", "1988"], ["D-2", "P-2", "mound", "Bob", "1990-01-01"]]
    rows += [[f"N-{i}", f"Q-{i}", "mound", "New Owner", ""] for i in range(60)]
    rows += [[f"R-{i}", f"S-{i}", "spaceship", "X", ""] for i in range(55)]
    result = run(write_csv(rows, name="second.csv"), dane, dry_run=True)
    assert (result.created, result.updated, result.unchanged, result.rejected) == (60, 1, 1, 55)
    assert len(result.created_preview) == 50 and len(result.rejects_preview) == 50
    assert result.created_preview[0] == {"line": 4, "system_id": "N-0", "parcel_id": "Q-0", "owner_name": "New Owner",
                                         "system_type": "mound", "site_address": "", "installed": ""}
    assert result.updated_preview == [{"line": 2, "system_id": "D-1",
                                       "changes": [{"column": "installed_on", "old": "1987", "new": "1988"}]}]


@pytest.fixture
def signed_in(client, staff, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    client.force_login(staff)
    return client


def test_web_preview_shows_created_updated_and_rejected_rows(signed_in, dane, write_csv):
    run(write_csv([HEADER, ["D-1", "P-1", "mound", "Ann", "1987"]]), dane)
    content = ("system_id,parcel_id,system_type,owner_name,installed_on\n"
               "D-1,P-1,mound,Ann,1988\nD-2,P-2,mound,Bob,1975\nD-3,P-3,spaceship,Cy,\n").encode()
    page = signed_in.post("/inventory/import/", {"file": SimpleUploadedFile("county.csv", content)}).content.decode()
    for words in ("Systems to create", "<td>D-2</td>", "Systems to update", "installed_on: 1987 → 1988",
                  "Rejected rows", "not a system type powts knows"):
        assert words in page, words


@pytest.mark.parametrize("name, content", [
    ("county.xlsx", b"not a workbook"),
    ("county.xlsx", b"PK\x03\x04broken"),
    ("county.csv", b"system_id,parcel_id\x00,system_type,owner_name\n"),
    ("county.csv", b"\xff\xfe\x00a\x00b"),
    ("county.csv", b"a,b\n1,2\n"),
])
def test_an_error_names_the_users_file_never_the_stored_upload(signed_in, tmp_path, name, content):
    response = signed_in.post("/inventory/import/", {"file": SimpleUploadedFile(name, content)})
    page = response.content.decode()
    assert response.status_code == 400 and name in page
    assert str(tmp_path) not in page and "/imports/" not in page
    assert not list((tmp_path / "imports").glob("*.*"))  # the refused upload is not kept either
