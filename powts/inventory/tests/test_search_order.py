"""Issue 13, item 5: a common name alone under 50 ms at 1,000,000 systems: "rank and limit in the index;
no sort over all matches". Matches come in the order the systems were entered (their id), so the first
page is the first matches the index reads; both sides of the page size; the county scope kept."""
import pytest
from django.db import connection

from powts.inventory.models import System
from powts.inventory.search import search
from powts.inventory.services import system_create
from powts.maintenance.selectors import systems_by_address


def _add(jurisdiction, system_id, owner, n):
    return system_create(jurisdiction=jurisdiction, system_id=system_id, parcel_number=f"0810-123-{n:04d}-0",
                         system_type="mound", owner_name=owner, site_address=f"{100 + n} Oak Ridge Dr",
                         municipality="Town of Verona")


@pytest.fixture
def olsons(dane, lincoln):
    """Olsons in two counties, entered so that the system id order is the reverse of the entry order."""
    made = []
    for n in range(12):
        made.append(_add(dane, f"DA-{99 - n:04d}", "Mary Olson", n))
        made.append(_add(lincoln, f"LI-{99 - n:04d}", "Karl Olson", 100 + n))
    _add(dane, "DA-5000", "Tom Vang", 500)
    return made


def test_matches_come_in_entry_order_not_sorted_by_system_id(olsons, dane):
    found = list(search(System.objects.filter(jurisdiction=dane), "olson").values_list("id", flat=True))
    assert found == sorted(found)
    assert len(found) == 12


@pytest.mark.parametrize("limit", [5, 12, 30])  # fewer than the matches, exactly as many, more
def test_the_first_page_is_the_first_matches_of_the_county(olsons, dane, limit):
    in_county = [s.pk for s in olsons if s.jurisdiction_id == dane.pk]
    page = list(search(System.objects.filter(jurisdiction=dane), "olson").values_list("id", flat=True)[:limit])
    assert page == in_county[:limit]  # none of the other county's Olsons, none skipped


def test_a_caller_that_sorts_still_may(olsons, dane):
    found = list(search(System.objects.filter(jurisdiction=dane), "olson").order_by("system_id")
                 .values_list("system_id", flat=True)[:3])
    assert found == ["DA-0088", "DA-0089", "DA-0090"]


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's FTS5 plan")
def test_sqlite_reads_the_index_in_order_and_sorts_nothing(olsons, dane):
    """Before: `id IN (SELECT rowid ...)` then ORDER BY system_id: every match collected and sorted."""
    qs = search(System.objects.filter(jurisdiction=dane).select_related("parcel", "parcel__owner"), "mary olson")[:26]
    sql, params = qs.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        plan = [row[-1] for row in cursor.fetchall()]
    assert "TEMP B-TREE" not in " ".join(plan), plan
    assert plan[0].startswith("SCAN inventory_system_fts VIRTUAL TABLE"), plan


def test_the_list_page_shows_a_search_in_index_order_and_sorts_when_asked(client, staff, olsons):
    client.force_login(staff)
    page = client.get("/inventory/", {"q": "olson"}).content.decode()
    assert page.index("DA-0099") < page.index("DA-0088")  # entered first, listed first
    page = client.get("/inventory/", {"q": "olson", "sort": "system_id"}).content.decode()
    assert page.index("DA-0088") < page.index("DA-0099")
    page = client.get("/inventory/").content.decode()  # no search: sorted by system id as before
    assert page.index("DA-0088") < page.index("DA-0099")


def test_the_report_forms_lookup_gives_the_first_matches_of_the_filers_county(olsons, staff):
    found = systems_by_address(user=staff, query="olson", limit=3)
    assert [f["system_id"] for f in found] == ["DA-0099", "DA-0098", "DA-0097"]


def test_the_api_search_keeps_the_county_and_the_order(client, staff, olsons):
    client.force_login(staff)
    body = client.get("/api/systems/", {"q": "olson", "limit": 4}).json()
    assert [r["system_id"] for r in body["results"]] == ["DA-0099", "DA-0098", "DA-0097", "DA-0096"]
