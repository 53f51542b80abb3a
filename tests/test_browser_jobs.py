"""Background jobs in chromium: county staff upload an inventory file, confirm it, and watch its job page
go from waiting to done by itself (htmx polling) with the counts and the rejected row, while a real
consumer takes the job off the queue."""
import pytest

from tests.test_browser import CHROMIUM, browser, open_menu_page, sign_in  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.browser, pytest.mark.jobs,
              pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM), reason="Debian's chromium is not installed")]
ROWS = 6000  # three of the import's chunks: the page has progress to show


@pytest.fixture
def county(transactional_db, settings, tmp_path, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the test reads the database beside Playwright's loop
    from powts.accounts.services import user_create
    from powts.jurisdictions.services import jurisdiction_ensure

    settings.MEDIA_ROOT = tmp_path / "media"
    dane = jurisdiction_ensure(slug="dane")
    user_create(username="sam", password="a-long-test-password", role="county_staff", jurisdiction=dane)
    lines = ["system_id,parcel_id,system_type,owner_name"] + [f"J-{n},P-{n},Mound,Owner {n}" for n in range(1, ROWS)]
    lines.append("J-X,P-X,Spaceship,Bad Row")
    path = tmp_path / "county.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_staff_upload_an_import_and_see_its_job_finish_with_the_counts(live_server, county, browser, tmp_path):  # noqa: F811
    from huey.contrib.djhuey import HUEY

    from powts.core.queue import start_consumer
    from powts.inventory.models import System

    HUEY.immediate = False  # the queue as configured, taken off by a real consumer below
    HUEY.storage.flush_queue()
    page = browser.new_page()
    sign_in(page, live_server.url, "sam")
    open_menu_page(page, "Inventory")
    page.get_by_role("link", name="Import a file").click()
    page.locator("#id_file").set_input_files(str(county))  # USWDS dresses the file input up; its label stays
    page.get_by_role("button", name="Check the file").click()
    page.get_by_role("heading", name="What importing county.csv would do").wait_for()
    page.get_by_role("button", name=f"Import {ROWS - 1:,} changed systems").click()
    page.get_by_role("heading", name="Import of county.csv").wait_for()
    page.wait_for_load_state()
    assert page.get_by_role("heading", name="Status: Waiting to start").is_visible()  # no worker yet
    assert "Waiting for a worker" in page.locator("#job-progress").inner_text()
    assert System.objects.count() == 0
    consumer = start_consumer(workers=1, periodic=False)
    try:
        page.get_by_role("heading", name="Status: Done").wait_for(timeout=90_000)  # the page updates itself
    finally:
        consumer.stop(graceful=True)
    text = page.locator("#job-progress").inner_text()
    assert f"{ROWS - 1:,} created" in text and "1 rejected" in text and "not a system type powts knows" in text
    assert System.objects.count() == ROWS - 1
    page.screenshot(path=str(tmp_path / "job.png"), full_page=True)
    page.get_by_role("link", name="Go to the inventory").click()
    page.get_by_role("heading", name="Inventory of systems").wait_for()
