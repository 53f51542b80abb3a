"""New construction in Debian's chromium: a plumber applies for a new-construction parcel and uploads a plan.

The plumber signs in, finds a parcel by address (and sees the finder fill its number), enters a parcel not
yet in the inventory, uploads a DXF plot plan, sees the setback result before filing (first a plan with the
dispersal area 3 ft from the lot line: Dane County Code s. 46.10(6) asks 5 ft; then a compliant one), files;
county staff open the application and confirm the parcel."""
import pytest

from powts.permits.tests.test_plot_files import dxf_bytes
from tests.test_browser import CHROMIUM, browser, PASSWORD, sign_in  # noqa: F401  (the chromium fixture and its skip rule)
from tests.test_accessibility import IMPACTS, _axe

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM), reason="Debian's chromium is not installed")]


@pytest.fixture
def county(transactional_db, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the test reads the database between page steps
    from powts.accounts.services import license_create, user_create
    from powts.inventory.services import system_create
    from powts.jurisdictions.services import jurisdiction_ensure

    dane = jurisdiction_ensure(slug="dane")
    user_create(username="sam", password=PASSWORD, role="county_staff", jurisdiction=dane)
    pete = user_create(username="pete", password=PASSWORD, role="plumber")
    license_create(kind="master_plumber", number="MP-1001", holder_name="Pete Plumber", user=pete)
    system_create(jurisdiction=dane, system_id="DA-0001", parcel_number="0810-123-4567-0", system_type="mound",
                  owner_name="Margaret Schultz", site_address="4417 Oak Ridge Dr", municipality="Town of Verona")
    return dane


def test_plumber_applies_for_a_new_construction_parcel_and_uploads_a_plan(live_server, county, browser):  # noqa: F811
    from powts.inventory.models import Parcel
    from powts.permits.models import Permit

    page = sign_in(browser, live_server.url, "pete")
    page.goto(f"{live_server.url}/permits/new/")
    # the finder: an address typed, the parcel on record offered, picked, its number filled in (never the owner)
    page.get_by_label("Find the parcel by number or address").fill("oak ridge")
    offered = page.locator("#find-parcel-results [data-parcel-number]")
    offered.first.wait_for()
    assert "Margaret Schultz" not in page.locator("#find-parcel-results").inner_text()
    offered.first.click()
    assert page.get_by_label("Tax parcel number").input_value() == "0810-123-4567-0"

    # new construction: a parcel not yet in the inventory
    page.get_by_label("Tax parcel number").fill("0608-222-1111-0")
    page.locator("label[for=new_parcel]").click()
    page.get_by_label("Site address (or the road the lot fronts)").fill("4410 Meadow Lane")
    page.get_by_label("Municipality (town, village or city)").fill("Town of Verona")
    page.get_by_label("Owner (blank: the owner on record)").fill("Nia Newhouse")
    page.get_by_label("Master plumber license number").fill("MP-1001")

    # the plot plan: checked before filing
    plan = page.locator("#plot_plan_file")
    plan.set_input_files({"name": "lot.dxf", "mimeType": "application/dxf", "buffer": dxf_bytes(mound_x=3)})
    page.get_by_role("button", name="Check the plot plan's setbacks").click()
    page.locator("#plan-check").get_by_text("breaks 1 setback").wait_for()
    assert "Dane County Code s. 46.10(6)" in page.locator("#plan-check").inner_text()
    assert page.locator("#plan-check svg").count() == 1
    plan.set_input_files({"name": "lot.dxf", "mimeType": "application/dxf", "buffer": dxf_bytes()})
    page.get_by_role("button", name="Check the plot plan's setbacks").click()
    page.locator("#plan-check").get_by_text("complies with the setbacks").wait_for()
    assert not Permit.objects.exists()  # a check stores nothing
    assert [v for v in _axe(page) if v["impact"] in IMPACTS] == []  # the form with its finder, map and result

    page.get_by_role("button", name="File the application").click()
    page.get_by_role("heading", name="New parcel: waiting for the county to confirm it").wait_for()
    permit = Permit.objects.get()
    assert permit.parcel.pending and permit.setback_result["complies"] is True and len(permit.plot_plan["features"]) == 3
    assert page.get_by_role("button", name="Confirm the parcel as entered").count() == 0  # staff's step
    permit_url = page.url

    staff = sign_in(browser, live_server.url, "sam")
    staff.goto(permit_url)
    staff.get_by_label("Note (optional)").first.fill("Checked against the land records")
    staff.get_by_role("button", name="Confirm the parcel as entered").click()
    staff.get_by_text("Done: confirm parcel").wait_for()
    assert staff.get_by_role("heading", name="New parcel: waiting for the county to confirm it").count() == 0
    assert not Parcel.objects.get(parcel_number="0608-222-1111-0").pending
    assert "confirmed by county staff" in staff.content()
    # staff amend the application: the change is listed with what it was, what it is, who and when
    staff.get_by_text("Amend the application (flows, building use, plans)").click()
    staff.get_by_label("Design flow (gallons a day)").fill("600")
    staff.get_by_label("Why it changes").fill("a fourth bedroom")
    staff.get_by_role("button", name="Amend").click()
    staff.get_by_role("heading", name="Amendments of the application").wait_for()
    row = staff.locator("section[aria-labelledby=h-amendments] tbody tr").first.inner_text()
    assert "design flow (gallons a day)" in row and "(blank)" in row and "600" in row and "sam" in row.lower()
    assert [v for v in _axe(staff) if v["impact"] in IMPACTS] == []


def test_plumber_draws_the_plot_plan_on_the_map(live_server, county, browser):  # noqa: F811
    """The features drawn on the map (here with no tile server: a blank background) are checked like a file."""
    page = sign_in(browser, live_server.url, "pete")
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "Content Security Policy" in m.text else None)
    page.goto(f"{live_server.url}/permits/new/")
    page.locator("#plot-map .leaflet-pm-toolbar").first.wait_for()
    page.locator("#plot-map").scroll_into_view_if_needed()
    box = page.locator("#plot-map").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def rectangle(x0, y0, x1, y1):
        page.locator("#plot-map .leaflet-pm-icon-rectangle").click()
        page.mouse.click(x + x0, y + y0)
        page.mouse.click(x + x1, y + y1)

    page.get_by_label("What you draw next").select_option("lot_line")
    rectangle(-150, -120, 150, 120)
    page.get_by_label("What you draw next").select_option("dispersal_area")
    rectangle(-40, -30, 40, 30)
    page.get_by_text("2 feature(s) drawn").wait_for()
    assert "Dispersal (absorption) area 2" in page.locator("#plot-map-list").inner_text()
    page.get_by_role("button", name="Check the plot plan's setbacks").click()
    page.locator("#plan-check").get_by_text("The plot plan (2 features) complies with the setbacks").wait_for()
    assert errors == []


