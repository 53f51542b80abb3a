"""In Debian's chromium: an owner applies for a Wisconsin Fund grant for their own
failing system and uploads their tax return; county staff find it in the intake list, decide it and open
the letter; the owner then sees the decision and the letter. No Content-Security-Policy violation on the way."""
import datetime as dt

import pytest

from powts.attachments.tests import samples
from tests.test_browser import CHROMIUM, browser, open_menu_page, sign_in, PASSWORD  # noqa: F401  (the chromium fixture and its skip rule)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM), reason="Debian's chromium is not installed")]


@pytest.fixture
def county(transactional_db, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the test reads the database between page steps
    from powts.accounts.services import user_create
    from powts.inventory.services import system_create
    from powts.jurisdictions.services import jurisdiction_ensure
    from powts.permits.services.enforcement import failure_determine

    dane = jurisdiction_ensure(slug="dane")
    user_create(username="sam", password=PASSWORD, role="county_staff", jurisdiction=dane)
    olive = user_create(username="olive", password=PASSWORD, role="owner")
    system = system_create(jurisdiction=dane, system_id="DA-0042", parcel_number="0810-123-4567-0",
                           system_type="conventional", owner_name="Olive Owner", site_address="12 Lake Rd",
                           municipality="Town of Verona", installed_on=dt.date(1971, 5, 1))
    owner = system.parcel.owner
    owner.user = olive
    owner.save(update_fields=["user"])
    on = dt.date.today() - dt.timedelta(days=40)
    failure_determine(system=system, conditions=["b"], on=on, basis="order")
    return on


def test_owner_applies_with_evidence_staff_decide_and_open_the_letter(live_server, county, browser, tmp_path):  # noqa: F811
    from powts.grants.models import GrantApplication

    determined_on = county
    page = sign_in(browser, live_server.url, "olive", watch_csp=True)
    open_menu_page(page, "Grants")
    page.get_by_role("heading", name="Wisconsin Fund grant applications").wait_for()
    page.get_by_role("link", name="Apply for a grant").click()
    page.get_by_role("heading", name="Apply for a Wisconsin Fund grant").wait_for()
    page.get_by_label("System and its determination of failure").select_option(index=0)
    page.get_by_label("Annual family income (dollars)").fill("38,000.00")
    page.get_by_label("Tax year").fill(str(determined_on.year - 1))
    page.get_by_label("Evidence").select_option("prior_year_return")
    page.get_by_label("Funding table amount (dollars)").fill("5200")
    page.locator("#evidence").set_input_files({"name": "return-2025.pdf", "mimeType": "application/pdf",
                                               "buffer": samples.pdf()})
    page.get_by_role("button", name="Send the application").click()
    page.get_by_role("heading", name="Wisconsin Fund grant application").wait_for()
    app = GrantApplication.objects.get()
    assert app.source == "online" and app.attachments.get().original_name == "return-2025.pdf"
    assert "Not decided yet" in page.content() and "return-2025.pdf" in page.content()
    assert page.evaluate("() => window.__csp") == []

    staff = sign_in(browser, live_server.url, "sam", watch_csp=True)
    staff.goto(f"{live_server.url}/grants/")
    staff.get_by_label("Status").select_option("received")
    staff.get_by_role("link", name=f"Application {app.pk}").click()
    staff.get_by_role("button", name="Decide").click()
    staff.get_by_text("Eligible: grant $3,400.00", exact=True).wait_for()  # 5,200 - 30% x (38,000 - 32,000), s. 145.246(6)(d)
    with staff.expect_response(lambda r: r.url.endswith("/letter.pdf")) as letter:
        staff.get_by_role("link", name="Open the approval letter (PDF)").click()
    assert letter.value.status == 200 and letter.value.headers["content-type"] == "application/pdf"
    assert staff.evaluate("() => window.__csp") == []

    page.reload()
    page.get_by_text("Eligible: grant $3,400.00", exact=True).wait_for()
    assert page.get_by_role("button", name="Decide").count() == 0
    page.screenshot(path=str(tmp_path / "grant.png"), full_page=True)
