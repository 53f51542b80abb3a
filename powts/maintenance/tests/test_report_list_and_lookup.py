"""The pumper's home is the report form with their filed reports; filed reports as a
list (filtered, exported); the form looks a system up by address, showing no owner."""
import datetime as dt

import pytest

from powts.maintenance import services


@pytest.fixture
def filed(dane, make_system, pumper_license):
    make_system("DA-1")
    make_system("DA-2", owner="Secret Owner")
    for system_id, day in (("DA-1", dt.date.today() - dt.timedelta(days=3)), ("DA-2", dt.date(2025, 5, 10))):
        services.report_submit(jurisdiction=dane, filed_by=pumper_license.user, data={
            "system_id": system_id, "kind": "pumping", "work_date": day.isoformat(), "license_number": "SSO-1"})
    return pumper_license.user


def test_report_form_lists_the_filers_own_reports(client, filed, make_user):
    client.force_login(filed)
    page = client.get("/maintenance/report/").content.decode()
    assert "Your filed reports" in page and "system DA-1" in page and "system DA-2" in page
    other = make_user("other", "pumper")
    client.force_login(other)
    assert "system DA-1" not in client.get("/maintenance/report/").content.decode()


def test_report_list_filters_by_month_and_shows_labels(client, filed):
    client.force_login(filed)
    page = client.get("/maintenance/reports/", {"month": "2025-05"}).content.decode()
    assert "DA-2" in page and "DA-1" not in page and "Pumping" in page
    assert "<strong>1</strong> reports" in page


@pytest.mark.parametrize("month", ["2025-13", "0001-01", "May 2025"])
def test_a_bad_month_is_a_message_not_a_500(client, filed, month):
    client.force_login(filed)
    response = client.get("/maintenance/reports/", {"month": month})
    assert response.status_code == 200 and "is not a month" in response.content.decode()


def test_lookup_by_address_gives_ids_and_addresses_never_owners(client, filed):
    client.force_login(filed)
    page = client.get("/maintenance/report/find-system/", {"address": "12 lake"}).content.decode()
    assert 'data-system-id="DA-1"' in page and 'data-system-id="DA-2"' in page
    assert "Secret Owner" not in page and "Olive Owner" not in page


def test_lookup_needs_three_characters_and_says_when_nothing_matches(client, filed):
    client.force_login(filed)
    assert "data-system-id" not in client.get("/maintenance/report/find-system/", {"address": "12"}).content.decode()
    assert "No system found" in client.get("/maintenance/report/find-system/", {"address": "nowhere st"}).content.decode()


def test_lookup_is_for_filers_only(client, make_user):
    client.force_login(make_user("olive", "owner"))
    assert client.get("/maintenance/report/find-system/", {"address": "lake"}).status_code == 403


def test_lookup_keeps_to_the_county_chosen_on_the_form(client, filed, lincoln):
    """The pumper's lookup is scoped to the county the report is for, when one is chosen."""
    from powts.inventory.services import system_create

    system_create(jurisdiction=lincoln, system_id="LI-1", parcel_number="L-1", system_type="conventional",
                  owner_name="Lincoln Owner", site_address="12 Lake Rd")
    client.force_login(filed)
    both = client.get("/maintenance/report/find-system/", {"address": "12 lake"}).content.decode()
    assert 'data-system-id="LI-1"' in both and 'data-system-id="DA-1"' in both
    dane_only = client.get("/maintenance/report/find-system/", {"address": "12 lake", "jurisdiction": "dane"}).content.decode()
    assert 'data-system-id="DA-1"' in dane_only and 'data-system-id="LI-1"' not in dane_only
