"""The Content-Security-Policy in a real browser (Debian's chromium through Playwright): under the
Content-Security-Policy the dashboard's charts draw, the inventory's htmx search works, a permit's plot plan
shows, the API docs draw, and the browser reports no violation of the policy."""
import pytest

from tests.test_browser import CHROMIUM, browser, open_menu_page, sign_in  # noqa: F401  (the chromium fixture and its skip rule)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM), reason="Debian's chromium is not installed")]

LISTEN = """window.__csp = [];
document.addEventListener("securitypolicyviolation", e => window.__csp.push(e.violatedDirective + " " + e.blockedURI));"""


@pytest.fixture
def county(transactional_db):
    from powts.accounts.services import license_create, user_create
    from powts.inventory.services import system_create
    from powts.jurisdictions.services import jurisdiction_ensure
    from powts.permits.tests.conftest import file_complete

    dane = jurisdiction_ensure(slug="dane")
    user_create(username="sam", password="a-long-test-password", role="county_staff", jurisdiction=dane)
    system_create(jurisdiction=dane, system_id="DA-0001", parcel_number="0810-123-4567-0", system_type="mound",
                  owner_name="Margaret Schultz", site_address="4417 Oak Ridge Dr", municipality="Town of Verona")
    system_create(jurisdiction=dane, system_id="DA-0002", parcel_number="0711-222-0001-0", system_type="conventional",
                  owner_name="Tom Vang", site_address="12 Lake Rd", municipality="Town of Dunn")
    return file_complete(dane, license_create(kind="master_plumber", number="MP-1", holder_name="Pete Plumber"))


def test_pages_work_under_the_policy_without_violations(live_server, county, browser):  # noqa: F811
    page = browser.new_page()
    console: list[str] = []
    page.on("console", lambda msg: console.append(msg.text))
    page.add_init_script(LISTEN)

    sign_in(page, live_server.url, "sam")
    page.get_by_role("heading", name="Maintenance program: Dane County").wait_for()  # staff's home: each role lands on its own
    open_menu_page(page, "Inventory")
    page.get_by_role("heading", name="Inventory of systems").wait_for()

    # htmx search: the results change in place (no page load: the marker set on the window survives)
    page.evaluate("() => { window.__same_page = true; }")
    page.get_by_label("Search").fill("schultz")
    page.get_by_label("Search").press("Enter")
    page.wait_for_url("**q=schultz**")
    page.wait_for_function("() => document.querySelectorAll('tbody tr').length === 1")
    assert "Margaret Schultz" in page.locator("tbody tr").first.inner_text()
    assert page.evaluate("() => window.__same_page === true"), "the search reloaded the page instead of using htmx"
    assert page.evaluate("() => window.__csp") == []

    # the dashboard's charts are drawn by the static script from the page's json_script data
    page.goto(f"{live_server.url}/maintenance/")
    page.wait_for_function("() => window.Chart && Chart.getChart(document.getElementById('trend'))")
    assert page.evaluate("() => !!Chart.getChart(document.getElementById('standing'))")
    assert page.evaluate("() => window.__csp") == []

    # a permit page with its plot plan drawn inline as SVG
    page.goto(f"{live_server.url}{county.get_absolute_url()}")
    page.locator("figure svg").wait_for()
    assert page.evaluate("() => window.__csp") == []

    # the API docs: Swagger UI starts from its script file and draws the operations
    page.goto(f"{live_server.url}/api/docs/")
    page.locator(".opblock").first.wait_for()
    assert page.evaluate("() => window.__csp") == []

    assert not [m for m in console if "Content Security Policy" in m], console
