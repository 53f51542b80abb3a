"""The owner's letter language as an inventory column (`language`): English, Spanish or
Hmong, by code or name; kept by owners the file does not name a language for; exported and read back unchanged."""
import csv
import datetime as dt

import pytest

from powts.inventory.importing.service import import_inventory
from powts.inventory.models import Owner

TODAY = dt.date(2026, 11, 29)
HEADER = ["system_id", "parcel_id", "system_type", "owner_name", "owner_mailing_address", "language"]


def run(path, jurisdiction, **kw):
    return import_inventory(path=path, jurisdiction=jurisdiction, today=TODAY, **kw)


@pytest.mark.parametrize("written,code", [("es", "es"), ("Spanish", "es"), ("Español", "es"), ("HMN", "hmn"), ("Hmong", "hmn"),
                                          ("Hmoob", "hmn"), ("english", "en"), ("", "en")])
def test_language_column_sets_a_new_owners_letters(dane, write_csv, written, code):
    run(write_csv([HEADER, ["D-1", "P-1", "mound", "Ana Ruiz", "1 Main St\nVerona, WI 53593", written]]), dane)
    assert Owner.objects.get().language == code


def test_an_unknown_language_is_that_rows_reject_naming_the_column_when_strict(dane, write_csv):
    result = run(write_csv([HEADER, ["D-1", "P-1", "mound", "Ana Ruiz", "", "French"],
                            ["D-2", "P-2", "mound", "Bo Lee", "", "hmn"]]), dane, strict=True)
    assert result.counts()["rejected"] == 1 and result.created == 1
    with open(result.rejects_path, newline="", encoding="utf-8") as handle:
        reasons = " ".join(" ".join(row.values()) for row in csv.DictReader(handle))
    assert "language 'French' is not one powts writes letters in (English, Spanish, Hmong)" in reasons


def test_a_later_file_changes_the_language_audited_and_a_file_without_it_keeps_it(dane, write_csv):
    from powts.audit.models import AuditEvent

    run(write_csv([HEADER, ["D-1", "P-1", "mound", "Ana Ruiz", "", "es"]]), dane)
    result = run(write_csv([HEADER, ["D-1", "P-1", "mound", "Ana Ruiz", "", "hmn"]], name="second.csv"), dane)
    owner = Owner.objects.get()
    assert result.counts()["updated"] == 1 and owner.language == "hmn"
    assert AuditEvent.objects.filter(content_type__model="owner", object_id=owner.pk, changes__language=["es", "hmn"]).exists()
    again = run(write_csv([HEADER[:5], ["D-1", "P-1", "mound", "Ana Ruiz", ""]], name="third.csv"), dane)
    assert again.counts()["unchanged"] == 1 and Owner.objects.get().language == "hmn"


def test_export_writes_the_language_and_reimports_unchanged(dane, write_csv, tmp_path):
    from powts.inventory.exporting import export_inventory

    run(write_csv([HEADER, ["D-1", "P-1", "mound", "Ana Ruiz", "1 Main St", "es"]]), dane)
    out = tmp_path / "export.csv"
    export_inventory(jurisdiction=dane, path=out)
    rows = list(csv.DictReader(open(out, newline="", encoding="utf-8")))
    assert rows[0]["language"] == "es"
    assert run(out, dane).counts()["unchanged"] == 1
