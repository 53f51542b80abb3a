"""Dane County Code s. 46.12 in Debian's chromium, as county staff use it: from the Oversight menu, draw a random
sample of the applications filed in a period (the county's share, the seed kept), record that the inspection of a
drawn application found an error (the application is flagged against its plumber), with axe-core on both pages;
Lincoln's staff read that their ordinance has no such provision."""
import datetime as dt

import pytest

from tests.test_browser import CHROMIUM, PASSWORD, browser, open_menu_page, sign_in  # noqa: F401  (the chromium fixture)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM), reason="Debian's chromium is not installed")]


@pytest.fixture
def people(transactional_db, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from powts.accounts.services import license_create, user_create
    from powts.jurisdictions.services import jurisdiction_ensure
    from powts.permits.tests.conftest import file_complete

    dane, lincoln = jurisdiction_ensure(slug="dane"), jurisdiction_ensure(slug="lincoln")
    user_create(username="sam", password=PASSWORD, role="county_staff", jurisdiction=dane)
    user_create(username="lena", password=PASSWORD, role="county_staff", jurisdiction=lincoln)
    pete = user_create(username="pete", password=PASSWORD, role="plumber")
    master = license_create(kind="master_plumber", number="MP-1001", holder_name="Pete Plumber", user=pete)
    permit = file_complete(dane, master, filed_on=dt.date(2026, 2, 2), pay=False)
    return permit, master


def _axe_failures(page, who):
    from tests.test_accessibility import AXE, _axe

    if not AXE.exists():
        pytest.skip("axe-core is not installed (npm ci)")
    return [f"{who} {page.url}: {v['impact']} {v['id']} at {v['nodes']}" for v in _axe(page)
            if v["impact"] in ("critical", "serious")]


def test_dane_staff_draw_a_sample_and_flag_an_error_found(live_server, people, browser):  # noqa: F811
    from powts.oversight.models import ApplicationSample

    permit, master = people
    page = sign_in(browser, live_server.url, "sam")
    open_menu_page(page, "Random inspections of applications")
    page.wait_for_load_state()
    page.get_by_role("heading", name="Random inspections of permit applications").wait_for()
    assert "Dane County Code s. 46.12" in page.content()
    failures = _axe_failures(page, "sam")
    page.get_by_label("Applications filed from").fill("2026-01-01")
    page.get_by_label("through").fill("2026-03-31")
    page.get_by_role("button", name="Draw the sample").click()
    page.wait_for_load_state()
    page.get_by_text("1 of 1 application(s) drawn", exact=False).wait_for()
    failures += _axe_failures(page, "sam")
    page.get_by_label(f"What the inspection of {permit.number} found").select_option("errors")
    page.get_by_label(f"Errors found on {permit.number}", exact=False).fill("Lot dimensions differ from the survey")
    page.get_by_label("Who made the error").select_option("plumber")
    page.get_by_label("What shows it (one item a line)").fill("Certified survey map: 150 x 210 ft")
    page.get_by_role("button", name=f"Save the inspection of {permit.number}").click()
    page.wait_for_load_state()
    page.get_by_text("Inspection recorded.").wait_for()
    assert f"flagged against licence {master.number}" in page.content()
    item = ApplicationSample.objects.get().items.get()
    assert item.outcome == "errors" and item.flag.license_id == master.pk
    assert not failures, "\n".join(failures)


def test_lincoln_staff_read_that_their_ordinance_has_no_such_provision(live_server, people, browser):  # noqa: F811
    page = sign_in(browser, live_server.url, "lena")
    open_menu_page(page, "Random inspections of applications")
    page.wait_for_load_state()
    page.get_by_text("Lincoln County's ordinance has no provision for random inspections of permit applications").wait_for()
    assert page.get_by_role("button", name="Draw the sample").count() == 0
    failures = _axe_failures(page, "lena")
    assert not failures, "\n".join(failures)
