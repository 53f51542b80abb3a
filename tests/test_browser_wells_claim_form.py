"""In Debian's chromium, DNR enters a single well compensation claim on the web form. A dug
well is refused on its field with the citation (s. 281.75(1)(h), (3)(a)); corrected, the claim is recorded with
the affidavit attached (the supply's county is known) and decided (s. 281.75(5)(c), (7)(a)).
No Content-Security-Policy violation on the way."""
import pytest

from powts.attachments.tests import samples
from tests.test_browser import CHROMIUM, browser, open_menu_page, PASSWORD, sign_in  # noqa: F401  (the chromium fixture and its skip rule)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM), reason="Debian's chromium is not installed")]


@pytest.fixture
def world(transactional_db, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the test reads the database between page steps
    from powts.accounts.services import user_create
    from powts.jurisdictions.services import jurisdiction_ensure

    jurisdiction_ensure(slug="dane")
    user_create(username="dana", password=PASSWORD, role="dnr")


def test_dnr_enters_a_claim_on_the_form(live_server, world, browser):  # noqa: F811
    from powts.wells.models import WellClaim

    page = sign_in(browser, live_server.url, "dana", watch_csp=True)
    open_menu_page(page, "Well claims")
    page.get_by_role("link", name="Enter a claim").click()
    page.get_by_role("heading", name="Enter a well compensation claim", level=1).wait_for()
    page.get_by_label("Claim number", exact=True).fill("WC-77")
    page.get_by_label("Received on", exact=True).fill("2024-02-01")
    page.get_by_label("Water supply", exact=True).fill("WS-77")
    page.get_by_label("County of the water supply", exact=True).select_option("dane")
    page.get_by_label("Kind of well", exact=True).select_option("dug")
    page.get_by_label("Name", exact=True).fill("Wanda Wells")
    page.get_by_label("Annual family income (dollars)", exact=True).fill("30,000")
    page.get_by_label("Eligible costs (dollars)", exact=True).fill("8000")
    page.get_by_label("Water sample 1 taken on", exact=True).fill("2024-01-01")
    page.get_by_label("Water sample 2 taken on", exact=True).fill("2024-01-15")
    page.locator("label[for='lab_certified']").click()  # USWDS draws the box on the label
    page.get_by_label("Affidavit received on", exact=True).fill("2024-02-01")
    page.get_by_label("Tax returns received on", exact=True).fill("2024-02-05")
    page.get_by_label("Complete on (if it is)", exact=True).fill("2024-02-10")
    page.get_by_role("button", name="Record the claim").click()
    page.get_by_role("heading", name="The claim was not recorded").wait_for()
    assert "281.75" in page.locator("#well_kind-error-1").inner_text()
    assert not WellClaim.objects.exists()

    page.get_by_label("Kind of well", exact=True).select_option("drilled")  # the values typed are kept
    assert page.get_by_label("Claim number", exact=True).input_value() == "WC-77"
    page.locator("#evidence").set_input_files({"name": "affidavit.pdf", "mimeType": "application/pdf",
                                               "buffer": samples.pdf()})
    page.get_by_role("button", name="Record the claim").click()
    page.locator("#claim-status").wait_for()
    claim = WellClaim.objects.get()
    assert (claim.claim_id, claim.eligible, claim.award) == ("WC-77", True, 600_000)
    assert claim.attachments.get().original_name == "affidavit.pdf"
    assert "$6,000.00" in page.content() and "affidavit.pdf" in page.content()
    assert page.evaluate("() => window.__csp") == []
