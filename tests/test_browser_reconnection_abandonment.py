"""Lincoln's provisions in Debian's chromium as each role uses them: the installing plumber
records the replaced system's components abandoned on the permit page (Abandonment of Private Sewage Systems (1));
county staff check an addition on an undersized system with its recorded affidavit (Construction Affecting
Wastewater Flow or Contaminant Load (3)); a pumper files Dane's semiannual holding tank report (s. 46.06(5)(b)2.);
the department notices the public hearing before revoking an exemption (s. 145.20(3)(a)2.)."""
import datetime as dt

import pytest

from tests.test_browser import CHROMIUM, browser, PASSWORD, sign_in  # noqa: F401  (the chromium fixture and its skip rule)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM), reason="Debian's chromium is not installed")]


@pytest.fixture
def lincoln_people(transactional_db, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from powts.accounts.services import license_create, user_create
    from powts.jurisdictions.services import jurisdiction_ensure

    lincoln = jurisdiction_ensure(slug="lincoln")
    user_create(username="lina", password=PASSWORD, role="county_staff", jurisdiction=lincoln)
    pete = user_create(username="pete", password=PASSWORD, role="plumber")
    master = license_create(kind="master_plumber", number="MP-1001", holder_name="Pete Plumber", user=pete)
    return lincoln, master


def test_the_plumber_records_the_abandonment_on_the_permit_page(live_server, lincoln_people, browser):  # noqa: F811
    from powts.permits.models import ComponentAbandonment
    from powts.permits.tests.conftest import issue

    lincoln, master = lincoln_people
    today = dt.date.today()
    permit = issue(lincoln, master, issued_on=today - dt.timedelta(days=3), filed_on=today - dt.timedelta(days=20),
                   replaces_system=True)
    page = sign_in(browser, live_server.url, "pete")
    page.goto(f"{live_server.url}/permits/{permit.pk}/")
    page.get_by_role("heading", name="Components of the replaced system abandoned").wait_for()
    assert "Abandonment of Private Sewage Systems (1)" in page.content()
    page.get_by_label("Components abandoned").fill("Old septic tank and seepage bed")
    page.get_by_label("How").select_option("crushed_filled")
    page.get_by_role("button", name="Record the abandonment").click()
    page.wait_for_load_state()
    page.get_by_text("Old septic tank and seepage bed (Tank crushed and filled)", exact=False).wait_for()
    done = ComponentAbandonment.objects.get()
    assert done.plumber == master and done.abandoned_on == today


def test_staff_check_an_addition_on_an_undersized_system(live_server, lincoln_people, browser):  # noqa: F811
    from powts.permits.models import Clearance
    from powts.permits.tests.conftest import make_parcel

    lincoln, _ = lincoln_people
    make_parcel(lincoln, number="LN-77")
    page = sign_in(browser, live_server.url, "lina")
    page.goto(f"{live_server.url}/permits/site/")
    page.get_by_role("heading", name="Building permits and reconnections").wait_for()
    form = page.get_by_role("region", name="Building permits and reconnections")
    form.get_by_label("Tax parcel number").fill("LN-77")
    form.get_by_label("Construction").select_option("flow_change")
    form.locator("#c-b1").fill("3")
    form.get_by_label("Bedrooms after").fill("4")
    form.get_by_label("Existing system undersized by the load of how many bedrooms").fill("2")
    form.get_by_role("button", name="Check").click()
    page.wait_for_load_state()
    page.get_by_text("more than 1", exact=False).first.wait_for()
    assert "Construction Affecting Wastewater Flow or Contaminant Load (3)" in page.content()
    assert not Clearance.objects.get().approved


def test_a_pumper_files_the_semiannual_holding_tank_report(live_server, transactional_db, browser, monkeypatch):  # noqa: F811
    """Dane s. 46.06(5)(b)2.: the pumper files the half-year's report for the owner on the page."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from powts.accounts.services import license_create, user_create
    from powts.inventory.services import system_create
    from powts.jurisdictions.services import jurisdiction_ensure
    from powts.maintenance.models import HoldingTankReport

    dane = jurisdiction_ensure(slug="dane")
    perry = user_create(username="perry", password=PASSWORD, role="pumper")
    license_create(kind="septage_operator", number="SSO-1", holder_name="Perry Pumper", user=perry)
    system_create(jurisdiction=dane, system_id="HT-1", parcel_number="P-HT-1", system_type="holding_tank",
                  owner_name="Holly Tank", site_address="5 Tank Rd", installed_on=dt.date(2020, 1, 1))
    today = dt.date.today()
    page = sign_in(browser, live_server.url, "perry")
    page.goto(f"{live_server.url}/maintenance/holding-report/")
    page.get_by_role("heading", name="Holding tank servicing report").wait_for()
    assert "46.06(5)(b)2." in page.content()
    page.get_by_label("County").select_option("dane")
    page.get_by_label("POWTS id of the holding tank").fill("HT-1")
    page.get_by_label("Period from").fill(today.replace(month=1 if today.month <= 6 else 7, day=1).isoformat())
    page.get_by_label("Period to").fill(today.isoformat())
    page.get_by_label("a. Name of the person responsible for servicing").fill("Perry Pumper")
    page.get_by_label("a. Their address").fill("PO Box 12, Verona")
    page.get_by_label("b. Name of the owner").fill("Holly Tank")
    page.get_by_label("c. Location of the property").fill("5 Tank Rd")
    page.get_by_label("d. Sanitary permit number").fill("2020-0001")
    first = page.get_by_role("group", name="Servicing 1")
    first.get_by_label("e. Date serviced").fill(today.isoformat())
    first.get_by_label("f. Gallons pumped").fill("2500")
    first.get_by_label("g. Disposal site").fill("Nine Springs")
    page.get_by_role("button", name="File the report").click()
    page.wait_for_load_state()
    page.get_by_text("Filed:", exact=False).wait_for()
    assert HoldingTankReport.objects.get().services[0]["gallons"] == 2500


def test_the_department_notices_the_revocation_hearing(live_server, transactional_db, browser, monkeypatch):  # noqa: F811
    """s. 145.20(3)(a)2.: the department records the clerk's notice and a hearing 30 days later on the state view;
    a hearing 29 days later is refused on the page."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from powts.accounts.services import user_create
    from powts.jurisdictions.services import jurisdiction_ensure
    from powts.oversight import services as oversight
    from powts.oversight.models import Exemption
    from tests.test_browser import open_menu_page

    dane = jurisdiction_ensure(slug="dane")
    user_create(username="dora", password=PASSWORD, role="dsps")
    today = dt.date.today()
    ex = oversight.exemption_grant(jurisdiction=dane, category="Holding tanks", grounds="Satisfactory audits", on=today)
    page = sign_in(browser, live_server.url, "dora")
    open_menu_page(page, "County programs")
    page.get_by_role("heading", name="County POWTS programs").wait_for()
    page.get_by_label("Clerk given notice").fill("Dane County Clerk")
    page.get_by_label("Notice given on").fill(today.isoformat())
    page.get_by_label("Hearing on (at least 30 days later)").fill((today + dt.timedelta(days=29)).isoformat())
    page.get_by_role("button", name="Record the notice").click()
    page.wait_for_load_state()
    page.get_by_text("at least 30 days after the notice", exact=False).wait_for()
    assert Exemption.objects.get(pk=ex.pk).hearing_on is None
    page.get_by_label("Clerk given notice").fill("Dane County Clerk")
    page.get_by_label("Notice given on").fill(today.isoformat())
    page.get_by_label("Hearing on (at least 30 days later)").fill((today + dt.timedelta(days=30)).isoformat())
    page.get_by_role("button", name="Record the notice").click()
    page.wait_for_load_state()
    page.get_by_text("Public hearing", exact=False).wait_for()
    assert Exemption.objects.get(pk=ex.pk).hearing_on == today + dt.timedelta(days=30)
