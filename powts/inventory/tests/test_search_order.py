"""Search speed: a common name alone under 50 ms at 1,000,000 systems: "rank and limit in the index;
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


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's FTS5 plan")
def test_the_lists_total_of_a_search_reads_the_index_as_the_outer_loop(olsons, dane, monkeypatch):
    """The list's total (powts.core.lists.total, at most 10,001 ids) of a search: before, with the search's order
    dropped, SQLite walked every system of the county and asked the full-text index about each one (5 s and more
    for "mary olson" at 1,000,000 systems); the count itself is unchanged."""
    from django.test.utils import CaptureQueriesContext

    from powts.core import lists

    qs = search(System.objects.filter(jurisdiction=dane).select_related("parcel", "parcel__owner"), "mary olson")
    with CaptureQueriesContext(connection) as asked:
        found = lists.total(qs)
    assert (found.n, found.exact) == (12, True)
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + asked.captured_queries[-1]["sql"])
        plan = [row[-1] for row in cursor.fetchall()]
    scans = [step for step in plan if step.startswith(("SCAN", "SEARCH"))]
    assert scans[0].startswith("SCAN inventory_system_fts VIRTUAL TABLE"), plan
    monkeypatch.setattr(lists, "COUNT_LIMIT", 5)  # both sides of the limit: 12 matches against 5
    assert str(lists.total(qs)) == "more than 5"


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


@pytest.fixture
def twins(dane):
    """Two systems whose ids share their digits ("DA-0995555", "LI-0995555" in one county) and a third
    whose address holds the digits alone."""
    return {"da": _add(dane, "DA-0995555", "Ann Berg", 1), "li": _add(dane, "LI-0995555", "Ann Berg", 2),
            "digits": system_create(jurisdiction=dane, system_id="DA-7", parcel_number="0810-999-0001-0", system_type="mound",
                                    owner_name="Ann Berg", site_address="0995555 Lake Rd", municipality="Town of Verona")}


@pytest.mark.parametrize(("query", "expected"), [
    ("DA-0995555", ["da"]),  # the short word and the dash count: not the other prefix, not the bare digits
    ("LI-0995555", ["li"]),
    ("0995555", ["da", "li", "digits"]),
    ("0995555 lake rd", ["digits"]),  # "lake rd": a short word joined to a longer one, in that order
    ("rd lake", []),
])
def test_a_term_with_a_short_word_matches_the_whole_term(twins, dane, query, expected):
    """PostgreSQL speed: the index is asked for a term's longer words only, so the whole
    term must still be checked on what it gives (both databases)."""
    found = set(search(System.objects.filter(jurisdiction=dane), query).values_list("id", flat=True))
    assert found == {twins[k].pk for k in expected}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's trigram index")
def test_postgresql_asks_the_trigram_index_for_the_longer_words_only(twins, dane):
    """At 1,000,000 systems "DA-0995555" took 180 ms on PostgreSQL because pg_trgm pads the
    short word "da" into trigrams every system id holds; asked for "0995555" alone, 1 ms. The whole term is
    checked with strpos, which the index cannot answer."""
    sql, params = search(System.objects.filter(jurisdiction=dane), "DA-0995555").values_list("id", flat=True).query.sql_with_params()
    patterns = [p for p in params if isinstance(p, str)]
    assert "%0995555%" in patterns
    assert "%da-0995555%" not in patterns  # not a LIKE the index would answer
    assert "STRPOS" in sql.upper()


@pytest.fixture
def scattered(dane):
    """A parcel number, and a system whose text holds each of its three-digit pieces but never the number."""
    return {"number": _add(dane, "DA-1", "Ann Berg", 4567),  # 0810-123-4567-0, searched as 081012345670
            "pieces": system_create(jurisdiction=dane, system_id="DA-081-012", parcel_number="0810-345-0001-0",
                                    system_type="mound", owner_name="Ann Berg", site_address="670 Lake Rd",
                                    municipality="Town of Verona")}


@pytest.mark.parametrize("query", ["081012345670", "0810-123-4567-0", "0810 123 4567 0"])
def test_a_long_number_matches_whole_not_its_pieces_apart(scattered, dane, query):
    """A long number is asked of PostgreSQL's index in pieces; only the whole number matches (both databases)."""
    found = set(search(System.objects.filter(jurisdiction=dane), query).values_list("id", flat=True))
    assert found == {scattered["number"].pk}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's trigram index")
def test_postgresql_asks_the_trigram_index_for_a_long_numbers_disjoint_pieces(scattered, dane):
    """Parcel search p95: asked for a 14-digit parcel number whole, the index read 176 pages at
    1,000,000 systems (median), each trigram's long list; asked for its disjoint pieces, 89. The whole
    number is checked with strpos on the rows the pieces give."""
    sql, params = search(System.objects.filter(jurisdiction=dane), "0810-123-4567-0").values_list("id", flat=True).query.sql_with_params()
    patterns = [p for p in params if isinstance(p, str)]
    assert {"%081%", "%012%", "%345%", "%670%"} <= set(patterns)
    assert "%081012345670%" not in patterns
    assert "081012345670" in params and "STRPOS" in sql.upper()
