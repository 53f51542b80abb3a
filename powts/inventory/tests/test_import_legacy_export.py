"""A county's legacy export imports as it is: its own headers mapped to the import's columns, the accepted values
listed where a clerk looks, a bad optional cell left empty with a warning (the system kept), and every row
counted once."""
import csv
import datetime as dt
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from powts.inventory.importing.service import WARNING_PREFIX, import_inventory
from powts.inventory.models import Component, ImportColumnMap, System

TODAY = dt.date(2026, 11, 29)
HEADER = ["system_id", "parcel_id", "system_type", "owner_name"]
LEGACY = ["Permit #", "PIN", "Sys Type", "Owner"]
LEGACY_MAP = "Permit #=system_id,PIN=parcel_id,Sys Type=system_type,Owner=owner_name"


def run(path, jurisdiction, **kw):
    return import_inventory(path=path, jurisdiction=jurisdiction, today=TODAY, **kw)


def one(dane, write_csv, column, cell, **kw):
    return run(write_csv([[*HEADER, column], ["D-1", "P-1", "mound", "Ann", cell]]), dane, **kw)


def rejects_file(result):
    with open(result.rejects_path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def counted(result):
    assert result.rows == result.created + result.updated + result.unchanged + result.rejected
    return result


# -- the file's own headers -------------------------------------------------------------------------------

def test_columns_map_the_files_own_headers_on_the_command_line(db, cli, write_csv):
    path = write_csv([LEGACY, ["D-1", "P-1", "mound", "Ann"]])
    code, out, _ = cli("import", "inventory", str(path), "--jurisdiction", "dane", "--columns", LEGACY_MAP, "--json")
    assert code == 0 and json.loads(out)["created"] == 1
    assert System.objects.get().system_id == "D-1"


@pytest.mark.parametrize("name, text", [
    ("map.csv", "file header,column\nPermit #,system_id\nPIN,parcel_id\nSys Type,system_type\nOwner,owner_name\n"),
    ("map.yaml", "'Permit #': system_id\nPIN: parcel_id\nSys Type: system_type\nOwner: owner_name\n"),  # YAML: quote a #
])
def test_a_map_file_in_csv_or_yaml_maps_the_files_own_headers(db, cli, write_csv, tmp_path, name, text):
    (tmp_path / name).write_text(text)
    path = write_csv([LEGACY, ["D-1", "P-1", "mound", "Ann"]])
    code, out, err = cli("import", "inventory", str(path), "--jurisdiction", "dane", "--map", str(tmp_path / name), "--json")
    assert code == 0, err
    assert json.loads(out)["created"] == 1


def test_without_a_mapping_the_missing_columns_are_named_with_the_way_to_map_them(db, cli, write_csv):
    path = write_csv([LEGACY, ["D-1", "P-1", "mound", "Ann"]])
    code, _, err = cli("import", "inventory", str(path), "--jurisdiction", "dane")
    assert code == 1 and "missing required columns system_id, parcel_id, system_type, owner_name" in err
    assert "--map or --columns" in err


def test_a_mapping_to_a_column_powts_does_not_have_or_from_a_header_the_file_lacks_is_refused(db, cli, write_csv):
    """A typo in a mapping is refused, never taken as a column powts would keep as it is."""
    path = write_csv([LEGACY, ["D-1", "P-1", "mound", "Ann"]])
    code, _, err = cli("import", "inventory", str(path), "--jurisdiction", "dane", "--columns", LEGACY_MAP + ",PIN=parcel")
    assert code == 1 and "names parcel, which powts does not have" in err
    code, _, err = cli("import", "inventory", str(path), "--jurisdiction", "dane", "--columns", LEGACY_MAP + ",Tank=bedrooms")
    assert code == 1 and "names 'Tank', which inventory.csv does not have (found: Permit #, PIN, Sys Type, Owner)" in err


def test_the_upload_page_asks_for_unknown_headers_and_remembers_the_countys_choice(client, staff, dane, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    client.force_login(staff)
    content = "Permit #,PIN,Sys Type,Owner,Tank\nD-1,P-1,mound,Ann,1000\n".encode()
    first = client.post("/inventory/import/", {"file": SimpleUploadedFile("county.csv", content)})
    page = first.content.decode()
    assert first.status_code == 400 and "missing required columns system_id, parcel_id, system_type, owner_name" in page
    assert [m["header"] for m in first.context["mapping"]] == ["Permit #", "PIN", "Sys Type", "Owner", "Tank"]
    assert 'name="column-0"' in page and '<option value="system_id">system_id (required)</option>' in page
    token = first.context["token"]
    choices = {"token": token, "column-0": "system_id", "column-1": "parcel_id", "column-2": "system_type",
               "column-3": "owner_name", "column-4": "tank_capacity_gallons"}
    preview = client.post("/inventory/import/", choices)
    assert preview.status_code == 200 and preview.context["result"].created == 1
    assert not ImportColumnMap.objects.exists()  # a check is not an import
    client.post(f"/inventory/import/{token}/confirm/", follow=True)
    assert Component.objects.get().capacity_gallons == 1000
    assert ImportColumnMap.objects.get(jurisdiction=dane).columns["permit_#"] == "system_id"
    # The county's next file: its headers come prefilled and it checks at once.
    again = client.post("/inventory/import/", {"file": SimpleUploadedFile("next.csv", content.replace(b"D-1", b"D-2"))})
    assert again.status_code == 200 and again.context["result"].created == 1
    assert {m["header"]: m["value"] for m in again.context["mapping"]}["PIN"] == "parcel_id"
    assert '<option value="parcel_id" selected>' in again.content.decode()


def test_a_file_with_too_few_columns_to_map_is_refused_and_not_kept(client, staff, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    client.force_login(staff)
    response = client.post("/inventory/import/", {"file": SimpleUploadedFile("c.csv", b"Permit #,PIN,Owner\n1,2,Ann\n")})
    assert response.status_code == 400 and "c.csv is missing required column" in response.content.decode()
    assert not list((tmp_path / "imports").glob("*.*"))


def test_another_users_upload_token_is_not_checked_again(client, staff, make_user, dane, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    client.force_login(staff)
    content = b"Permit #,PIN,Sys Type,Owner\n1,2,mound,Ann\n"
    token = client.post("/inventory/import/", {"file": SimpleUploadedFile("c.csv", content)}).context["token"]
    client.force_login(make_user("other", "county_staff", dane))
    assert client.post("/inventory/import/", {"token": token, "column-0": "system_id"}).status_code == 404


# -- the accepted values, where a clerk looks -------------------------------------------------------------

def test_help_lists_required_columns_system_types_statuses_dates_and_the_two_digit_year_rule(db, cli):
    code, out, _ = cli("import", "inventory", "--help")
    text = " ".join(out.split())
    assert code == 0
    for words in ("Required columns: system_id, parcel_id, system_type, owner_name", "holding_tank", "aerobic_treatment_unit",
                  "Statuses: active, failing, abandoned, replaced", "6/30/1987", "June 30, 1987", "a year: 1987",
                  "--columns", "--map", "--strict", "n/a, na, -, --, none, unknown", "750 gal",
                  "as the century before"):
        assert words in text, words


def test_the_upload_page_and_the_readme_list_the_required_columns_and_accepted_values(client, staff):
    from pathlib import Path

    client.force_login(staff)
    page = client.get("/inventory/import/").content.decode()
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text()
    for text in (page, readme):
        assert "system_id, parcel_id, system_type, owner_name" in text
        assert "holding_tank" in text and "active, failing, abandoned, replaced" in text
        assert "6/30/1987" in text and "two-digit year" in text and "--strict" in text


# -- a bad optional cell --------------------------------------------------------------------------------

@pytest.mark.parametrize("column, cell", [
    ("bedrooms", "lots"), ("installed_on", "yesterday"), ("last_serviced_on", "2030-01-01"), ("status", "sleeping"),
    ("tank_capacity_gallons", "-5"), ("sewered", "maybe"), ("latitude", "91"), ("language", "Klingon"),
])
def test_a_bad_optional_cell_is_left_empty_and_the_system_kept_with_a_warning(dane, write_csv, column, cell):
    result = counted(one(dane, write_csv, column, cell))
    assert (result.created, result.rejected, result.warnings) == (1, 0, 1)
    warning = result.warnings_preview[0]
    assert (warning["line"], warning["column"], warning["value"]) == (2, column, cell)
    assert f"{column} '{cell}'" in warning["warning"] or cell in warning["warning"]
    [row] = rejects_file(result)
    assert row["line"] == "2" and row["reason"].startswith(WARNING_PREFIX) and cell in row["reason"]


@pytest.mark.parametrize("column, cell", [("bedrooms", "lots"), ("installed_on", "yesterday"), ("status", "sleeping")])
def test_strict_rejects_the_row_of_a_bad_optional_cell(dane, write_csv, column, cell):
    result = counted(one(dane, write_csv, column, cell, strict=True))
    assert (result.created, result.rejected, result.warnings) == (0, 1, 0)


def test_a_bad_cell_leaves_the_stored_systems_value_as_it_was(dane, write_csv):
    run(write_csv([[*HEADER, "bedrooms", "status"], ["D-1", "P-1", "mound", "Ann", "3", "failing"]]), dane)
    result = counted(run(write_csv([[*HEADER, "bedrooms", "status"], ["D-1", "P-1", "mound", "Ann", "lots", "??"]],
                                   name="second.csv"), dane))
    assert (result.unchanged, result.warnings) == (1, 2)
    assert (System.objects.get().bedrooms, System.objects.get().status) == (3, "failing")


def test_the_command_line_summary_names_line_column_and_value_of_each_warning(db, cli, write_csv):
    path = write_csv([[*HEADER, "bedrooms"], ["D-1", "P-1", "mound", "Ann", "lots"]])
    code, out, _ = cli("import", "inventory", str(path), "--jurisdiction", "dane")
    assert code == 0 and "1 were created" in out and "1 warning(s)" in out
    assert "warning, line 2: bedrooms 'lots' is not a number; left empty" in out


@pytest.mark.parametrize("cell", ["N/A", "n/a", "-", "none", "UNKNOWN", "Unknown"])
def test_na_dash_none_and_unknown_mean_an_empty_cell(dane, write_csv, cell):
    result = counted(one(dane, write_csv, "bedrooms", cell))
    assert (result.created, result.warnings) == (1, 0) and System.objects.get().bedrooms is None


def test_a_word_that_is_not_an_empty_marker_is_a_warning(dane, write_csv):
    assert one(dane, write_csv, "bedrooms", "not known").warnings == 1


def test_an_empty_marker_in_a_required_column_is_an_empty_required_cell(dane, write_csv):
    result = run(write_csv([HEADER, ["D-1", "N/A", "mound", "Ann"]]), dane)
    assert result.rejected == 1 and result.rejects_preview[0]["reason"] == "parcel_id is empty ('N/A' means no value)"


# -- dates -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("cell, stored", [("2017", dt.date(2017, 12, 31)), ("6/2017", dt.date(2017, 6, 30)),
                                          ("June 2017", dt.date(2017, 6, 30)), ("2017-06-15", dt.date(2017, 6, 15))])
def test_a_bare_year_or_month_for_last_serviced_on_is_the_periods_last_day(dane, write_csv, cell, stored):
    result = counted(one(dane, write_csv, "last_serviced_on", cell))
    assert result.created == 1 and System.objects.get().last_serviced_on == stored
    assert result.warnings == (0 if cell == "2017-06-15" else 1)  # the day was not known: said so


def test_a_bare_year_for_last_serviced_on_is_refused_when_strict(dane, write_csv):
    assert one(dane, write_csv, "last_serviced_on", "2017", strict=True).rejected == 1


@pytest.mark.parametrize("cell, stored", [
    ("3/7/26", dt.date(2026, 3, 7)),    # 26 is not after this year (2026): this century
    ("3/7/27", dt.date(1927, 3, 7)),    # 27 would be after this year: the century before
    ("3/7/87", dt.date(1987, 3, 7)),
    ("6/87", dt.date(1987, 6, 30)),
])
def test_a_two_digit_year_is_read_by_the_pivot_on_this_year_and_reported(dane, write_csv, cell, stored):
    result = counted(one(dane, write_csv, "installed_on", cell))
    assert result.created == 1 and System.objects.get().installed_on == stored
    assert result.warnings == 1 and "has a two-digit year; read as" in result.warnings_preview[0]["warning"]


def test_a_two_digit_year_is_refused_when_strict(dane, write_csv):
    result = one(dane, write_csv, "installed_on", "3/7/87", strict=True)
    assert result.rejected == 1 and "two-digit year" in result.rejects_preview[0]["reason"]


@pytest.mark.parametrize("cell, stored", [("March 7, 1987", dt.date(1987, 3, 7)), ("07-Mar-1987", dt.date(1987, 3, 7)),
                                          ("03-07-1987", dt.date(1987, 3, 7)), ("1987/03/07", dt.date(1987, 3, 7)),
                                          ("19870307", dt.date(1987, 3, 7))])
def test_other_date_styles_of_county_exports_are_read(dane, write_csv, cell, stored):
    result = one(dane, write_csv, "installed_on", cell)
    assert (result.created, result.warnings) == (1, 0) and System.objects.get().installed_on == stored


def test_a_refusal_comparing_two_dates_shows_both(dane, write_csv):
    result = run(write_csv([[*HEADER, "installed_on", "last_serviced_on"],
                            ["D-1", "P-1", "mound", "Ann", "2003-06-01", "2001-05-01"],
                            ["D-2", "P-2", "mound", "Bob", "2003-06-01", "2003-06-01"]]), dane)
    assert result.created == 1  # the same day is not before
    assert result.rejects_preview[0]["reason"] == "last_serviced_on 2001-05-01 is before installed_on 2003-06-01"


# -- numbers with units ------------------------------------------------------------------------------------

@pytest.mark.parametrize("column, cell, stored", [
    ("tank_capacity_gallons", "750 gal", 750), ("tank_capacity_gallons", "1,000 gallons", 1000),
    ("tank_capacity_gallons", "1,000", 1000), ("design_flow_gpd", "450 gpd", 450), ("bedrooms", "3 br", 3),
])
def test_a_number_with_its_unit_is_read(dane, write_csv, column, cell, stored):
    result = one(dane, write_csv, column, cell)
    assert (result.created, result.warnings) == (1, 0)
    system = System.objects.get()
    value = Component.objects.get(system=system).capacity_gallons if column == "tank_capacity_gallons" else getattr(system, column)
    assert value == stored


@pytest.mark.parametrize("cell, unit", [("2800 L", "litres"), ("3 m3", "cubic metres")])
def test_a_number_in_a_unit_that_is_not_gallons_is_a_warning_not_converted(dane, write_csv, cell, unit):
    result = counted(one(dane, write_csv, "tank_capacity_gallons", cell))
    assert (result.created, result.warnings) == (1, 1)
    assert f"is in {unit}; the column is in gallons; left empty" in result.warnings_preview[0]["warning"]
    assert not Component.objects.filter(capacity_gallons__isnull=False).exists()


# -- repeated ids, system types, --json ----------------------------------------------------------------------

def test_a_repeated_system_id_is_reported_whichever_occurrence_was_rejected(dane, write_csv):
    result = counted(run(write_csv([HEADER, ["D-1", "P-1", "spaceship", "Ann"], ["D-1", "P-2", "mound", "Bob"],
                                    ["D-2", "P-3", "mound", "Cy"], ["D-2", "P-4", "spaceship", "Di"],
                                    ["D-3", "P-5", "spaceship", "Ed"], ["D-3", "P-6", "rocket", "Fu"]]), dane))
    assert (result.created, result.rejected, result.warnings) == (2, 4, 1)
    assert result.warnings_preview[0]["warning"] == (
        "system_id 'D-1' is also on line 2 (parcel_id 'P-1'), which was rejected; this row was kept")
    reasons = {r["line"]: r["reason"] for r in result.rejects_preview}
    assert reasons[5].endswith("; system_id 'D-2' is also on line 4")
    assert reasons[7].endswith("; system_id 'D-3' is also on line 6")


def test_a_refused_system_type_lists_the_accepted_ones(dane, write_csv):
    reason = run(write_csv([HEADER, ["D-1", "P-1", "spaceship", "Ann"]]), dane).rejects_preview[0]["reason"]
    assert reason.startswith("system_type 'spaceship' is not a system type powts knows (accepted: conventional, ")
    assert "holding_tank" in reason and "rv_transfer_container" in reason


def test_json_gives_the_counts_the_warnings_and_the_rejects_files_path(db, cli, write_csv, tmp_path):
    path = write_csv([[*HEADER, "bedrooms"], ["D-1", "P-1", "mound", "Ann", "lots"], ["D-2", "", "mound", "Bob", ""]])
    code, out, _ = cli("import", "inventory", str(path), "--jurisdiction", "dane", "--json", "--rejects", str(tmp_path / "r.csv"))
    data = json.loads(out)
    assert code == 0 and data["rejects_path"] == str(tmp_path / "r.csv")
    assert {k: data[k] for k in ("rows", "created", "rejected", "warnings")} == {"rows": 2, "created": 1, "rejected": 1,
                                                                               "warnings": 1}
    assert data["warnings_shown"][0] == {"line": 2, "column": "bedrooms", "value": "lots",
                                         "warning": "bedrooms 'lots' is not a number; left empty"}


# -- end to end ----------------------------------------------------------------------------------------------

def test_a_messy_legacy_export_keeps_every_row_that_has_its_four_required_values(db, cli, tmp_path):
    """Windows-1252, the county's own headers, several date styles, blank rows, a repeated id, bad optional cells."""
    header = ["Permit #", "PIN", "Sys Type", "Owner", "Install Date", "Last Pumped", "Bedrooms", "Tank Size", "Notes"]
    rows = [
        header,
        ["P-100", "0608-123-4567", "Mound", "José Núñez", "3/7/87", "2017", "N/A", "750 gal", "gate code 12"],
        ["P-101", "0608-123-4568", "Septic", "Zoë Brandt", "1987-06-15", "06/2019", "3", "1,000 gallons", ""],
        ["", "", "", "", "", "", "", "", ""],
        ["P-102", "0608-123-4569", "Holding", "Ann Olson", "1999", "March 4, 2020", "n/a", "2800 L", ""],
        ["P-103", "0608-123-4570", "ATU", "Bob Berg", "12/1/2005", "2021-08-09", "unknown", "-", ""],
        ["P-104", "", "Mound", "Cy Dahl", "2001", "", "", "", "no parcel: rejected"],
        ["P-105", "0608-123-4572", "Spaceship", "Di Eng", "2001", "", "", "", "bad type: rejected"],
        ["P-105", "0608-123-4573", "Mound", "Di Eng", "2002", "", "lots", "", "same id, kept with a warning"],
        ["P-101", "0608-123-4574", "Mound", "Ed Falk", "2003", "", "", "", "repeated id: rejected"],
        ["", "", "", "", "", "", "", "", ""],
        ["P-106", "0608-123-4575", "conventional", "Fay Gund", "6/30/1975", "2001-05-01", "4", "1000", ""],
    ]
    path = tmp_path / "legacy.csv"
    with open(path, "w", newline="", encoding="cp1252") as handle:
        csv.writer(handle).writerows(rows)
    mapping = tmp_path / "map.csv"
    mapping.write_text("file header,column\nPermit #,system_id\nPIN,parcel_id\nSys Type,system_type\nOwner,owner_name\n"
                       "Install Date,installed_on\nLast Pumped,last_serviced_on\nBedrooms,bedrooms\nTank Size,tank_capacity_gallons\n")
    code, out, err = cli("import", "inventory", str(path), "--jurisdiction", "dane", "--map", str(mapping), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert {k: data[k] for k in ("rows", "created", "updated", "unchanged", "rejected")} == {
        "rows": 9, "created": 6, "updated": 0, "unchanged": 0, "rejected": 3}
    assert data["rows"] == data["created"] + data["updated"] + data["unchanged"] + data["rejected"]
    warned = sorted((w["line"], w["column"]) for w in data["warnings_shown"])
    assert warned == [(2, "installed_on"), (2, "last_serviced_on"), (3, "last_serviced_on"), (5, "tank_capacity_gallons"),
                      (9, "bedrooms"), (9, "system_id")]
    assert data["warnings"] == 6
    assert set(System.objects.values_list("system_id", flat=True)) == {"P-100", "P-101", "P-102", "P-103", "P-105", "P-106"}
    jose = System.objects.select_related("parcel__owner").get(system_id="P-100")
    assert jose.parcel.owner.name == "José Núñez" and jose.installed_on == dt.date(1987, 3, 7) and jose.bedrooms is None
    assert Component.objects.get(system=jose).capacity_gallons == 750
    assert System.objects.get(system_id="P-105").extra == {"notes": "same id, kept with a warning"}
    reasons = {r["line"]: r["reason"] for r in csv.DictReader(open(data["rejects_path"], encoding="utf-8"))
               if not r["reason"].startswith(WARNING_PREFIX)}
    assert reasons == {"7": "parcel_id is empty",
                       "8": reasons["8"], "10": "system_id 'P-101' appears twice in this file (first on line 3)"}
    assert reasons["8"].startswith("system_type 'Spaceship' is not a system type powts knows (accepted:")
