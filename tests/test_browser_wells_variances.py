"""Well compensation claims and variances in Debian's chromium: DNR opens its claims queue, marks an incomplete claim
complete once the missing items are in (s. 281.75(5)(c)) and runs a payment (s. 281.75(5)(f));
DSPS decides a variance petitioned by an owner (s. 145.24(3))."""
import datetime as dt
import os

import pytest

from tests.test_browser import CHROMIUM, browser, sign_in, PASSWORD  # noqa: F401  (the chromium fixture and its skip rule)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (apt-get install chromium)"),
]


@pytest.fixture
def world(transactional_db):
    from powts.accounts.services import user_create
    from powts.inventory.services import system_create
    from powts.jurisdictions.services import jurisdiction_ensure
    from powts.permits.services import enforcement as enf
    from powts.wells import services as wells

    dane = jurisdiction_ensure(slug="dane")
    user_create(username="dana", password=PASSWORD, role="dnr")
    user_create(username="dale", password=PASSWORD, role="dsps")
    base = {"claimant_type": "landowner", "supply_use": "residential", "well_kind": "drilled", "dwelling_units": 1,
            "sample_dates": "2024-01-01;2024-01-15", "lab_certified": True, "annual_family_income": "30000",
            "eligible_costs": "8000", "claimed_on": "2024-02-01"}
    wells.claims_import(rows=[
        {**base, "id": "WC-1", "supply_id": "WS-1", "claimant_name": "Ruth Well", "completed_on": "2024-02-05"},
        {**base, "id": "WC-2", "supply_id": "WS-2", "claimant_name": "Ned Incomplete", "tax_returns_on": "2024-02-01"},
    ])
    system = system_create(jurisdiction=dane, system_id="DA-77", parcel_number="PV-77", system_type="conventional",
                           owner_name="Vera Variance", installed_on=dt.date(1990, 5, 1))
    enf.variance_petition(system=system, standard="siting", on=dt.date.today(), reason="small lot")


def test_dnr_completes_a_claim_and_runs_a_payment(live_server, world, browser):  # noqa: F811
    page = browser.new_page()
    sign_in(page, live_server.url, "dana")
    page.get_by_role("heading", name="Well compensation claims").wait_for()  # DNR's home
    assert page.locator("tbody tr").count() == 2
    page.get_by_role("link", name="WC-2").click()
    page.get_by_role("heading", name="Missing (Wis. Stat. s. 281.75(5)(c))").wait_for()
    assert "verified by affidavit" in page.content()
    page.get_by_role("button", name="Mark complete").click()  # refused: the affidavit is missing
    page.get_by_text("the claim is not complete").wait_for()
    page.locator("label[for='i-aff']").click()  # USWDS draws the box on the label
    page.get_by_role("button", name="Record items").click()
    page.locator("#claim-status", has_text="Complete, awaiting payment").wait_for()
    assert "Eligible" in page.content() and "$6,000.00" in page.content()

    page.get_by_role("link", name="Well claims").first.click()
    page.get_by_role("link", name="Payment runs").first.click()
    page.get_by_label("Funds available (dollars)").fill("6000")
    page.get_by_role("button", name="Run the payments").click()
    page.get_by_role("heading", name="Payment run").wait_for()
    rows = {r.split("\t")[1]: r.lower() for r in page.locator("tbody tr").all_inner_texts()}  # tags are drawn in capitals
    # WC-1 complete on 2024-02-05 is paid; WC-2, complete today, waits with a conditional approval (5)(f)
    assert "paid" in rows["WC-1"] and "$6,000.00" in rows["WC-1"]
    assert "conditionally approved" in rows["WC-2"]


def test_dsps_decides_a_variance(live_server, world, browser):  # noqa: F811
    page = browser.new_page()
    sign_in(page, live_server.url, "dale")
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/permits/variances/")
    page.get_by_role("heading", name="Variances for existing systems").wait_for()
    page.get_by_role("button", name="Deny").click()  # no reason: refused
    page.get_by_text("say why the variance is denied").wait_for()
    page.get_by_label("Reason").fill("continued use is fine")
    page.get_by_role("button", name="Grant", exact=True).click()
    page.get_by_text("Decision recorded.").wait_for()
    assert "granted" in page.locator("tbody").inner_text().lower() and "Wis. Stat. s. 145.24(3)" in page.locator("tbody").inner_text()
    page.get_by_label("Ground").select_option("contaminates")
    page.get_by_label("Reason").fill("nitrate found in the neighbour's well")
    page.get_by_role("button", name="Rescind").click()
    page.get_by_text("Variance rescinded.").wait_for()
    assert "contaminates waters of the state" in page.locator("tbody").inner_text()
