"""Importing a county's inventory (Wis. Stat. s. 145.20(5)(am): the county keeps an inventory of all POWTS;
SPS 383.255: it holds the tax parcel number and the owner's name and address). Nothing is lost:
every row is created, updated, unchanged or rejected with its line and reason."""
import csv
import datetime as dt

import pytest

from powts.audit.models import AuditEvent
from powts.inventory.importing.readers import InventoryFileRefused
from powts.inventory.importing.service import import_inventory
from powts.inventory.models import Component, Owner, Ownership, Parcel, System

HEADER = ["system_id", "parcel_id", "system_type", "owner_name", "site_address", "municipality", "installed_on",
          "tank_capacity_gallons"]
TODAY = dt.date(2026, 11, 29)


def run(path, jurisdiction, **kw):
    return import_inventory(path=path, jurisdiction=jurisdiction, today=TODAY, **kw)


def rejects_of(result):
    with open(result.rejects_path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_headers_match_whatever_their_case_and_unknown_columns_are_kept(dane, write_csv):
    path = write_csv([["System ID", "PARCEL_ID", "System Type", "Owner Name", "Legacy Code"],
                      ["D-1", "0810-1", "Mound", "Jane Smith", "X-77"]])
    result = run(path, dane)
    assert result.counts() == {"rows": 1, "created": 1, "updated": 0, "unchanged": 0, "rejected": 0}
    system = System.objects.get(system_id="D-1")
    assert system.system_type == "mound"
    assert system.extra == {"legacy_code": "X-77"}
    assert system.parcel.owner.name == "Jane Smith"


@pytest.mark.parametrize("spelling, expected", [
    ("Mound", "mound"), ("AT-GRADE", "at_grade"), ("At-grade", "at_grade"), ("Holding Tank", "holding_tank"),
    ("ATU", "aerobic_treatment_unit"), ("Aerobic Treatment Unit", "aerobic_treatment_unit"),
    ("In-Ground Pressure", "in_ground_pressure"), ("Septic/Drainfield", "conventional"), ("Gravity", "conventional"),
    ("rv_transfer_container", "rv_transfer_container"),
])
def test_system_type_spellings_county_data_uses(dane, write_csv, spelling, expected):
    run(write_csv([HEADER[:4], ["D-1", "P-1", spelling, "A Owner"]]), dane)
    assert System.objects.get().system_type == expected


@pytest.mark.parametrize("written", ["1978-06-30", "06/30/1978", "6/30/1978", "28671"])
def test_dates_as_iso_us_or_excel_serial(dane, write_csv, written):
    run(write_csv([HEADER[:4] + ["installed_on"], ["D-1", "P-1", "mound", "A", written]]), dane)
    assert System.objects.get().installed_on == dt.date(1978, 6, 30)


def test_bad_rows_go_to_the_rejects_file_with_line_and_reason_and_the_rest_imports(dane, write_csv):
    path = write_csv([
        HEADER,
        ["D-1", "P-1", "Mound", "Jane Smith", "1 Main St", "Town of Dunn", "1977-05-01", "1000"],
        ["D-2", "P-2", "Spaceship", "Bob", "", "", "", ""],
        ["D-3", "P-3", "mound", "Ann", "", "", "1978-13-01", ""],
        ["D-4", "P-4", "mound", "Al", "", "", "", "-5"],
        ["D-1", "P-9", "mound", "Dup", "", "", "", ""],
        ["D-5", "", "mound", "Eve", "", "", "", ""],
        ["D-6", "P-6", "mound", "Fay", "", "", "2027-01-01", ""],
    ])
    result = run(path, dane, strict=True)  # --strict: a bad optional cell rejects its row, as every cell once did
    assert result.counts() == {"rows": 7, "created": 1, "updated": 0, "unchanged": 0, "rejected": 6}
    assert result.rejects_path == str(path.with_name("inventory.rejects.csv"))
    reasons = {r["line"]: r["reason"] for r in rejects_of(result)}
    assert reasons == {
        "3": "system_type 'Spaceship' is not a system type powts knows (accepted: conventional, in_ground_pressure, "
             "mound, at_grade, holding_tank, sand_filter, aerobic_treatment_unit, drip, experimental, pit_privy, "
             "vaulted_privy, composting_toilet, incinerating_toilet, portable_restroom, rv_transfer_container; "
             "common spellings such as septic, holding and ATU too)",
        "4": "installed_on '1978-13-01' is not a date (use YYYY-MM-DD, MM/DD/YYYY, a year such as 1987, or an Excel date)",
        "5": "tank_capacity_gallons '-5' cannot be negative",
        "6": "system_id 'D-1' appears twice in this file (first on line 2)",
        "7": "parcel_id is empty",
        "8": "installed_on 2027-01-01 is in the future",
    }
    first = rejects_of(result)[0]
    assert first["system_id"] == "D-2" and first["owner_name"] == "Bob"  # the original row, as it came
    assert list(System.objects.values_list("system_id", flat=True)) == ["D-1"]


def test_latin1_file_imports(dane, write_csv):
    path = write_csv([HEADER[:4], ["D-1", "P-1", "mound", "José Peña"]], encoding="latin-1")
    result = run(path, dane)
    assert result.created == 1 and result.encoding.startswith("latin-1")
    assert Owner.objects.get().name == "José Peña"


def test_xlsx_with_excel_dates_imports(dane, tmp_path):
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["System_ID", "Parcel_ID", "System_Type", "Owner_Name", "Installed_On", "Bedrooms"])
    sheet.append(["D-1", 81012300010, "Mound", "Jane", dt.datetime(1978, 7, 1), 3])
    sheet.append(["D-2", "0810-2", "Holding Tank", "Bob", 28671, None])
    path = tmp_path / "county.xlsx"
    book.save(path)
    result = run(path, dane)
    assert result.created == 2
    assert System.objects.get(system_id="D-1").installed_on == dt.date(1978, 7, 1)
    assert System.objects.get(system_id="D-1").parcel.parcel_number == "81012300010"
    assert System.objects.get(system_id="D-2").installed_on == dt.date(1978, 6, 30)


