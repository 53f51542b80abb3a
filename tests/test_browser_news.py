"""Each record's news in Debian's chromium: staff link a queued complaint from the dashboard and see it on
the system page; a pumper files a final report of abandonment from a phone-sized window (Dane County
Code s. 46.11(5)2.) and the system page says the system is abandoned."""
import datetime as dt
import os

import pytest

from tests.test_browser import CHROMIUM, browser, sign_in, PASSWORD  # noqa: F401  (the chromium fixture and its skip rule)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (apt-get install chromium)"),
]


@pytest.fixture
def county(transactional_db):
    from powts.accounts.services import license_create, user_create
    from powts.inventory.services import system_create
    from powts.jurisdictions.services import jurisdiction_ensure
    from powts.maintenance.services import schedule_sync

    dane = jurisdiction_ensure(slug="dane")
    user_create(username="sam", password=PASSWORD, role="county_staff", jurisdiction=dane)
    pumper = user_create(username="perry", password=PASSWORD, role="pumper")
    license_create(kind="septage_operator", number="SSO-1", holder_name="Perry Pumper", user=pumper)
    system = system_create(jurisdiction=dane, system_id="DA-0002", parcel_number="0711-222-0001-0", system_type="conventional",
                           owner_name="Tom Vang", site_address="12 Lake Rd", municipality="Town of Dunn",
                           installed_on=dt.date(2015, 6, 1))
    schedule_sync(jurisdiction=dane)
    return dane, system


@pytest.fixture
def complaint(county):
    from powts.permits.services import enforcement as enf

    return enf.complaint_create(jurisdiction=county[0], service_code="failing-septic", description="Sewage in the ditch",
                                address="Lake Road near the bridge")


def test_staff_link_a_queued_complaint_and_see_it_on_the_system_page(live_server, county, complaint, browser):  # noqa: F811 (the imported fixture)
    page = browser.new_page()
    sign_in(page, live_server.url, "sam")
    page.goto(f"{live_server.url}/maintenance/")
    page.get_by_role("heading", name="Complaints to link (1)").wait_for()
    page.get_by_label(f"POWTS id for complaint {complaint.pk}").fill("DA-0002")
    page.get_by_role("button", name="Link", exact=True).click()
    page.get_by_text("linked to system DA-0002").wait_for()
    page.get_by_role("heading", name="Complaints to link (0)").wait_for()
    page.get_by_role("link", name="DA-0002").first.click()
    page.get_by_role("heading", name="Complaints").wait_for()
    text = page.locator("section[aria-labelledby=h-complaints]").inner_text()
    assert "Failing septic system" in text and "Linked by county staff" in text


def test_pumper_files_a_final_report_of_abandonment_from_a_phone(live_server, county, browser):  # noqa: F811 (the imported fixture)
    dane, system = county
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    sign_in(page, live_server.url, "perry")
    page.goto(f"{live_server.url}/maintenance/report/")
    page.get_by_label("POWTS id").fill("DA-0002")
    page.locator("label", has_text="Abandonment (final report)").click()
    page.get_by_label("Date of work").fill((dt.date.today() - dt.timedelta(days=2)).isoformat())
    page.get_by_label("Gallons pumped").fill("900")
    page.get_by_label("Abandonment: how the tank was abandoned").select_option("crushed_filled")
    page.get_by_role("button", name="File report").click()
    page.get_by_text("Filed: Abandonment (final report) report DA-0002").wait_for()
    context.close()

    staff = browser.new_page()
    sign_in(staff, live_server.url, "sam")
    staff.goto(f"{live_server.url}{system.get_absolute_url()}")
    assert "abandoned" in staff.get_by_role("heading", level=1).inner_text().lower()
    assert "Not on a maintenance cycle" in staff.content()
