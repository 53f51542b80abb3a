"""Wis. Stat. s. 145.20(6)(a)-(b) on pumpers' reports: a county's reviewers and inspectors may not "maintain" a
system in the county they work for or an adjacent county (the county profile's adjacent_counties), except on
property they own outside their county. A report of such work under their licence is refused, naming the licence
field and the citation, and nothing is stored; a non-adjacent county, or a pumper who is not a county employee,
files as before."""
import datetime as dt

import pytest

from powts.accounts.services import license_create
from powts.jurisdictions.models import Jurisdiction
from powts.maintenance.errors import MaintenanceRefused
from powts.maintenance.models import Report
from powts.maintenance.services import report_submit

D = dt.date


@pytest.fixture
def columbia(db):
    return Jurisdiction.objects.create(slug="columbia", name="Columbia County", profile_slug="state")


@pytest.fixture
def employee_pumper(make_user, dane):
    user = make_user("ivy", "county_staff", dane, first_name="Ivy", last_name="Inspector")
    return license_create(kind="septage_operator", number="SSO-77", holder_name="Ivy Inspector", user=user)


def _file(jurisdiction, system_id, lic, filer=None):
    return report_submit(jurisdiction=jurisdiction, filed_by=filer, now=dt.datetime(2026, 5, 4, 12, tzinfo=dt.UTC),
                         data={"system_id": system_id, "kind": "pumping", "work_date": "2026-05-01",
                               "license_number": lic.number, "gallons_pumped": "900"})


def test_145_20_6_a_a_dane_employees_pumping_report_in_dane_is_refused(dane, make_system, employee_pumper):
    make_system(system_id="DA-1")
    with pytest.raises(MaintenanceRefused) as exc:
        _file(dane, "DA-1", employee_pumper)
    assert "Wis. Stat. s. 145.20(6)(a)" in exc.value.errors["license_number"][0]
    assert not Report.objects.exists()


@pytest.mark.parametrize("owner, allowed", [("Pat Neighbour", False), ("Ivy Inspector", True)])
def test_145_20_6_a_b_in_an_adjacent_county_only_on_their_own_property(columbia, make_system, employee_pumper, owner, allowed):
    """Columbia borders Dane: someone else's tank is refused; the employee's own tank there is allowed ((b))."""
    make_system(system_id="CO-1", jurisdiction=columbia, owner=owner)
    if allowed:
        assert _file(columbia, "CO-1", employee_pumper).created
    else:
        with pytest.raises(MaintenanceRefused) as exc:
            _file(columbia, "CO-1", employee_pumper)
        assert "next to Dane County" in exc.value.errors["license_number"][0]
        assert not Report.objects.exists()


def test_145_20_6_a_a_county_not_adjacent_is_not_restricted(lincoln, make_system, employee_pumper):
    """Lincoln does not border Dane: the Dane employee's report there is accepted."""
    make_system(system_id="LC-1", jurisdiction=lincoln)
    assert _file(lincoln, "LC-1", employee_pumper).created


def test_a_pumper_who_is_not_a_county_employee_files_as_before(dane, make_system, make_user):
    lic = license_create(kind="septage_operator", number="SSO-78", holder_name="Sal Septage", user=make_user("sal", "pumper"))
    make_system(system_id="DA-2")
    assert _file(dane, "DA-2", lic, filer=lic.user).created