@pytest.mark.parametrize("content, message", [
    (b"system_id,parcel_id,owner_name\nD-1,P-1,A\n", "missing required column system_type"),
    (b"", "is empty"),
    ("system_id,parcel_id\n".encode("utf-16"), "UTF-16"),
])
def test_a_file_that_cannot_be_imported_is_refused_whole_and_nothing_is_written(dane, tmp_path, content, message):
    path = tmp_path / "bad.csv"
    path.write_bytes(content)
    with pytest.raises(InventoryFileRefused, match=message):
        run(path, dane)
    assert System.objects.count() == 0 and AuditEvent.objects.filter(content_type__model="system").count() == 0


def test_reimporting_the_same_file_reports_every_row_unchanged(dane, write_csv):
    path = write_csv([HEADER, ["D-1", "P-1", "Mound", "Jane", "1 Main", "Dunn", "1990-01-01", "1000"],
                      ["D-2", "P-1", "ATU", "Jane", "1 Main", "Dunn", "", ""]])
    assert run(path, dane).created == 2
    again = run(path, dane)
    assert again.counts() == {"rows": 2, "created": 0, "updated": 0, "unchanged": 2, "rejected": 0}
    assert Parcel.objects.count() == 1  # two systems on one parcel


def test_a_changed_row_updates_the_system_and_the_audit_says_before_and_after(dane, write_csv):
    run(write_csv([HEADER, ["D-1", "P-1", "Mound", "Jane", "1 Main", "Dunn", "1990-01-01", "1000"]], name="jan.csv"), dane)
    result = run(write_csv([HEADER, ["D-1", "P-1", "Mound", "Jane", "1 Main", "Dunn", "1991-02-03", "1500"]], name="feb.csv"), dane)
    assert result.counts()["updated"] == 1
    system = System.objects.get()
    assert system.installed_on == dt.date(1991, 2, 3)
    assert Component.objects.get(system=system).capacity_gallons == 1500
    event = AuditEvent.objects.filter(object_id=system.pk, content_type__model="system", verb="update").get()
    assert event.action == "imported from feb.csv" and event.channel == "import"
    # the version step tells an editor with the system's form open that the import changed it
    assert event.changes == {"installed_on": ["1990-01-01", "1991-02-03"], "version": [1, 2]}


