"""The map in Debian's chromium: staff open the map with the tile server unreachable, see the
systems as clusters, zoom in to single systems coloured by standing, and click one through to its page."""
import datetime as dt
import os
import re
from decimal import Decimal

import pytest

from tests.test_browser import CHROMIUM, browser, sign_in  # noqa: F401 -- the shared chromium fixture

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed (apt-get install chromium)"),
]


@pytest.fixture
def county(transactional_db):
    from powts.accounts.services import user_create
    from powts.inventory.models import Parcel
    from powts.inventory.services import system_create
    from powts.jurisdictions.services import jurisdiction_ensure
    from powts.maintenance.services import schedule_sync

    dane = jurisdiction_ensure(slug="dane")
    user_create(username="sam", password="a-long-test-password", role="county_staff", jurisdiction=dane)
    today = dt.date.today()
    places = {"DA-0001": (43.0731, -89.4012, today - dt.timedelta(days=6 * 365)),   # Madison, overdue
              "DA-0002": (43.0631, -89.3812, today - dt.timedelta(days=100)),       # Madison, current
              "DA-0003": (44.5133, -88.0133, today - dt.timedelta(days=100))}       # Green Bay
    for sid, (lat, lon, installed) in places.items():
        s = system_create(jurisdiction=dane, system_id=sid, parcel_number=f"P-{sid}", system_type="conventional",
                          owner_name=f"Owner {sid}", site_address=f"{sid[-1]} Lake Rd", municipality="Town of Dunn",
                          installed_on=installed)
        Parcel.objects.filter(pk=s.parcel_id).update(latitude=Decimal(str(lat)), longitude=Decimal(str(lon)))
    system_create(jurisdiction=dane, system_id="DA-0004", parcel_number="P-4", system_type="mound", owner_name="No Where")
    schedule_sync(jurisdiction=dane)


def test_staff_open_the_map_without_tiles_and_click_through_to_a_system(live_server, county, browser, tmp_path):  # noqa: F811
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    tiles = []

    def block(route):  # no tile server reachable: the points must still show on a blank background
        tiles.append(route.request.url)
        route.abort()

    page.route(re.compile(r"https://([a-z]\.)?tile\.openstreetmap\.org/.*"), block)
    sign_in(page, live_server.url, "sam", next="/map/")
    page.get_by_role("heading", name="Map of systems, permits and complaints").wait_for()
    summary = page.locator("#map-summary")
    summary.filter(has_text="In view: 3 systems").wait_for()
    assert "1 system not on the map" in page.locator("#not-on-map").inner_text()
    assert tiles, "the map asked for tiles (and got none)"

    # The whole county fits at a low zoom: the server sends clusters; each click on one zooms in.
    clusters = page.locator(".powts-cluster")
    clusters.first.wait_for()
    assert "systems" in clusters.first.get_attribute("title") or "system" in clusters.first.get_attribute("title")
    for _ in range(8):
        if page.locator("path.leaflet-interactive").count():
            break
        loaded = page.locator("#map").get_attribute("data-loaded")
        target = page.locator(".powts-cluster, .marker-cluster").first
        target.focus()  # by keyboard: clusters are buttons (adjacent ones may overlap under a pointer)
        target.press("Enter")
        page.locator(f"#map:not([data-loaded='{loaded}'])").wait_for()  # the next answer drawn
    points = page.locator("path.leaflet-interactive")
    assert points.count() >= 1
    fills = {points.nth(i).get_attribute("fill") for i in range(points.count())}
    assert fills <= {"#e66f0e", "#00a91c"} and fills  # overdue orange, current green
    # The list under the map names what is in view, as links (the keyboard's way in).
    assert page.locator("#map-list a").count() == points.count()
    page.screenshot(path=str(tmp_path / "map.png"), full_page=True)
    if os.environ.get("POWTS_SCREENSHOTS"):
        page.screenshot(path=os.path.join(os.environ["POWTS_SCREENSHOTS"], "map.png"), full_page=True)

    points.first.click()
    popup = page.locator(".leaflet-popup-content a")
    popup.wait_for()
    name = popup.inner_text()
    popup.click()
    page.get_by_role("heading", name=re.compile(name)).wait_for()
    assert "/inventory/systems/" in page.url
