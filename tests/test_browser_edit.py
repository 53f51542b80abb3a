"""In Debian's chromium: county staff edit a system (a date and a component) and see the
audit entries with their reasons on the system page; a second editor with the same form open is told
what changed and keeps their input. A county administrator invites an owner, who chooses a password,
signs in and sees only their property."""
import datetime as dt
import re

import pytest

from tests.test_browser import CHROMIUM, browser, sign_in, PASSWORD  # noqa: F401  (the chromium fixture and its skip rule)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM), reason="Debian's chromium is not installed")]
LISTEN = """window.__csp = [];
document.addEventListener("securitypolicyviolation", e => window.__csp.push(e.violatedDirective + " " + e.blockedURI));"""


@pytest.fixture
def county(transactional_db, monkeypatch):
    # Playwright's sync API runs an event loop in this thread; the checks below read the database beside it.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from powts.accounts.services import user_create
    from powts.inventory.models import Component
    from powts.inventory.services import system_create
    from powts.jurisdictions.services import jurisdiction_ensure

    dane = jurisdiction_ensure(slug="dane")
    user_create(username="sam", password=PASSWORD, role="county_staff", jurisdiction=dane, first_name="Sam", last_name="Sanitarian")
    user_create(username="pat", password=PASSWORD, role="county_staff", jurisdiction=dane, first_name="Pat", last_name="Planner")
    user_create(username="ada", password=PASSWORD, role="county_admin", jurisdiction=dane, first_name="Ada", last_name="Admin")
    mine = system_create(jurisdiction=dane, system_id="DA-0001", parcel_number="0810-123-4567-0", system_type="mound",
                         owner_name="Margaret Schultz", site_address="4417 Oak Ridge Dr", municipality="Town of Verona",
                         installed_on=dt.date(1997, 6, 30), last_serviced_on=dt.date(2023, 5, 1))
    Component.objects.create(system=mine, kind="septic_tank", capacity_gallons=1000)
    system_create(jurisdiction=dane, system_id="DA-0002", parcel_number="0711-222-0001-0", system_type="conventional",
                  owner_name="Tom Vang", site_address="12 Lake Rd", municipality="Town of Dunn")
    return mine


def test_staff_edit_a_system_and_a_second_editor_is_told(live_server, county, browser, tmp_path):  # noqa: F811
    base = live_server.url
    first = browser.new_context().new_page()
    first.add_init_script(LISTEN)
    second = browser.new_context().new_page()  # another person, another session
    sign_in(first, base, "sam")
    sign_in(second, base, "pat")

    # both open the system's edit form at the same version
    first.goto(f"{base}{county.get_absolute_url()}")
    first.get_by_role("link", name="Edit system").click()
    first.get_by_role("heading", name="Edit system DA-0001").wait_for()
    second.goto(f"{base}/inventory/systems/{county.pk}/edit/")
    second.get_by_label("Bedrooms").fill("4")
    second.get_by_label("Reason for the change").fill("owner called")

    # the first saves a new installation date
    first.get_by_label("Installed on").fill("1997-07-15")
    first.get_by_label("Reason for the change").fill("date from the permit card")
    first.get_by_role("button", name="Save changes").click()
    first.get_by_text("System DA-0001 saved.").wait_for()

    # ... and then a component (the tank's capacity)
    first.get_by_role("link", name="Edit Septic tank, 1,000 gal").click()
    first.get_by_label("Capacity (gallons)").fill("1250")
    first.get_by_label("Reason for the change").fill("measured at pumping")
    first.get_by_role("button", name="Save changes").click()
    first.get_by_text("Component saved.").wait_for()
    history = first.locator("section[aria-labelledby=h-history]").inner_text()
    assert "system edited: date from the permit card" in history and "1997-06-30 → 1997-07-15" in history
    assert "component edited: measured at pumping" in history
    assert "Septic tank, 1,250 gal" in first.locator("section[aria-labelledby=h-system]").inner_text()
    assert first.evaluate("() => window.__csp") == []

    # the second editor saves from the form opened before: told, their input kept, nothing overwritten
    second.get_by_role("button", name="Save changes").click()
    alert = second.locator("#stale-edit")
    alert.wait_for()
    text = alert.inner_text()
    assert "Changed by someone else while you were editing" in text
    assert "Sam Sanitarian" in text and "installed_on 1997-06-30 → 1997-07-15" in text and "component edited" in text
    assert second.get_by_label("Bedrooms").input_value() == "4"
    assert second.get_by_label("Installed on").input_value() == "1997-06-30"  # what they had: they decide
    second.screenshot(path=str(tmp_path / "stale.png"), full_page=True)
    county.refresh_from_db()
    assert (county.installed_on, county.bedrooms) == (dt.date(1997, 7, 15), None)

    # they take the newer date and save again: now it applies
    second.get_by_label("Installed on").fill("1997-07-15")
    second.get_by_role("button", name="Save changes").click()
    second.get_by_text("System DA-0001 saved.").wait_for()
    county.refresh_from_db()
    assert (county.installed_on, county.bedrooms) == (dt.date(1997, 7, 15), 4)


def test_an_edit_that_breaks_a_rule_names_the_field(live_server, county, browser):  # noqa: F811
    page = browser.new_page()
    sign_in(page, live_server.url, "sam")
    page.goto(f"{live_server.url}/inventory/systems/{county.pk}/edit/")
    page.get_by_label("Installed on").fill("2024-01-01")
    page.get_by_label("Reason for the change").fill("typo")
    page.get_by_role("button", name="Save changes").click()
    error = page.locator(".usa-form-group--error").filter(has=page.get_by_label("Installed on"))
    assert "installed_on 2024-01-01 is after the last service" in error.inner_text()
    county.refresh_from_db()
    assert county.installed_on == dt.date(1997, 6, 30)


def test_an_administrator_invites_an_owner_who_sees_only_their_property(live_server, county, browser):  # noqa: F811
    from django.core import mail

    base = live_server.url
    admin = browser.new_context().new_page()
    sign_in(admin, base, "ada")
    admin.goto(f"{base}{county.get_absolute_url()}")
    admin.get_by_role("link", name="Invite the owner to sign in").click()
    admin.get_by_label("Owner's email").fill("margaret@example.com")
    admin.get_by_label("Reason for the change").fill("asked at the counter")
    admin.get_by_role("button", name="Send the invitation").click()
    admin.get_by_text("Invitation sent to Margaret Schultz.").wait_for()
    admin.get_by_role("link", name="Users").click()
    assert "margaret@example.com" in admin.locator("table").inner_text()

    link = re.search(r"https?://\S+", mail.outbox[-1].body)[0]
    owner = browser.new_context().new_page()
    owner.goto(link)
    owner.get_by_role("heading", name="Choose your password").wait_for()
    owner.get_by_label("New password", exact=True).fill("margarets-own-password")
    owner.get_by_label("New password confirmation").fill("margarets-own-password")
    owner.get_by_role("button", name="Set my password").click()
    sign_in(owner, base, "margaret@example.com", password="margarets-own-password")
    owner.goto(f"{base}/inventory/")
    rows = owner.locator("tbody tr")
    assert rows.count() == 1 and "DA-0001" in rows.first.inner_text()
    owner.get_by_role("link", name="DA-0001").click()
    owner.get_by_role("heading", name="History").wait_for()
    assert owner.get_by_role("link", name="Edit system").count() == 0