def test_a_new_owner_name_is_an_owner_change_with_history(dane, write_csv):
    run(write_csv([HEADER[:4], ["D-1", "P-1", "mound", "Jane Smith"]], name="a.csv"), dane)
    run(write_csv([HEADER[:4], ["D-1", "P-1", "mound", "Robert Brown"]], name="b.csv"), dane)
    parcel = Parcel.objects.get()
    assert parcel.owner.name == "Robert Brown"
    history = list(Ownership.objects.filter(parcel=parcel).order_by("id").values_list("owner__name", "ended_on"))
    assert history[0][0] == "Jane Smith" and history[0][1] is not None
    assert history[1] == ("Robert Brown", None)
    event = AuditEvent.objects.get(content_type__model="parcel", verb="update")
    assert event.changes == {"owner": ["Jane Smith", "Robert Brown"], "version": [1, 2]}
    assert "owner changed" in event.action


def test_a_dry_run_reports_what_would_happen_and_stores_nothing(dane, write_csv):
    result = run(write_csv([HEADER[:4], ["D-1", "P-1", "mound", "A"], ["D-2", "P-2", "nope", "B"]]), dane, dry_run=True)
    assert result.counts() == {"rows": 2, "created": 1, "updated": 0, "unchanged": 0, "rejected": 1}
    assert System.objects.count() == 0 and Owner.objects.count() == 0 and AuditEvent.objects.filter(content_type__model="system").count() == 0


def test_a_crash_mid_import_leaves_nothing_and_a_rerun_finishes(dane, write_csv, monkeypatch):
    from powts.inventory.importing import service, writer

    monkeypatch.setattr(service, "CHUNK", 2)
    rows = [HEADER[:4]] + [[f"D-{i}", f"P-{i}", "mound", f"Owner {i}"] for i in range(7)]
    path = write_csv(rows)
    real = writer.ChunkWriter.write
    calls = {"n": 0}

    def crash_on_third(self, chunk):
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError("disk full")
        return real(self, chunk)

    monkeypatch.setattr(writer.ChunkWriter, "write", crash_on_third)
    with pytest.raises(OSError):
        run(path, dane)
    assert System.objects.count() == 0 and Parcel.objects.count() == 0 and Owner.objects.count() == 0
    monkeypatch.setattr(writer.ChunkWriter, "write", real)
    assert run(path, dane).created == 7


def test_every_created_record_is_audited_as_an_import(dane, write_csv):
    run(write_csv([HEADER, ["D-1", "P-1", "Mound", "Jane", "1 Main St", "Town of Dunn", "1977-06-30", "1000"]], name="dane-2026-01.csv"), dane)
    system = System.objects.get()
    event = AuditEvent.objects.get(content_type__model="system", object_id=system.pk)
    assert (event.verb, event.channel, event.action) == ("create", "import", "imported from dane-2026-01.csv")
    assert event.changes["installed_on"] == [None, "1977-06-30"]
    assert event.changes["tank_capacity_gallons"] == [None, 1000]
    assert AuditEvent.objects.filter(content_type__model="parcel", verb="create").count() == 1
    assert AuditEvent.objects.filter(content_type__model="owner", verb="create").count() == 1
