"""Notices in Debian's chromium: county staff preview the next notice batch, look at a letter, send
the batch and download the print shop's PDF; an owner signs in and reads the letter sent to them."""
import datetime as dt
import os

import pytest

from tests.test_browser import CHROMIUM, browser, sign_in  # noqa: F401 (the fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (apt-get install chromium)"),
]
AS_OF = "2026-06-01"


@pytest.fixture
def county(transactional_db, settings, tmp_path):
    from powts.accounts.services import user_create
    from powts.inventory.models import Owner
    from powts.inventory.services import system_create
    from powts.jurisdictions.services import jurisdiction_ensure
    from powts.maintenance.services import schedule_sync

    settings.POWTS_LETTERS_DIR = tmp_path / "letters"
    dane = jurisdiction_ensure(slug="dane")
    user_create(username="sam", password="a-long-test-password", role="county_staff", jurisdiction=dane)
    owner_user = user_create(username="margaret", password="a-long-test-password", role="owner")
    system_create(jurisdiction=dane, system_id="DA-0001", parcel_number="0810-123-4567-0", system_type="mound",
                  owner_name="Margaret Schultz", owner_mailing_address="4417 Oak Ridge Dr\nVerona, WI 53593",
                  site_address="4417 Oak Ridge Dr", municipality="Town of Verona", installed_on=dt.date(2023, 7, 1))
    system_create(jurisdiction=dane, system_id="DA-0002", parcel_number="0711-222-0001-0", system_type="conventional",
                  owner_name="Tom Vang", owner_mailing_address="12 Lake Rd\nMadison, WI 53704", site_address="12 Lake Rd",
                  municipality="Town of Dunn", installed_on=dt.date(2020, 1, 1))
    system_create(jurisdiction=dane, system_id="DA-0003", parcel_number="0711-222-0002-0", system_type="conventional",
                  owner_name="Nora Noaddress", site_address="14 Lake Rd", municipality="Town of Dunn", installed_on=dt.date(2020, 1, 1))
    Owner.objects.filter(name="Margaret Schultz").update(user=owner_user)
    Owner.objects.filter(name="Tom Vang").update(language="hmn")
    schedule_sync(jurisdiction=dane)
    return dane


def test_staff_preview_send_and_download_the_batch(live_server, county, browser, tmp_path):  # noqa: F811
    from pypdf import PdfReader

    page = browser.new_page(accept_downloads=True)
    sign_in(page, live_server.url, "sam")
    page.get_by_role("link", name="Notices").click()
    page.get_by_role("heading", name="Maintenance notices: Dane County").wait_for()
    page.get_by_label("Mailing date").fill(AS_OF)
    page.get_by_role("button", name="Preview").click()
    page.wait_for_url(f"**as_of={AS_OF}**")
    assert page.locator('[data-kind="first_notice"]').inner_text() == "1"
    assert page.locator('[data-kind="reminder"]').inner_text() == "1"
    assert page.locator('[data-kind="held"]').inner_text() == "1"
    held = page.get_by_role("region", name="Held back").or_(page.locator("section[aria-labelledby=h-held]"))
    assert "Nora Noaddress" in held.first.inner_text()

    # a letter before anything is sent
    href = page.get_by_role("link", name="View the letter to Tom Vang for DA-0002").get_attribute("href")
    letter = page.request.get(f"{live_server.url}{href}")
    assert letter.ok and letter.headers["content-type"] == "application/pdf"
    (tmp_path / "preview.pdf").write_bytes(letter.body())
    pages = PdfReader(tmp_path / "preview.pdf").pages
    assert len(pages) == 2 and "Tom Vang" in pages[0].extract_text() and "Due date: January 1, 2023" in pages[1].extract_text()

    page.get_by_role("button", name="Send this batch (2 letters)").click()
    page.get_by_role("heading", name="Status: Sent").wait_for()
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the letters for the print shop (PDF)").click()
    path = tmp_path / "batch.pdf"
    download.value.save_as(path)
    merged = PdfReader(path).pages
    assert len(merged) == 3  # Margaret's letter, and Tom's in Hmong with the English behind it
    texts = [p.extract_text() for p in merged]
    assert sum("Margaret Schultz" in t for t in texts) == 1 and sum("Tom Vang" in t for t in texts) == 2


@pytest.fixture
def sent(county, tmp_path):
    from powts.maintenance.notices import notices_send

    return notices_send(jurisdiction=county, as_of=dt.date(2026, 6, 1), output_dir=tmp_path / "letters")


def test_owner_signs_in_and_reads_their_letter(live_server, sent, browser, tmp_path):  # noqa: F811
    from pypdf import PdfReader

    page = browser.new_page()
    sign_in(page, live_server.url, "margaret")
    page.goto(f"{live_server.url}/maintenance/mine/")
    link = page.get_by_role("link", name="read or reprint the letter (PDF)")
    assert link.count() == 1
    letter = page.request.get(f"{live_server.url}{link.get_attribute('href')}")
    assert letter.ok
    (tmp_path / "mine.pdf").write_bytes(letter.body())
    text = PdfReader(tmp_path / "mine.pdf").pages[0].extract_text()
    assert "Margaret Schultz" in text and "Due date: July 1, 2026" in text and "Tom Vang" not in text
