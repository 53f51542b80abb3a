"""A site ZIP column: "OriginalZip ... so a site ZIP on the parcel", an import and export column too:
imported, changed by a later file (audited as a parcel change), exported, and an export imports unchanged."""
import csv
import datetime as dt

from powts.audit.models import AuditEvent
from powts.inventory.exporting import export_inventory
from powts.inventory.importing.service import import_inventory
from powts.inventory.models import Parcel

TODAY = dt.date(2026, 11, 29)


def _import(path, dane):
    return import_inventory(path=path, jurisdiction=dane, today=TODAY)


def test_site_zip_imports_updates_exports_and_round_trips(dane, write_csv, tmp_path):
    rows = [["system_id", "parcel_id", "system_type", "owner_name", "site_zip"],
            ["D-1", "P-1", "mound", "Ann", "53593"], ["D-2", "P-2", "mound", "Bob", ""]]
    assert _import(write_csv(rows), dane).created == 2
    assert dict(Parcel.objects.values_list("parcel_number", "site_zip")) == {"P-1": "53593", "P-2": ""}

    rows[1][4] = "53593-1234"
    result = _import(write_csv(rows, name="second.csv"), dane)
    assert (result.updated, result.unchanged) == (1, 1)
    assert Parcel.objects.get(parcel_number="P-1").site_zip == "53593-1234"
    assert AuditEvent.objects.filter(content_type__model="parcel", verb="update").exists()

    out = tmp_path / "export.csv"
    export_inventory(jurisdiction=dane, path=out)
    with open(out, newline="", encoding="utf-8") as handle:
        exported = {r["system_id"]: r for r in csv.DictReader(handle)}
    assert exported["D-1"]["site_zip"] == "53593-1234" and exported["D-2"]["site_zip"] == ""
    assert _import(out, dane).counts()["unchanged"] == 2


def test_a_file_without_the_column_leaves_the_zip_alone(dane, write_csv):
    _import(write_csv([["system_id", "parcel_id", "system_type", "owner_name", "site_zip"], ["D-1", "P-1", "mound", "Ann", "53593"]]), dane)
    _import(write_csv([["system_id", "parcel_id", "system_type", "owner_name"], ["D-1", "P-1", "mound", "Ann"]], name="b.csv"), dane)
    assert Parcel.objects.get(parcel_number="P-1").site_zip == "53593"


def test_an_overlong_zip_is_that_rows_reject(dane, write_csv):
    result = _import(write_csv([["system_id", "parcel_id", "system_type", "owner_name", "site_zip"],
                                ["D-1", "P-1", "mound", "Ann", "5" * 11], ["D-2", "P-2", "mound", "Bob", "53593"]]), dane)
    assert (result.created, result.rejected) == (1, 1)
