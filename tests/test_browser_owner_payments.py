"""In Debian's chromium, an owner opens "My payments" from the menu and sees the county's
payment of their Wisconsin Fund grant (s. 145.246(8)(g)) and the DNR's payment of their well compensation claim
(s. 281.75(5)(f)); a neighbour's payments are not shown. No Content-Security-Policy violation on the way."""
import datetime as dt

import pytest

from tests.test_browser import CHROMIUM, browser, open_menu_page, PASSWORD, sign_in  # noqa: F401  (the chromium fixture and its skip rule)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM), reason="Debian's chromium is not installed")]


@pytest.fixture
def paid(transactional_db, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from powts.accounts.services import user_create
    from powts.grants import allocating, participation, services
    from powts.grants.tests.program_helpers import application
    from powts.inventory.services import system_create
    from powts.jurisdictions.services import jurisdiction_ensure
    from powts.permits.services.enforcement import failure_determine
    from powts.wells import services as wells
    from powts.wells.models import WellClaim

    dane = jurisdiction_ensure(slug="dane")
    sam = user_create(username="sam", password=PASSWORD, role="county_staff", jurisdiction=dane)
    dee = user_create(username="dee", password=PASSWORD, role="dsps")
    olive = user_create(username="olive", password=PASSWORD, role="owner")
    system = system_create(jurisdiction=dane, system_id="DA-0042", parcel_number="0810-123-4567-0",
                           system_type="conventional", owner_name="Olive Owner", site_address="12 Lake Rd",
                           municipality="Town of Verona", installed_on=dt.date(1971, 5, 1))
    owner = system.parcel.owner
    owner.user = olive
    owner.save(update_fields=["user"])
    det = failure_determine(system=system, conditions=["b"], on=dt.date(2025, 9, 1), basis="order")
    app = services.application_create(by=sam, failure_determination=det, applied_on=dt.date(2025, 10, 1),
                                      source="paper", annual_family_income=3_000_000, income_tax_year=2024,
                                      income_evidence="prior_year_return", funding_table_amount=520_000,
                                      today=dt.date(2025, 10, 1))
    services.application_decide(application=app, by=sam)
    application(dane, fiscal_year=app.fiscal_year, table="3100")  # a neighbour's, paid too
    participation.certify(jurisdiction=dane, fiscal_year=app.fiscal_year, user=sam, official_title="Sanitarian")
    participation.submit(jurisdiction=dane, fiscal_year=app.fiscal_year, user=sam, received_on=dt.date(2026, 1, 15))
    run = allocating.run_allocation(fiscal_year=app.fiscal_year, funds_cents=1_000_000_00, user=dee)
    pay = allocating.pay_county(run=run, jurisdiction=dane, user=dee, paid_on=dt.date(2026, 7, 15))
    allocating.disburse(payment=pay, user=sam, paid_on=dt.date(2026, 7, 20))
    row = {"supply_id": "S1", "claimant_type": "landowner", "supply_use": "residential", "well_kind": "drilled",
           "dwelling_units": 1, "sample_dates": "2024-01-01;2024-01-15", "lab_certified": True,
           "annual_family_income": "30000", "eligible_costs": "8000", "claimed_on": "2024-02-01",
           "completed_on": "2024-02-10"}
    wells.claims_import(rows=[{**row, "id": "W-1"}, {**row, "id": "W-2", "supply_id": "S2"}])
    WellClaim.objects.filter(claim_id="W-1").update(owner=owner)
    WellClaim.objects.filter(claim_id="W-2").update(owner=None)
    wells.payment_run(funds=1_000_000, on=dt.date(2024, 6, 1))  # $6,000 for W-1, then W-2 approved conditionally
    return app


def test_owner_sees_their_grant_and_claim_payments(live_server, paid, browser):  # noqa: F811
    page = sign_in(browser, live_server.url, "olive", watch_csp=True)
    open_menu_page(page, "My payments")
    page.get_by_role("heading", name="My grant and claim payments", level=1).wait_for()
    grants = page.locator("#grant-payments")
    assert grants.get_by_role("row").count() == 2  # the header and Olive's one payment
    row = grants.get_by_role("row").nth(1)
    assert row.get_by_role("link", name=str(paid.pk)).is_visible()
    assert "$5,200.00" in row.inner_text() and "July 20, 2026" in row.inner_text()
    assert "$3,100.00" not in page.content()  # the neighbour's grant
    wells = page.locator("#well-payments")
    assert wells.get_by_role("row").count() == 2
    assert "water supply S1" in wells.inner_text() and "$6,000.00" in wells.inner_text()
    assert "water supply S2" not in page.content()
    assert page.evaluate("() => window.__csp") == []
    row.get_by_role("link", name=str(paid.pk)).click()  # on to the application itself
    page.get_by_role("heading", name="Wisconsin Fund grant application").wait_for()
