"""On a phone: a pumper files from a 390x844 window, in Debian's chromium. They sign in, land on the
report form (their home), look the system up by its address, file the report and see it among their
filed reports; the page needs no sideways scrolling at that width."""
import datetime as dt
import os

import pytest

from tests.test_browser import CHROMIUM, browser, sign_in  # noqa: F401  (the chromium fixture and its skip rule)

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")]
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def county(transactional_db):
    from powts.accounts.services import license_create, user_create
    from powts.inventory.services import system_create
    from powts.jurisdictions.services import jurisdiction_ensure

    dane = jurisdiction_ensure(slug="dane")
    perry = user_create(username="perry", password="a-long-test-password", role="pumper", first_name="Perry", last_name="Pumper")
    license_create(kind="septage_operator", number="SSO-44556", holder_name="Perry Pumper", user=perry)
    system_create(jurisdiction=dane, system_id="DA-0001", parcel_number="0810-123-4567-0", system_type="conventional",
                  owner_name="Margaret Schultz", site_address="4417 Oak Ridge Dr", municipality="Town of Verona",
                  installed_on="1995-06-30")
    system_create(jurisdiction=dane, system_id="DA-0002", parcel_number="0711-222-0001-0", system_type="mound",
                  owner_name="Tom Vang", site_address="12 Lake Rd", municipality="Town of Dunn")


def test_pumper_files_a_report_from_a_phone(live_server, county, browser, tmp_path):  # noqa: F811
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=3)
    page = context.new_page()
    sign_in(page, live_server.url, "perry")

    # home: the report form, with their (still empty) filed reports under it
    page.get_by_role("heading", name="File a maintenance report").wait_for()
    assert page.url.endswith("/maintenance/report/")
    # htmx is loaded at the end of the page: typing before it has run would send no lookup
    page.wait_for_load_state()
    assert "None yet." in page.locator("section", has=page.get_by_role("heading", name="Your filed reports")).inner_text()

    # look the system up by address in the county chosen on the form (the choice is there when other counties
    # take reports too, as when earlier tests left theirs): type part of it, pick the system, its id fills in
    if page.get_by_label("County").count():
        page.get_by_label("County").select_option("dane")
    page.get_by_label("Find the system by address").fill("oak ridge")
    choice = page.get_by_role("button", name="DA-0001: 4417 Oak Ridge Dr, Town of Verona (Dane County)")
    choice.wait_for()
    assert page.get_by_role("button", name="Margaret Schultz").count() == 0  # no owner names to a pumper
    choice.tap()
    assert page.get_by_label("POWTS id").input_value() == "DA-0001"

    page.get_by_text("Pumping", exact=True).tap()
    page.get_by_label("Date of work").fill((dt.date.today() - dt.timedelta(days=2)).isoformat())
    assert page.get_by_label("Your license number").input_value() == "SSO-44556"  # from their license
    page.get_by_label("Gallons pumped").fill("1000")
    page.get_by_label("Sludge and scum, fraction of the tank (e.g. 0.25 or 1/3)").fill("1/4")
    page.screenshot(path=str(tmp_path / "phone-form.png"), full_page=True)
    page.get_by_role("button", name="File report").tap()

    page.get_by_text("Filed: Pumping report DA-0001").wait_for()
    filed = page.locator("section", has=page.get_by_role("heading", name="Your filed reports")).inner_text()
    assert "Pumping, system DA-0001" in filed
    # nothing wider than the phone: no sideways scrolling
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]

    page.get_by_role("link", name="All your reports").tap()
    page.get_by_role("heading", name="Maintenance reports").wait_for()
    assert "DA-0001" in page.locator("table").inner_text()
    page.screenshot(path=str(tmp_path / "phone-reports.png"), full_page=True)
    context.close()
