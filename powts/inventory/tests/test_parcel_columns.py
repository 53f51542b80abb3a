"""A parcel's legal description and sewered flag (SPS 383.255: the inventory holds the
parcel's legal description) are import and export columns as well as fields of the parcel's edit form."""
import datetime as dt

import pytest

from powts.inventory.exporting import export_inventory
from powts.inventory.importing.service import import_inventory
from powts.inventory.models import Parcel

HEADER = ["system_id", "parcel_id", "system_type", "owner_name", "legal_description", "sewered"]
TODAY = dt.date(2026, 11, 29)


def run(path, jurisdiction, **kw):
    return import_inventory(path=path, jurisdiction=jurisdiction, today=TODAY, **kw)


def test_import_export_and_reimport_keep_the_legal_description_and_sewered_flag(dane, write_csv, tmp_path):
    legal = "NE 1/4 of the SW 1/4, Sec. 12, T6N, R9E"
    result = run(write_csv([HEADER, ["D-1", "P-1", "Mound", "Jane", legal, "yes"], ["D-2", "P-2", "Mound", "Tom", "", "no"]]), dane)
    assert result.counts()["created"] == 2
    assert Parcel.objects.get(parcel_number="P-1").legal_description == legal
    assert list(Parcel.objects.order_by("parcel_number").values_list("sewered", flat=True)) == [True, False]
    exported = tmp_path / "out.csv"
    export_inventory(jurisdiction=dane, path=exported)
    header = exported.read_text().splitlines()[0].split(",")
    assert header[header.index("legal_description"):][:2] == ["legal_description", "sewered"]
    assert run(exported, dane).counts()["unchanged"] == 2


def test_a_changed_sewered_flag_updates_the_parcel(dane, write_csv):
    run(write_csv([HEADER, ["D-1", "P-1", "Mound", "Jane", "", "no"]], name="jan.csv"), dane)
    result = run(write_csv([HEADER, ["D-1", "P-1", "Mound", "Jane", "Lot 4", "Y"]], name="feb.csv"), dane)
    assert result.counts()["updated"] == 1
    parcel = Parcel.objects.get()
    assert (parcel.sewered, parcel.legal_description) == (True, "Lot 4")


@pytest.mark.parametrize("cell", ["maybe", "2"])
def test_a_sewered_cell_that_is_not_yes_or_no_rejects_the_row_when_strict(dane, write_csv, cell):
    result = run(write_csv([HEADER, ["D-1", "P-1", "Mound", "Jane", "", cell]]), dane, strict=True)
    assert result.counts()["rejected"] == 1 and not Parcel.objects.exists()
    assert f"sewered '{cell}' is not yes or no" in open(result.rejects_path).read()
