"""Documents and photos in Debian's chromium: the public files a complaint with a photo; a plumber uploads a plan
with their application and county staff open it; an executable renamed .pdf is refused with a message; a
pumper on a phone-sized window files a report with a photo."""
import datetime as dt

import pytest

from powts.attachments.tests import samples
from tests.test_browser import CHROMIUM, browser, sign_in, PASSWORD  # noqa: F401  (the chromium fixture and its skip rule)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM), reason="Debian's chromium is not installed")]


@pytest.fixture
def county(transactional_db, monkeypatch):
    # the test reads the database between page steps, while Playwright's (sync) event loop is running
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from powts.accounts.services import license_create, user_create
    from powts.inventory.services import system_create
    from powts.jurisdictions.services import jurisdiction_ensure

    dane = jurisdiction_ensure(slug="dane")
    user_create(username="sam", password=PASSWORD, role="county_staff", jurisdiction=dane)
    pete = user_create(username="pete", password=PASSWORD, role="plumber")
    license_create(kind="master_plumber", number="MP-1001", holder_name="Pete Plumber", user=pete)
    puck = user_create(username="puck", password=PASSWORD, role="pumper")
    license_create(kind="septage_operator", number="SSO-7", holder_name="Puck Pumper", user=puck)
    system_create(jurisdiction=dane, system_id="DA-0001", parcel_number="0810-123-4567-0", system_type="mound",
                  owner_name="Margaret Schultz", site_address="4417 Oak Ridge Dr", municipality="Town of Verona")
    return dane


def test_the_public_files_a_complaint_with_a_photo(live_server, county, browser):  # noqa: F811
    from powts.permits.models import Complaint

    page = browser.new_page()
    page.goto(f"{live_server.url}/permits/complaints/new/")
    page.get_by_label("Where? (address or directions)").fill("12 Lake Rd")
    page.get_by_label("What did you see?").fill("Sewage running into the ditch")
    page.locator("#photo").set_input_files({"name": "ditch.jpg", "mimeType": "image/jpeg", "buffer": samples.image("JPEG")})
    page.get_by_role("button", name="Send the report").click()
    page.get_by_text("received your report").wait_for()
    att = Complaint.objects.get().attachments.get()
    assert (att.kind, att.original_name, att.content_type, att.uploaded_by) == ("photo", "ditch.jpg", "image/jpeg", None)


def test_a_plumber_uploads_a_plan_with_the_application_and_staff_open_it(live_server, county, browser):  # noqa: F811
    page = sign_in(browser, live_server.url, "pete")
    page.goto(f"{live_server.url}/permits/new/")
    page.get_by_label("Tax parcel number").fill("0810-123-4567-0")
    page.get_by_label("Master plumber license number").fill("MP-1001")
    page.locator("#plans").set_input_files({"name": "mound plan.pdf", "mimeType": "application/pdf", "buffer": samples.pdf()})
    page.get_by_role("button", name="File the application").click()
    page.get_by_role("heading", name="Plans, reports and photos").wait_for()
    assert page.get_by_role("link", name="mound plan.pdf").is_visible()
    permit_url = page.url

    staff = sign_in(browser, live_server.url, "sam")
    staff.goto(permit_url)
    with staff.expect_download() as info:
        staff.get_by_role("link", name="mound plan.pdf").click()
    download = info.value
    # The link shows the uploader's name; the file is saved under powts's name for it (record, kind, number, type).
    from powts.attachments.models import Attachment

    plan = Attachment.objects.get(kind="plan")
    assert download.suggested_filename == f"permit-{plan.permit.number.lower()}-plan-{plan.pk}.pdf"
    with open(download.path(), "rb") as handle:
        assert handle.read(5) == b"%PDF-"


def test_an_executable_renamed_pdf_is_refused_with_a_message(live_server, county, browser):  # noqa: F811
    from powts.attachments.models import Attachment

    page = sign_in(browser, live_server.url, "pete")
    page.goto(f"{live_server.url}/permits/new/")
    page.get_by_label("Tax parcel number").fill("0810-123-4567-0")
    page.get_by_label("Master plumber license number").fill("MP-1001")
    page.get_by_role("button", name="File the application").click()
    page.get_by_role("heading", name="Plans, reports and photos").wait_for()
    page.get_by_label("Kind of file").select_option("plan")
    page.locator("input[name=file]").set_input_files(
        {"name": "setup.pdf", "mimeType": "application/pdf", "buffer": samples.exe()})
    page.get_by_role("button", name="Upload").click()
    alert = page.get_by_text("setup.pdf is not accepted as a plan")
    alert.wait_for()
    assert "Windows program" in alert.inner_text() and "Nothing was added" in alert.inner_text()
    assert not Attachment.objects.exists()


def test_a_pumper_on_a_phone_files_a_report_with_a_photo(live_server, county, browser):  # noqa: F811
    from powts.maintenance.models import Report

    page = sign_in(browser, live_server.url, "puck", viewport={"width": 390, "height": 844}, is_mobile=True,
                   has_touch=True)
    page.goto(f"{live_server.url}/maintenance/report/")
    page.get_by_label("POWTS id").fill("DA-0001")
    page.get_by_label("Date of work").fill((dt.date.today() - dt.timedelta(days=1)).isoformat())
    page.get_by_label("Your license number").fill("SSO-7")
    page.get_by_label("Gallons pumped").fill("1000")
    page.locator("#photos").set_input_files({"name": "lid.jpg", "mimeType": "image/jpeg", "buffer": samples.image("JPEG")})
    page.get_by_role("button", name="File report").click()
    page.get_by_text("Filed:").wait_for()
    assert Report.objects.get().attachments.get().original_name == "lid.jpg"
