"""Accessible plot plans: a plot plan drawn without a mouse. The drawing map's tools need a pointer,
so the application form and the permit page take a feature typed as points in feet east and north of a
reference corner; it goes on the same map and into the same plan the setback check reads. Here everything
is done from the keyboard (focus, typing, Enter, arrow keys), in Debian's chromium with no tile server:
a lot, a septic tank and a well 20 ft from it (NR 812.08: 25 ft), then the well moved to 50 ft; a bad
point is refused on its field; axe finds no serious violation."""
import pytest

from tests.test_accessibility import IMPACTS, _axe
from tests.test_browser import CHROMIUM, browser  # noqa: F401  (the chromium fixture and its skip rule)
from tests.test_browser_attachments import sign_in
from tests.test_browser_newbuild import county  # noqa: F401  (Dane, a plumber, a system)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM), reason="Debian's chromium is not installed")]


def _choose(page, label: str, typed: str) -> None:
    """A select chosen from the keyboard: focused, then its option's first letters typed."""
    page.get_by_label(label, exact=True).focus()
    page.keyboard.type(typed)


def _add(page, shape_moves: str, points: str) -> None:
    page.get_by_label("Shape", exact=True).focus()
    for key in shape_moves.split():
        page.keyboard.press(key)
    page.get_by_label("Points (feet east, feet north)").focus()
    page.keyboard.type(points)
    page.keyboard.press("Enter")  # adds the feature; the application is not filed


def test_plumber_draws_a_well_and_a_tank_by_keyboard_only_and_checks_the_setbacks(live_server, county, browser):  # noqa: F811
    from powts.permits.models import Permit

    page = sign_in(browser, live_server.url, "pete")
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server.url}/permits/new/")
    page.wait_for_load_state()
    page.locator("#plot-map .leaflet-pm-toolbar").first.wait_for()

    _choose(page, "What you draw next", "Lot line")
    _add(page, "ArrowDown ArrowDown", "0, 0; 200, 0; 200, 300; 0, 300")
    page.get_by_text("1 feature(s) drawn").wait_for()
    _choose(page, "What you draw next", "Septic")
    _add(page, "ArrowUp ArrowUp", "100, 150")
    _choose(page, "What you draw next", "Well")
    _add(page, "", "100 170")
    page.get_by_text("3 feature(s) drawn").wait_for()
    assert page.locator("#plot-map .leaflet-marker-icon").count() == 2  # on the map, as if drawn there
    listed = page.locator("#plot-map-list").inner_text()
    assert "Lot line 1 (Polygon)" in listed and "Septic or treatment tank 2 (Point)" in listed and "Well 3 (Point)" in listed

    # a point that is not two numbers: refused on its field, nothing added
    _add(page, "", "100; 20")
    assert "Points:" in page.locator("#typed-error").inner_text() and "“100”" in page.locator("#typed-error").inner_text()
    assert page.get_by_label("Points (feet east, feet north)").get_attribute("aria-invalid") == "true"
    page.get_by_text("3 feature(s) drawn").wait_for()
    page.get_by_label("Points (feet east, feet north)").fill("")

    page.get_by_role("button", name="Check the plot plan's setbacks").focus()
    page.keyboard.press("Enter")
    page.locator("#plan-check").get_by_text("breaks 1 setback").wait_for()
    assert "25" in page.locator("#plan-check").inner_text()  # the well 20 ft from the tank, 25 ft required

    page.get_by_role("button", name="Remove Well 3").focus()
    page.keyboard.press("Enter")
    page.get_by_text("2 feature(s) drawn").wait_for()
    _choose(page, "What you draw next", "Well")
    _add(page, "", "100, 200")
    page.get_by_text("3 feature(s) drawn").wait_for()
    page.get_by_role("button", name="Check the plot plan's setbacks").focus()
    page.keyboard.press("Enter")
    page.locator("#plan-check").get_by_text("complies with the setbacks").wait_for()
    assert not Permit.objects.exists()  # Enter in the points field never filed the application
    assert [v for v in _axe(page) if v["impact"] in IMPACTS] == []
    assert [e for e in errors if "Content Security Policy" in e] == []


def test_on_the_permit_page_a_typed_well_is_stored_with_the_plan(live_server, county, browser):  # noqa: F811
    """The permit page's map takes typed points too, from the south-west corner of the plan already drawn;
    storing the plan checks its setbacks again."""
    from powts.accounts.models import User
    from powts.permits.models import Permit
    from powts.permits.tests.test_new_construction import _apply
    from powts.permits.tests.test_plot_files import lonlat_plan

    permit = _apply(User.objects.get(username="pete"), county, plot_plan=lonlat_plan())
    page = sign_in(browser, live_server.url, "pete")
    page.goto(f"{live_server.url}/permits/{permit.pk}/")
    page.wait_for_load_state()
    page.get_by_text("2 feature(s) on the plan.").wait_for()
    _choose(page, "What you draw next", "Well")
    _add(page, "", "150, 250")
    page.get_by_text("3 feature(s) on the plan.").wait_for()
    assert [v for v in _axe(page) if v["impact"] in IMPACTS] == []
    page.get_by_role("button", name="Store the plan as drawn").focus()
    page.keyboard.press("Enter")
    page.wait_for_load_state()
    page.get_by_text("3 feature(s) on the plan.").wait_for()
    stored = Permit.objects.get(pk=permit.pk)
    assert [f["properties"]["kind"] for f in stored.plot_plan["features"]] == ["lot_line", "dispersal_area", "well"]
    assert stored.setback_result is not None
