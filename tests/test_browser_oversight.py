"""Oversight in a real browser (Debian's chromium, Playwright): the department audits a county's program
(s. 145.20(3)) and the county answers and sees the hold on its permit page; county staff flag a report and refer
the licence holder with its evidence (s. 145.20(5)(c); Dane s. 46.12), and the outcome shows on the licence's page."""
import datetime as dt
import re

import pytest
from django.utils import timezone

from tests.test_browser import CHROMIUM, browser, open_menu_page, sign_in, PASSWORD  # noqa: F401  (the shared chromium fixture)

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM), reason="no chromium")]


@pytest.fixture
def world(transactional_db):
    from powts.accounts.services import license_create, user_create
    from powts.inventory.services import system_create
    from powts.jurisdictions.services import jurisdiction_ensure
    from powts.maintenance.services import report_submit
    from powts.permits.tests.conftest import file_complete, issue

    dane = jurisdiction_ensure(slug="dane")
    user_create(username="sam", password=PASSWORD, role="county_staff", jurisdiction=dane)
    user_create(username="dora", password=PASSWORD, role="dsps")
    master = license_create(kind="master_plumber", number="MP-1001", holder_name="Pete Plumber")
    today = timezone.localdate()
    issued = [issue(dane, master, issued_on=today - dt.timedelta(days=d), filed_on=today - dt.timedelta(days=40))
              for d in (3, 2)]
    waiting = file_complete(dane, master, filed_on=today - dt.timedelta(days=10))
    license_create(kind="septage_operator", number="SSO-1", holder_name="Perry Pumper")
    system_create(jurisdiction=dane, system_id="DA-1", parcel_number="P-1", system_type="conventional", owner_name="Olive Owner",
                  installed_on=dt.date(2020, 6, 1))
    report = report_submit(jurisdiction=dane, data={"system_id": "DA-1", "kind": "pumping", "work_date": (today - dt.timedelta(days=5)).isoformat(),
                                                    "license_number": "SSO-1", "gallons_pumped": "900", "disposal_site": "WWTP"}).report
    return {"today": today, "issued": issued, "waiting": waiting, "report": report}


def test_the_department_audits_a_county_and_holds_its_issuance(live_server, world, browser):  # noqa: F811 (the imported fixture)
    today = world["today"]
    dept = sign_in(browser, live_server.url, "dora")
    open_menu_page(dept, "County programs")
    dept.get_by_role("heading", name="County POWTS programs").wait_for()
    dept.get_by_label("Permits issued from").fill((today - dt.timedelta(days=30)).isoformat())
    dept.get_by_label("through").fill(today.isoformat())
    dept.get_by_label("Seed (optional: leave blank for a new one)").fill("12345")
    dept.get_by_role("button", name="Draw the sample").click()
    dept.get_by_role("heading", name="Program audit of Dane County").wait_for()
    assert "2 permit(s) drawn (seed 12345)" in dept.content()
    for i, permit in enumerate(world["issued"]):
        dept.get_by_label(f"Outcome of {permit.number}").select_option("deficient" if i == 0 else "satisfactory")
        if i == 0:
            dept.get_by_label(f"Findings on {permit.number}").fill("Inspection port buried")
        dept.get_by_role("button", name=f"Save the verification of {permit.number}").click()
        dept.wait_for_load_state()
    dept.get_by_label("What the county must answer").fill("Explain the buried inspection port")
    dept.get_by_role("button", name="Ask the county to respond").click()
    dept.locator("#audit-status").get_by_text("County response requested").wait_for()

    staff = sign_in(browser, live_server.url, "sam")
    open_menu_page(staff, "Program audits")
    staff.get_by_role("link", name=re.compile(r"^Audit \d+$")).first.click()
    staff.get_by_label("The county's response").fill("Inspectors retrained to check ports")
    staff.get_by_role("button", name="Send the response").click()
    staff.locator("#response").wait_for()

    dept.goto(f"{live_server.url}/oversight/")
    dept.get_by_label("Why Dane County's issuance is held").fill("Plans approved without review")
    dept.get_by_role("button", name="Hold Dane County's permit issuance").click()
    dept.get_by_text("Held since").wait_for()

    staff.goto(f"{live_server.url}{world['waiting'].get_absolute_url()}")
    staff.get_by_role("heading", name="The department has held this county's permit issuance").wait_for()
    assert "Plans approved without review" in staff.content() and "Wis. Stat. s. 145.20(3)(c)" in staff.content()


