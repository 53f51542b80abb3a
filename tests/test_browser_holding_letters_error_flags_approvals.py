"""In Debian's chromium, as each role uses them: county staff record and print the owners'
letters for overdue holding tank reports from the dashboard (Dane s. 46.06(5)(b)2.); staff flag an error on a
permit application (Dane s. 46.12); the department specifies a category it approves first and records its approval
(Wis. Stat. s. 145.20(3)(a)1.)."""
import datetime as dt

import pytest

from tests.test_browser import CHROMIUM, browser  # noqa: F401  (the chromium fixture and its skip rule)
from tests.test_browser_attachments import PASSWORD, sign_in

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM), reason="Debian's chromium is not installed")]


@pytest.fixture
def dane_people(transactional_db, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from powts.accounts.services import license_create, user_create
    from powts.jurisdictions.services import jurisdiction_ensure

    dane = jurisdiction_ensure(slug="dane")
    user_create(username="sam", password=PASSWORD, role="county_staff", jurisdiction=dane)
    user_create(username="dora", password=PASSWORD, role="dsps")
    pete = user_create(username="pete", password=PASSWORD, role="plumber")
    master = license_create(kind="master_plumber", number="MP-1001", holder_name="Pete Plumber", user=pete)
    return dane, master


def test_staff_record_the_overdue_holding_report_letters_from_the_dashboard(live_server, dane_people, browser):  # noqa: F811
    from powts.inventory.services import system_create
    from powts.maintenance.models import Notice

    dane, _ = dane_people
    system_create(jurisdiction=dane, system_id="HT-9", parcel_number="P-HT-9", system_type="holding_tank",
                  owner_name="Holly Tank", owner_mailing_address="5 Tank Rd, Verona, WI 53593", site_address="5 Tank Rd",
                  installed_on=dt.date(2020, 1, 1))
    page = sign_in(browser, live_server.url, "sam")
    page.goto(f"{live_server.url}/maintenance/")
    page.get_by_role("heading", name="Holding tank servicing reports overdue").wait_for()
    page.get_by_role("button", name="Record the letters to these owners").click()
    page.wait_for_load_state()
    page.get_by_text("1 letter recorded", exact=False).wait_for()
    link = page.get_by_role("link", name="Print the 1 owner letter for this period (PDF)")
    assert link.get_attribute("href").endswith(".pdf")
    notice = Notice.objects.get()
    assert (notice.kind, notice.to_name) == ("holding_overdue", "Holly Tank")


def test_staff_flag_an_error_on_a_permit_application(live_server, dane_people, browser):  # noqa: F811
    from powts.oversight.models import ReportFlag
    from powts.permits.tests.conftest import file_complete

    dane, master = dane_people
    permit = file_complete(dane, master)
    page = sign_in(browser, live_server.url, "sam")
    page.goto(f"{live_server.url}/oversight/flags/")
    region = page.get_by_role("region", name="Flag an error on a permit application")
    region.wait_for()
    assert "Dane County Code s. 46.12" in region.inner_text()
    region.get_by_label("Permit number").fill(permit.number)
    region.get_by_label("The plumber").check()
    region.get_by_label("What is wrong").fill("Lot dimensions differ from the survey")
    region.get_by_label("Evidence (one item a line)").fill("Certified survey map: 150 x 210 ft")
    region.get_by_role("button", name="Flag the application").click()
    page.wait_for_load_state()
    page.get_by_text("Permit application flagged.").wait_for()
    assert ReportFlag.objects.get().license_id == master.pk
    assert f"Sanitary permit application {permit.number}" in page.content()


def test_the_department_specifies_a_category_and_approves_a_permit(live_server, dane_people, browser):  # noqa: F811
    from powts.oversight.models import ApprovalCategory, DepartmentApproval
    from powts.permits.tests.conftest import file_complete
    from tests.test_browser import open_menu_page

    dane, master = dane_people
    permit = file_complete(dane, master, system_type="mound")
    page = sign_in(browser, live_server.url, "dora")
    open_menu_page(page, "Department approvals")
    page.get_by_role("heading", name="Systems the department approves before the county issues the permit").wait_for()
    page.get_by_label("Name").fill("Mounds")
    page.locator("label[for=type-mound]").click()  # USWDS draws the box on the label
    page.get_by_role("button", name="Specify the category").click()
    page.wait_for_load_state()
    page.get_by_text("Category specified.").wait_for()
    assert ApprovalCategory.objects.get().system_types == ["mound"]
    page.get_by_label("Permit number").fill(permit.number)
    page.get_by_label("Category", exact=True).select_option(label="Mounds")
    page.get_by_role("button", name="Record the approval").click()
    page.wait_for_load_state()
    page.get_by_text(f"Approval of permit {permit.number} recorded.").wait_for()
    assert DepartmentApproval.objects.get().permit_id == permit.pk
