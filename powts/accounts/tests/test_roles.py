"""Roles: the county administrator, DSPS and DNR roles, and one helper for "staff of this county"."""
import datetime as dt

import pytest

from powts.accounts.policies import is_county_staff, is_county_staff_of, reads_every_county
from powts.inventory.models import System
from powts.inventory.services import system_create
from powts.maintenance.models import Report
from powts.maintenance.services import report_submit
from powts.permits.models import Permit
from powts.permits.tests.conftest import file_complete


@pytest.fixture
def two_counties(dane, lincoln, make_user):
    from powts.accounts.services import license_create

    pumper = make_user("perry", "pumper")
    license_create(kind="septage_operator", number="SSO-1", holder_name="Perry Pumper", user=pumper)
    plumber = make_user("pete", "plumber")
    master = license_create(kind="master_plumber", number="MP-1", holder_name="Pete Plumber", user=plumber)
    for unit, ref in ((dane, "DA-1"), (lincoln, "LI-1")):
        system_create(jurisdiction=unit, system_id=ref, parcel_number=f"P-{ref}", system_type="conventional", owner_name="Ann",
                      installed_on=dt.date(2015, 1, 1))
        report_submit(jurisdiction=unit, data={"system_id": ref, "kind": "pumping", "work_date": "2026-01-05",
                                               "license_number": "SSO-1"}, filed_by=pumper)
        file_complete(unit, master)
    return dane, lincoln


@pytest.mark.parametrize("model", [System, Permit, Report])
def test_county_admin_sees_and_changes_only_their_county(two_counties, make_user, model):
    """A county administrator may do "everything county staff may do in their own county ... sees no other county"."""
    dane, _ = two_counties
    admin = make_user("ada", "county_admin", dane)
    for action in ("view", "change"):
        assert set(model.objects.restrict(admin, action).values_list("jurisdiction__slug", flat=True)) == {"dane"}


@pytest.mark.parametrize("model", [System, Permit, Report])
def test_dsps_reads_every_county_and_changes_nothing(two_counties, make_user, model):
    """DSPS reads every county and writes nothing here."""
    dsps = make_user("dee", "dsps")
    assert set(model.objects.restrict(dsps, "view").values_list("jurisdiction__slug", flat=True)) == {"dane", "lincoln"}
    assert not model.objects.restrict(dsps, "change").exists()


@pytest.mark.parametrize("model,reads", [(System, True), (Report, True), (Permit, False)])
def test_dnr_reads_systems_and_maintenance_reports_only(two_counties, make_user, model, reads):
    """DNR, "read-only for now on county records it needs": systems and maintenance (septage) reports, no permits."""
    dnr = make_user("dan", "dnr")
    expected = {"dane", "lincoln"} if reads else set()
    assert set(model.objects.restrict(dnr, "view").values_list("jurisdiction__slug", flat=True)) == expected
    assert not model.objects.restrict(dnr, "change").exists()


def test_one_helper_decides_county_staff(dane, lincoln, make_user):
    """A county administrator counts as county staff everywhere staff is checked (one helper)."""
    staff, admin = make_user("sam", "county_staff", dane), make_user("ada", "county_admin", dane)
    for user in (staff, admin):
        assert is_county_staff(user) and user.is_county_staff and user.is_county_staff_of(dane.pk)
        assert not is_county_staff_of(user, lincoln.pk)
    for role in ("state_auditor", "dsps", "dnr", "plumber", "pumper", "soil_tester", "owner"):
        user = make_user(role, role)
        assert not is_county_staff(user) and not is_county_staff_of(user, dane.pk)
        assert reads_every_county(user) is (role in ("state_auditor", "dsps"))
    homeless = make_user("nohome", "county_staff")  # staff with no county on record act for none
    assert not is_county_staff(homeless) and not System.objects.restrict(homeless).exists()
