"""Search by parcel, id, a piece of the address or the owner's name; and each role sees only its rows."""
import datetime as dt

import pytest

from powts.inventory.models import Assignment, Owner, System
from powts.inventory.search import search
from powts.inventory.services import system_create


@pytest.fixture
def systems(dane, lincoln):
    a = system_create(jurisdiction=dane, system_id="DA-0001", parcel_number="0810-123-4567-0", system_type="mound",
                      owner_name="Margaret Schultz", site_address="4417 Oak Ridge Dr", municipality="Town of Verona")
    b = system_create(jurisdiction=dane, system_id="DA-0002", parcel_number="0711-222-0001-0", system_type="conventional",
                      owner_name="Tom Vang", site_address="12 Lake Rd", municipality="Town of Dunn")
    c = system_create(jurisdiction=lincoln, system_id="LI-0001", parcel_number="020-3106-123", system_type="holding_tank",
                      owner_name="Northwoods Resort LLC", site_address="N1234 Lake Rd", municipality="Town of King")
    return a, b, c


@pytest.mark.parametrize("query, expected", [
    ("4567", ["DA-0001"]),             # a piece of the parcel number
    ("0810-123-4567-0", ["DA-0001"]),   # the whole parcel number
    ("DA-0002", ["DA-0002"]),           # the system id
    ("oak ridge", ["DA-0001"]),         # a piece of the address, any case
    ("schultz", ["DA-0001"]),           # the owner's last name
    ("lake rd", ["DA-0002", "LI-0001"]),
    ("lake vang", ["DA-0002"]),         # every word must match
    ("DA", ["DA-0001", "DA-0002"]),     # too short for the index: start of an id
    ("nobody", []),
])
def test_search(systems, query, expected):
    assert sorted(search(System.objects.all(), query).values_list("system_id", flat=True)) == expected


def test_search_follows_an_owner_change(systems):
    from powts.inventory.services import owner_get_or_create, parcel_change_owner

    a = systems[0]
    parcel_change_owner(parcel=a.parcel, owner=owner_get_or_create(jurisdiction=a.jurisdiction, name="Henrik Olafsen", action="test"))
    assert list(search(System.objects.all(), "olafsen").values_list("system_id", flat=True)) == ["DA-0001"]
    assert list(search(System.objects.all(), "schultz")) == []


def test_county_staff_see_their_county_only(systems, staff):
    assert sorted(System.objects.restrict(staff).values_list("system_id", flat=True)) == ["DA-0001", "DA-0002"]


def test_state_auditor_sees_every_county_and_changes_nothing(systems, make_user):
    auditor = make_user("alex", "state_auditor")
    assert System.objects.restrict(auditor).count() == 3
    assert System.objects.restrict(auditor, "change").count() == 0


def test_owner_sees_only_their_own_systems(systems, make_user):
    olive = make_user("margaret", "owner")
    Owner.objects.filter(name="Margaret Schultz").update(user=olive)
    assert list(System.objects.restrict(olive).values_list("system_id", flat=True)) == ["DA-0001"]
    assert System.objects.restrict(olive, "change").count() == 0


def test_contractor_sees_only_what_they_were_assigned(systems, make_user):
    pumper = make_user("perry", "pumper")
    assert System.objects.restrict(pumper).count() == 0
    Assignment.objects.create(system=systems[1], user=pumper, assigned_on=dt.date(2026, 11, 1))
    assert list(System.objects.restrict(pumper).values_list("system_id", flat=True)) == ["DA-0002"]


def test_anonymous_sees_nothing(systems):
    from django.contrib.auth.models import AnonymousUser

    assert System.objects.restrict(AnonymousUser()).count() == 0
