"""Wis. Stat. s. 145.20(6)(a): a county's reviewers and inspectors may not do certified work (1., soil testing), nor
install, design, maintain, repair or sell a system (2.) in their county or an adjacent county; (b): except on property they own outside the county
they work for. Adjacent counties are in each county's profile (adjacent_counties)."""
import datetime as dt

import pytest

from powts.accounts.conflicts import ConflictRefused, adjacent_counties
from powts.accounts.services import license_create
from powts.inventory.models import Owner
from powts.jurisdictions.models import Jurisdiction
from powts.permits.models import Permit
from powts.permits.tests.conftest import file_complete, make_parcel

D = dt.date


@pytest.fixture
def columbia(db):
    return Jurisdiction.objects.create(slug="columbia", name="Columbia County", profile_slug="state")


@pytest.fixture
def employee_plumber(make_user, dane):
    user = make_user("ivan", "county_staff", dane, first_name="Ivan", last_name="Inspector")
    return license_create(kind="master_plumber", number="MP-7007", holder_name="Ivan Inspector", user=user)


def test_adjacent_counties_come_from_the_profiles():
    assert "columbia" in adjacent_counties("dane") and "oneida" in adjacent_counties("lincoln")
    assert "lincoln" not in adjacent_counties("dane")


def test_145_20_6_a_not_in_the_county_they_work_for(dane, employee_plumber):
    """s. 145.20(6)(a): in the county the employee works for, refused, even on their own property ((b) is "outside")."""
    from powts.permits import services

    parcel, owner = make_parcel(dane, number="D-1", owner_name="Ivan Inspector")
    with pytest.raises(ConflictRefused) as exc:
        services.permit_file(jurisdiction=dane, parcel=parcel, owner=owner, plumber=employee_plumber, filed_on=D(2026, 3, 2),
                             building_use="single-family dwelling", bedrooms=3)
    assert exc.value.citation == "Wis. Stat. s. 145.20(6)(a)"
    assert not Permit.objects.exists()


@pytest.mark.parametrize("own,allowed", [(True, True), (False, False)])
def test_145_20_6_b_own_property_in_an_adjacent_county(columbia, employee_plumber, own, allowed):
    """s. 145.20(6)(a) "or in an adjacent county": refused for someone else's property next door; (b): allowed on
    the employee's own property outside Dane."""
    from powts.accounts.conflicts import refuse_employee_work_nearby

    owner_name = "Ivan Inspector" if own else "Pat Neighbour"
    _, owner = make_parcel(columbia, number="C-1", owner_name=owner_name)
    kw = dict(license=employee_plumber, jurisdiction=columbia, owner=owner, what="install a system")
    if allowed:
        assert refuse_employee_work_nearby(**kw) is None
    else:
        with pytest.raises(ConflictRefused) as exc:
            refuse_employee_work_nearby(**kw)
        assert "next to Dane County" in exc.value.message


def test_145_20_6_a_a_county_not_adjacent_is_not_barred(lincoln, employee_plumber):
    """Lincoln does not border Dane: a Dane employee's licensed work there is not barred by s. 145.20(6)(a)."""
    assert file_complete(lincoln, employee_plumber).pk


def test_145_20_6_a_1_soil_testing_next_door_is_barred(columbia, make_user, dane):
    """s. 145.20(6)(a)1.: certified work (soil testing) by a Dane employee in Columbia is refused."""
    from powts.permits.services import site

    user = make_user("sally", "county_staff", dane, first_name="Sally", last_name="Soils")
    tester = license_create(kind="soil_tester", number="CST-9", holder_name="Sally Soils", user=user)
    parcel, _ = make_parcel(columbia, number="C-2")
    with pytest.raises(ConflictRefused):
        site.soil_evaluation_file(jurisdiction=columbia, parcel=parcel, soil_tester=tester, fieldwork_completed_on=D(2026, 5, 1),
                                  filed_on=D(2026, 5, 2), areas=[{"name": "Primary", "pits": 3}])


def test_a_plumber_who_is_not_a_county_employee_is_not_barred(dane, master):
    assert file_complete(dane, master).pk
    assert Owner.objects.exists()


def test_145_20_6_a_2_the_refusal_names_every_activity_of_the_text(dane, employee_plumber):
    """s. 145.20(6)(a)2. reads "Install, design, maintain, repair, or sell": the refusal says all five, cited to (6)(a)."""
    from powts.accounts.conflicts import refuse_employee_work_nearby

    _, owner = make_parcel(dane, number="D-2", owner_name="Pat Neighbour")
    with pytest.raises(ConflictRefused) as exc:
        refuse_employee_work_nearby(license=employee_plumber, jurisdiction=dane, owner=owner, what="sell a septic tank")
    assert "install, design, maintain, repair or sell systems" in exc.value.message
    assert "certified work" in exc.value.message
    assert exc.value.citation == "Wis. Stat. s. 145.20(6)(a)"


def test_145_20_6_a_2_the_state_profile_quotes_the_activities_from_the_text():
    """The profile's words for (6)(a)2. are the statute's, "sell" included."""
    from powts.kernel.profiles import load_profile

    conflicts = load_profile("state")["oversight"]["conflicts"]
    assert conflicts["citation"] == "Wis. Stat. s. 145.20(6)(a)"
    assert "maintain, repair, or sell" in conflicts["activities_quote"]
