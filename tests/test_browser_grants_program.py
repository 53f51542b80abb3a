"""The Wisconsin Fund program in a real browser (Debian's chromium): the county certifies its conditions and applies
for participation (s. 145.246(8), (7)(a)); DSPS reviews ((13)(a)), runs the allocation ((11)-(12)) and a what-if."""
import pytest

from tests.test_browser import CHROMIUM, browser, open_menu_page, sign_in  # noqa: F401  (the shared chromium fixture)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM), reason="Debian's chromium is not installed")]


@pytest.fixture
def program(transactional_db):
    from powts.accounts.services import user_create
    from powts.grants.tests.program_helpers import application, inventory_system
    from powts.jurisdictions.services import jurisdiction_ensure

    dane = jurisdiction_ensure(slug="dane")
    user_create(username="sam", password="a-long-test-password", role="county_staff", jurisdiction=dane,
                first_name="Sam", last_name="Sanitarian")
    user_create(username="dee", password="a-long-test-password", role="dsps")
    inventory_system(dane)
    application(dane, table="5000")
    application(dane, table="3000", category=2)
    application(dane, table="5000", income="46000")  # over the income limit today


def watch_csp(page) -> list:
    seen = []
    page.on("console", lambda m: seen.append(m.text) if "Content Security Policy" in m.text else None)
    return seen


def test_county_certifies_and_submits_dsps_allocates_and_asks_what_if(live_server, program, browser):  # noqa: F811
    page = browser.new_page()
    csp = watch_csp(page)
    sign_in(page, live_server.url, "sam")
    open_menu_page(page, "Wisconsin Fund")
    page.get_by_label("Fiscal year (July 1 to June 30)").fill("2026-27")
    page.get_by_role("button", name="Show").click()
    page.get_by_role("heading", name="1. The county's conditions").wait_for()
    page.get_by_label("Title").fill("County sanitarian")
    # USWDS draws its own box over the input: a person clicks the label, as here
    for words in ("grants will go to owners who meet the eligibility requirements", "properly installed and maintained",
                  "disbursed to eligible owners"):
        page.locator("label.usa-checkbox__label", has_text=words).click()
    page.get_by_role("button", name="Certify the conditions").click()
    page.get_by_text("Conditions certified for fiscal year 2026-27.").wait_for()
    page.get_by_label("Received by the department on").fill("2026-02-01")  # on February 1: refused
    page.get_by_role("button", name="Submit the application for participation").click()
    page.get_by_text("must be received before February 1, 2026", exact=False).wait_for()
    page.get_by_label("Received by the department on").fill("2026-01-30")
    page.get_by_role("button", name="Submit the application for participation").click()
    page.get_by_text("Received by the department on January 30, 2026 with 2 eligible applications").wait_for()

    page = browser.new_page()
    csp += watch_csp(page)
    sign_in(page, live_server.url, "dee")
    open_menu_page(page, "Grant program")
    page.get_by_label("Fiscal year").fill("2026-27")
    page.get_by_role("button", name="Show").click()
    page.get_by_role("row", name="Dane County").get_by_role("button", name="Conditions met").click()
    page.get_by_text("Dane County: review recorded.").wait_for()
    page.get_by_role("link", name="Allocation runs").click()
    page.get_by_label("Funds available ($)").fill("7000")
    page.get_by_role("button", name="Run the allocation").click()
    page.get_by_role("heading", name="By county and category").wait_for()
    totals = page.get_by_role("table", name="State share, allocation and proration per county and category")
    assert "$7,000.00" in totals.inner_text() and "$2,000.00" in totals.inner_text()  # category 2 prorated ((12)(b))
    page.get_by_role("button", name="Pay Dane County").click()
    page.get_by_text("Dane County paid.").wait_for()

    page.goto(f"{live_server.url}/grants/program/state/what-if/?fiscal_year=2026-27")
    page.get_by_label("Funds available ($)").fill("20000")
    page.get_by_label("Income limit ($", exact=False).fill("50000")
    page.get_by_role("button", name="Compare").click()
    by_county = page.get_by_role("table", name="Winners and losers by county")
    by_county.wait_for()
    row = by_county.get_by_role("row", name="Dane County").inner_text()
    assert "$7,000.00" in row and "$8,800.00" in row  # 5,000 + 3,000 + (5,000 - 30% x 14,000) under a $50,000 limit
    assert not csp, csp