def test_the_permit_page_draws_the_drawn_plan_again_and_its_plumber_adds_to_it(live_server, county, browser):  # noqa: F811
    """The permit page offered upload and paste only; now a plan drawn on the map is drawn on it again
    (no tile server: a blank background), its features listed; the plumber draws one more and stores the plan,
    whose setbacks are checked again."""
    from powts.accounts.models import User
    from powts.permits.models import Permit
    from powts.permits.tests.test_new_construction import _apply
    from powts.permits.tests.test_plot_files import lonlat_plan

    permit = _apply(User.objects.get(username="pete"), county, plot_plan=lonlat_plan())
    page = sign_in(browser, live_server.url, "pete")
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "Content Security Policy" in m.text else None)
    page.goto(f"{live_server.url}/permits/{permit.pk}/")
    page.get_by_text("2 feature(s) on the plan.").wait_for()
    assert page.locator("#plot-map .leaflet-interactive").count() == 2  # both shapes drawn on the map
    assert "Dispersal (absorption) area" in page.locator("#plot-map-list").inner_text()
    page.locator("#plot-map").scroll_into_view_if_needed()
    box = page.locator("#plot-map").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.get_by_label("What you draw next").select_option("well")
    page.locator("#plot-map .leaflet-pm-icon-marker").click()
    page.mouse.click(x + 5, y + 5)
    page.get_by_text("3 feature(s) on the plan.").wait_for()
    assert [v for v in _axe(page) if v["impact"] in IMPACTS] == []
    page.get_by_role("button", name="Store the plan as drawn").click()
    page.wait_for_load_state()
    page.get_by_text("3 feature(s) on the plan.").wait_for()
    stored = Permit.objects.get(pk=permit.pk).plot_plan
    assert [f["properties"]["kind"] for f in stored["features"]] == ["lot_line", "dispersal_area", "well"]
    assert stored["origin"] and errors == []
