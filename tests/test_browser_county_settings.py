"""In Debian's chromium: a county set up on the state minimum profile; its county administrator signs in, opens
the county's settings, changes the return address with a citation, sees it and the change in the history,
and the letters' sender has it. The settings pages have no critical or serious axe violation."""
import pytest

from tests.test_browser import CHROMIUM, PASSWORD, browser, sign_in  # noqa: F401  (the chromium fixture and its skip rule)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM), reason="Debian's chromium is not installed")]


@pytest.fixture
def sauk(transactional_db, monkeypatch):
    # Playwright's sync API runs an event loop in this thread; the checks below read the database beside it.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from powts.accounts.services import user_create
    from powts.jurisdictions.services import county_add
    from powts.kernel.profiles import refresh

    unit = county_add(slug="sauk", name="Sauk County")
    user_create(username="sara", password=PASSWORD, role="county_admin", jurisdiction=unit, first_name="Sara", last_name="Admin")
    yield unit
    refresh()  # the rows go with the test's database flush; this process forgets them too


def test_the_county_administrator_changes_the_return_address(live_server, sauk, browser):  # noqa: F811
    from tests.test_accessibility import AXE, _axe

    from powts.jurisdictions.models import CountySettingChange
    from powts.maintenance.notices import sender_for

    base = live_server.url
    page = sign_in(browser, base, "sara")
    page.get_by_role("link", name="County settings").click()
    page.get_by_role("heading", name="Sauk County: settings").wait_for()
    page.get_by_role("link", name="Change contact and return address").click()
    page.get_by_role("heading", name="Contact and return address").wait_for()

    page.get_by_label("Office", exact=True).fill("Sauk County Land Resources and Environment")
    page.get_by_label("Return address").fill("505 Broadway, Room 248\nBaraboo, WI")
    page.get_by_label("Phone").fill("(608) 355-3245")
    page.get_by_label("E-mail").fill("lre@saukcountywi.gov")
    page.get_by_label("Office hours").fill("Monday to Friday, 8 a.m. to 4:30 p.m.")
    page.get_by_label("Citation").fill("county policy")
    page.get_by_role("button", name="Save contact and return address").click()
    page.get_by_text("does not end with a ZIP code").wait_for()  # refused on its field, the input kept
    assert not CountySettingChange.objects.filter(key="contact").exists()

    page.get_by_label("Return address").fill("505 Broadway, Room 248\nBaraboo, WI 53913")
    page.get_by_label("Reason for the change").fill("the office moved")
    page.get_by_role("button", name="Save contact and return address").click()
    page.get_by_text("Contact and return address saved (county policy).").wait_for()
    assert page.get_by_text("Baraboo, WI 53913").count() == 1
    assert page.get_by_role("cell", name="the office moved").count() == 1  # the history row

    change = CountySettingChange.objects.get(key="contact")
    assert change.by.username == "sara" and change.citation == "county policy"
    sauk.__dict__.pop("profile", None)
    assert sender_for(sauk).address == ("505 Broadway, Room 248", "Baraboo, WI 53913")

    if not AXE.exists():
        pytest.skip("axe-core is not installed (npm ci)")
    failures = []
    for path in ("/counties/settings/", "/counties/settings/contact/", "/counties/settings/fees/", "/counties/settings/closures/"):
        page.goto(f"{base}{path}")
        failures += [f"{path}: {v['impact']} {v['id']} at {v['nodes']}" for v in _axe(page) if v["impact"] in ("critical", "serious")]
    assert not failures, "\n".join(failures)
