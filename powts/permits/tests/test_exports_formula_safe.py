"""Every text cell of the permits and inspections CSV is formula-safe (finding "Formula injection in exports ...
permit fields starting with `=`, `@`, `+`, `-` come out raw in ... the permits CSV")."""
import csv
import io

from powts.accounts.services import license_create
from powts.permits import exports
from powts.permits.models import Permit
from powts.permits.tests.conftest import file_complete


def test_permits_csv_prefixes_formula_cells(dane, staff, client):
    plumber = license_create(kind="master_plumber", number="MP-7007", holder_name="@SUM(1)", business_name="=HYPERLINK(\"x\")")
    permit = file_complete(dane, plumber, building_use="-1+2 family dwelling")
    permit.parcel.site_address = "+1 County Rd"
    permit.parcel.parcel_number = "\t=1"
    permit.parcel.save()
    client.force_login(staff)
    response = client.get("/api/permits/export.csv")
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 1
    row = rows[0]
    assert row["ContractorCompanyName"] == "'=HYPERLINK(\"x\")"
    assert row["PermitClass"] == row["ProposedUse"] == "'-1+2 family dwelling"
    assert row["OriginalAddress1"] == "'+1 County Rd" and row["PIN"] == "'\t=1"
    # The other side: ordinary cells are as they were.
    assert row["PermitNum"] == permit.number and row["OriginalState"] == "WI" and row["AppliedDate"] == "2026-03-02"


def test_csv_headers_are_guarded_too(dane, master):
    """The header row goes through the same writer (fields here are fixed names; a formula-like one is prefixed)."""
    file_complete(dane, master)
    response = exports._csv([{"=x": "@y", "ok": "-1+2"}], ["=x", "ok"], "t.csv")
    assert response.content.decode() == "'=x,ok\n'@y,'-1+2\n"
    assert exports.response(Permit.objects.all(), "csv").content.decode().startswith("PermitNum,Description,")
