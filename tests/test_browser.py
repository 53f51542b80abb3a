"""End to end in a real browser (Debian's chromium driven by Playwright): a sanitarian signs in,
finds a system by owner name and opens its page with its history."""
import re
import os
import shutil

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
PASSWORD = "a-long-test-password"  # every test user's
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (apt-get install chromium)"),
]


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
        ])
        yield browser
        browser.close()


@pytest.fixture
def county(transactional_db):
    from powts.accounts.services import user_create
    from powts.inventory.services import system_create
    from powts.jurisdictions.services import jurisdiction_ensure

    dane = jurisdiction_ensure(slug="dane")
    user_create(username="sam", password="a-long-test-password", role="county_staff", jurisdiction=dane)
    system_create(jurisdiction=dane, system_id="DA-0001", parcel_number="0810-123-4567-0", system_type="mound",
                  owner_name="Margaret Schultz", site_address="4417 Oak Ridge Dr", municipality="Town of Verona",
                  installed_on="1977-06-30")
    system_create(jurisdiction=dane, system_id="DA-0002", parcel_number="0711-222-0001-0", system_type="conventional",
                  owner_name="Tom Vang", site_address="12 Lake Rd", municipality="Town of Dunn")


def test_sign_in_search_and_open_a_system(live_server, county, browser, tmp_path):
    page = sign_in(browser.new_page(), live_server.url, "sam")
    page.get_by_role("heading", name="Maintenance program: Dane County").wait_for()  # staff's home: each role lands on its own
    open_menu_page(page, "Inventory")
    page.get_by_role("heading", name="Inventory of systems").wait_for()

    page.get_by_label("Search").fill("schultz")
    page.get_by_label("Search").press("Enter")
    page.wait_for_url("**q=schultz**")
    rows = page.locator("tbody tr")
    assert rows.count() == 1 and "Margaret Schultz" in rows.first.inner_text()

    page.get_by_role("link", name="DA-0001").click()
    page.get_by_role("heading", name="History").wait_for()
    text = page.content()
    assert "0810-123-4567-0" in text and "June 30, 1977" in text and "system added" in text
    page.screenshot(path=str(tmp_path / "system.png"), full_page=True)


CSP_WATCH = """window.__csp = [];
document.addEventListener("securitypolicyviolation", e => window.__csp.push(e.violatedDirective + " " + e.blockedURI));"""


def sign_in(where, base: str, username: str, *, password: str = PASSWORD, next: str = "", watch_csp: bool = False,
            **context):
    """Sign `username` in and wait for the page they land on and its scripts (htmx loads last: typing before it
    has run sends nothing). `where` is a page, or the browser for a person of their own (a new context, with
    `context`'s options such as a phone's viewport). `watch_csp` collects policy violations in `window.__csp`."""
    page = where.new_context(**context).new_page() if hasattr(where, "new_context") else where
    if watch_csp:
        page.add_init_script(CSP_WATCH)
    page.goto(f"{base}/accounts/login/" + (f"?next={next}" if next else ""))
    page.get_by_label("User name").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.wait_for_load_state()
    return page


def open_menu_page(page, name: str) -> None:
    """Follow the primary menu to the page `name`, opening its drop-down first when it is in a group."""
    nav = page.get_by_role("navigation", name="Primary navigation")
    link = nav.get_by_role("link", name=name, exact=True)
    if not link.is_visible():  # hidden in a closed drop-down (roles only see visible elements: find it by CSS)
        hidden = page.locator("a", has_text=re.compile(f"^{re.escape(name)}$"))  # queried inside each item
        nav.locator("li.usa-nav__primary-item", has=hidden).get_by_role("button").click()
    link.click()