def test_staff_flag_a_report_and_refer_the_licence_holder(live_server, world, browser):  # noqa: F811 (the imported fixture)
    staff = sign_in(browser, live_server.url, "sam")
    open_menu_page(staff, "Flagged reports")
    staff.get_by_role("heading", name="Flagged reports: Dane County").wait_for()
    form = staff.get_by_role("region", name="Flag a report")  # the page also has a form for a permit application
    form.get_by_label("Report number").fill(str(world["report"].pk))
    form.get_by_label("What is wrong").fill("Owner says no truck came that day")
    form.get_by_label("Evidence (one item a line)").fill("Owner's signed statement")
    staff.get_by_role("button", name="Flag the report").click()
    staff.get_by_text("Report flagged.").wait_for()
    flag_id = staff.locator("#flags tbody tr td").first.inner_text().split()[0]
    staff.get_by_label("Flags sent as evidence (numbers, separated by spaces)").fill(flag_id)
    staff.get_by_role("button", name="Refer to the licensing agency").click()
    staff.get_by_role("heading", name="Referral of Perry Pumper to Wisconsin Department of Natural Resources").wait_for()
    assert "Dane County Code s. 46.12" in staff.content()
    with staff.expect_download() as download:
        staff.get_by_role("link", name="Evidence packet (PDF)").click()
    assert download.value.suggested_filename.endswith(".pdf")
    staff.get_by_label("The agency's decision").select_option("suspended")
    staff.get_by_role("button", name="Record the outcome").click()
    staff.locator("#outcome").get_by_text("License suspended").wait_for()
    staff.get_by_role("link", name="The licence's page").click()
    staff.locator("#referrals").get_by_text("License suspended").wait_for()


@pytest.fixture
def recorded(world):
    """An audit, a hold, a flag and a referral (made before the browser starts: Playwright's loop forbids the ORM)."""
    from powts.oversight import services

    today = world["today"]
    audit = services.audit_draw_sample(jurisdiction=world["waiting"].jurisdiction, period_start=today - dt.timedelta(days=30),
                                       period_end=today, on=today, seed=5)
    services.hold_place(jurisdiction=audit.jurisdiction, on=today, reason="Axe check")
    flag = services.report_flag(report=world["report"], reason="checked", evidence=["statement"], on=today)
    referral = services.referral_make(license=world["report"].license, flags=[flag], on=today)
    return {"audit": audit.pk, "referral": referral.pk, "license": referral.license_id,
            "permit": world["waiting"].get_absolute_url()}


def test_the_oversight_pages_have_no_serious_axe_violation(live_server, recorded, browser):  # noqa: F811 (the imported fixture)
    """The rule for every page (no critical or serious axe violation), on the oversight pages with their records in
    them."""
    from tests.test_accessibility import AXE, _axe

    if not AXE.exists():
        pytest.skip("axe-core is not installed (npm ci)")
    r = recorded
    failures = []
    for username, paths in (("dora", ["/oversight/", f"/oversight/audits/{r['audit']}/", "/oversight/audits/"]),
                            ("sam", ["/oversight/flags/", f"/oversight/referrals/{r['referral']}/",
                                     f"/oversight/licenses/{r['license']}/", "/oversight/special-charges/",
                                     r["permit"], "/maintenance/"])):
        page = sign_in(browser, live_server.url, username)
        for path in paths:
            page.goto(f"{live_server.url}{path}")
            failures += [f"{username} {path}: {v['impact']} {v['id']} at {v['nodes']}" for v in _axe(page)
                         if v["impact"] in ("critical", "serious")]
    assert not failures, "\n".join(failures)
