"""Search as you type, with parcel numbers matched with or without dashes and spaces;
the dashboard's standings as a filter of the list (its cards link here)."""
import datetime as dt

import pytest

from powts.inventory.services import system_create


@pytest.fixture
def signed_in(client, staff):
    client.force_login(staff)
    return client


@pytest.fixture
def two(dane):
    system_create(jurisdiction=dane, system_id="DA-1", parcel_number="0810-123-4567-0", system_type="mound", owner_name="Ann",
                  site_address="4417 Oak Ridge Dr")
    system_create(jurisdiction=dane, system_id="DA-2", parcel_number="071122200010", system_type="mound", owner_name="Bob",
                  site_address="12 Lake Rd")


@pytest.mark.parametrize("query", ["0810-123-4567-0", "081012345670", "0810 123 4567 0", "0810123", "0810-123"])
def test_parcel_number_with_or_without_separators(signed_in, two, query):
    page = signed_in.get("/inventory/", {"q": query}).content.decode()
    assert "DA-1" in page and "DA-2" not in page


@pytest.mark.parametrize("query", ["0711-222-0001-0", "0711 2220 0010", "071122200010"])
def test_a_parcel_stored_without_dashes_is_found_with_them(signed_in, two, query):
    page = signed_in.get("/inventory/", {"q": query}).content.decode()
    assert "DA-2" in page and "DA-1" not in page


def test_words_still_match_as_before(signed_in, two):
    page = signed_in.get("/inventory/", {"q": "oak ridge"}).content.decode()
    assert "DA-1" in page and "DA-2" not in page


def test_search_box_searches_as_you_type(signed_in, two):
    page = signed_in.get("/inventory/").content.decode()
    assert 'hx-trigger="submit, change from:select, input changed delay:300ms from:#id_q' in page


def test_standing_filter_is_the_dashboards_bucket(signed_in, dane):
    from powts.maintenance.services import schedule_sync

    system_create(jurisdiction=dane, system_id="OLD-1", parcel_number="P-1", system_type="conventional", owner_name="A",
                  installed_on=dt.date(2000, 1, 1))
    system_create(jurisdiction=dane, system_id="NEW-1", parcel_number="P-2", system_type="conventional", owner_name="B",
                  installed_on=dt.date.today() - dt.timedelta(days=30))
    schedule_sync(jurisdiction=dane)
    overdue = signed_in.get("/inventory/", {"standing": "overdue"}).content.decode()
    current = signed_in.get("/inventory/", {"standing": "current"}).content.decode()
    assert "OLD-1" in overdue and "NEW-1" not in overdue
    assert "NEW-1" in current and "OLD-1" not in current


def test_dashboard_cards_open_the_filtered_list(signed_in, dane):
    system_create(jurisdiction=dane, system_id="OLD-1", parcel_number="P-1", system_type="conventional", owner_name="A",
                  installed_on=dt.date(2000, 1, 1))
    from powts.maintenance.services import schedule_sync

    schedule_sync(jurisdiction=dane)
    page = signed_in.get("/maintenance/?as_of=2026-01-15").content.decode()
    assert 'href="/inventory/?standing=overdue&amp;as_of=2026-01-15&amp;jurisdiction=dane"' in page
    # and by type: the label, linked to the list of that type in that standing
    assert "Conventional (gravity)" in page and "system_type=conventional" in page
    assert '"reports_links"' in page and "/maintenance/reports/?month=" in page


def test_bad_standing_date_is_a_message_not_a_500(signed_in, two):
    response = signed_in.get("/inventory/", {"standing": "overdue", "as_of": "0001-01-01"})
    assert response.status_code == 200 and "1900-01-01" in response.content.decode()


def test_the_list_reads_the_county_index_in_order_not_a_join_to_the_county(signed_in, two, django_assert_max_num_queries):
    """Speed ("every page above: p95 under 100 ms at 1,000,000 systems"): the list's query of systems
    does not join the county table. With that join, SQLite (after ANALYZE) starts from the one-row county table
    and sorts every system of the county for each page: 1.4 s at 1,000,000 systems against 0.1 ms."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        page = signed_in.get("/inventory/").content.decode()
    assert "DA-1" in page and "DA-2" in page
    listing = [q["sql"] for q in ctx.captured_queries
               if 'FROM "inventory_system"' in q["sql"] and "ORDER BY" in q["sql"] and "LIMIT" in q["sql"]]
    assert listing, "the page's query of systems was not found"
    assert all('"jurisdictions_jurisdiction"' not in sql for sql in listing)
