"""In chromium, "dashboard cards and chart segments open the filtered list". County staff
open the dashboard, follow the "Overdue" card to the inventory filtered to overdue systems, then click the
standing chart's "Overdue" segment and land on the same list."""
import datetime as dt
import os
import re

import pytest

from tests.test_browser import CHROMIUM, browser, sign_in  # noqa: F401  (the chromium fixture and its skip rule)

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed")]


@pytest.fixture
def county(transactional_db):
    from powts.accounts.services import user_create
    from powts.inventory.services import system_create
    from powts.jurisdictions.services import jurisdiction_ensure
    from powts.maintenance.services import schedule_sync

    dane = jurisdiction_ensure(slug="dane")
    user_create(username="sam", password="a-long-test-password", role="county_staff", jurisdiction=dane)
    system_create(jurisdiction=dane, system_id="OLD-1", parcel_number="P-1", system_type="conventional", owner_name="Ann Old",
                  installed_on=dt.date(2000, 1, 1))
    system_create(jurisdiction=dane, system_id="NEW-1", parcel_number="P-2", system_type="conventional", owner_name="Bo New",
                  installed_on=dt.date.today() - dt.timedelta(days=30))
    schedule_sync(jurisdiction=dane)


def _sign_in(page, base):
    sign_in(page, base, "sam")
    page.get_by_role("heading", name="Maintenance program: Dane County").wait_for()  # staff's home


def test_card_and_chart_segment_open_the_filtered_list(live_server, county, browser):  # noqa: F811
    page = browser.new_page()
    _sign_in(page, live_server.url)
    page.get_by_role("link", name=re.compile(r"^1 Overdue\s*: open the list$")).click()
    page.get_by_role("heading", name="Inventory of systems").wait_for()
    assert "standing=overdue" in page.url
    rows = page.locator("tbody").inner_text()
    assert "OLD-1" in rows and "NEW-1" not in rows

    page.go_back()
    page.wait_for_function("() => window.Chart && Chart.getChart(document.getElementById('standing'))")
    page.locator("#standing").scroll_into_view_if_needed()
    page.wait_for_timeout(1500)  # the doughnut's opening animation
    # the centre of the "Overdue" segment (the chart's labels follow the cards' order)
    x, y = page.evaluate("""() => {
        const chart = Chart.getChart(document.getElementById('standing'));
        const i = chart.data.labels.indexOf('Overdue');
        const p = chart.getDatasetMeta(0).data[i].tooltipPosition();
        const box = chart.canvas.getBoundingClientRect();
        return [box.left + p.x, box.top + p.y];
    }""")
    page.mouse.click(x, y)
    page.wait_for_url("**standing=overdue**")
    assert "OLD-1" in page.locator("tbody").inner_text()
