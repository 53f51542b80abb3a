"""Standards spoken exactly: the BLDS permits export has every column of BLDS's core
permits dataset, dates as YYYY-MM-DD, and StatusCurrentMapped only from BLDS's standard values.

The columns and the standard status values are written out here from their source, not read from the
code under test: the Building & Land Development Specification (permitdata.org, "BLDS Data Spec",
core permits dataset: required, recommended and optional fields; StatusCurrentMapped's standard list).
"""
import csv
import datetime as dt
import io
import re

import pytest

from powts.permits import choices as c
from powts.permits import exports
from powts.permits.models import Permit
from powts.permits.tests.conftest import file_complete, issue

# BLDS core permits: required fields
BLDS_REQUIRED = ["PermitNum", "Description", "AppliedDate", "IssuedDate", "CompletedDate", "StatusCurrent",
                 "OriginalAddress1", "OriginalAddress2", "OriginalCity", "OriginalState", "OriginalZip"]
# BLDS core permits: recommended fields
BLDS_RECOMMENDED = ["Jurisdiction", "PermitClass", "PermitClassMapped", "StatusCurrentMapped", "StatusDate", "WorkClass",
                    "WorkClassMapped", "PermitType", "PermitTypeMapped", "PermitTypeDesc", "EstProjectCost",
                    "ContractorCompanyName", "ContractorTrade", "ContractorTradeMapped", "ContractorLicNum",
                    "ContractorStateLic", "Latitude", "Longitude", "PIN", "HousingUnits", "TotalSqFt", "Link"]
# BLDS StatusCurrentMapped: the standard values
BLDS_STATUS_STANDARD = {"Appeal", "Application Accepted", "Fees/Payment", "In Review", "Inspection Phase", "Occupancy",
                        "Permit Cancelled", "Permit Finaled", "Permit Finaled with Conditions", "Permit Issued"}
DATE_COLUMNS = ["AppliedDate", "IssuedDate", "CompletedDate", "StatusDate", "ExpiresDate"]


def _rows(client, staff):
    client.force_login(staff)
    response = client.get("/api/permits/export.csv")
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_every_blds_core_column_is_there(dane, staff, master, client):
    file_complete(dane, master)
    header = list(_rows(client, staff)[0])
    missing = [f for f in BLDS_REQUIRED + BLDS_RECOMMENDED if f not in header]
    assert missing == []
    assert header[:len(BLDS_REQUIRED)] == BLDS_REQUIRED  # the required ones first, in the specification's order


def test_original_city_and_zip_come_from_the_parcel(dane, staff, master, client):
    permit = issue(dane, master)
    permit.parcel.municipality, permit.parcel.site_zip = "Town of Verona", "53593"
    permit.parcel.save()
    row = _rows(client, staff)[0]
    assert (row["OriginalCity"], row["OriginalZip"], row["OriginalState"]) == ("Town of Verona", "53593", "WI")


def test_a_parcel_without_a_zip_gives_an_empty_cell_not_a_missing_column(dane, staff, master, client):
    file_complete(dane, master)
    row = _rows(client, staff)[0]
    assert row["OriginalZip"] == "" and "OriginalZip" in row


def test_dates_are_yyyy_mm_dd(dane, staff, master, client):
    issue(dane, master, issued_on=dt.date(2026, 4, 1))
    row = _rows(client, staff)[0]
    assert row["AppliedDate"] == "2026-03-02" and row["IssuedDate"] == "2026-04-01" and row["StatusDate"] == "2026-04-01"
    for column in DATE_COLUMNS:
        assert row[column] == "" or re.fullmatch(r"\d{4}-\d{2}-\d{2}", row[column]), (column, row[column])


@pytest.mark.parametrize("status", list(c.PermitStatus))
def test_status_mapped_only_to_blds_standard_values(status):
    assert exports.BLDS_STATUS[status] in BLDS_STATUS_STANDARD


@pytest.mark.parametrize("status, mapped", [(c.PermitStatus.HELD, "In Review"), (c.PermitStatus.EXPIRED, "Permit Cancelled"),
                                            (c.PermitStatus.REVOKED, "Permit Cancelled")])
def test_county_words_without_a_standard_value_keep_their_word_in_status_current(dane, staff, master, client, status, mapped):
    """Today's "Application Incomplete", "Permit Expired", "Permit Revoked" were not BLDS values."""
    permit = file_complete(dane, master)
    Permit.objects.filter(pk=permit.pk).update(status=status)
    row = _rows(client, staff)[0]
    assert row["StatusCurrentMapped"] == mapped
    assert row["StatusCurrent"] == status.label  # the county's own word


def test_json_export_carries_the_same_columns(dane, staff, master, client):
    file_complete(dane, master)
    client.force_login(staff)
    permits = client.get("/api/permits/export.blds.json").json()["permits"]
    assert set(BLDS_REQUIRED + BLDS_RECOMMENDED) <= set(permits[0])
