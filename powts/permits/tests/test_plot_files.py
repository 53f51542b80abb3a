"""Plot plans: "draw or upload the plot plan (draw features on a map or upload GeoJSON, DXF or a PDF ...;
the setback check runs on what was drawn)". The plan must show what Dane County Code s. 46.09(3)(c)1. and
Lincoln Ch. 22 (draft), Plans (3)(c) ask of a plot plan; the setbacks checked are the profile's (Dane
s. 46.10(6): 5 ft from a lot line). A file that cannot be read, has no outline or lies outside the county is
refused naming the file, and nothing is saved."""
import io
import json

import ezdxf
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from powts.core.refusals import Refused
from powts.inventory.models import Parcel
from powts.permits import plot_files
from powts.permits.models import Permit
from powts.permits.tests.conftest import make_parcel


def dxf_bytes(*, units=2, scale=1.0, mound_x=60.0, layers=("lot_line", "dwelling", "dispersal_area")) -> bytes:
    doc = ezdxf.new()
    doc.header["$INSUNITS"] = units
    msp = doc.modelspace()

    def box(x0, y0, x1, y1, layer):
        msp.add_lwpolyline([(x0 * scale, y0 * scale), (x1 * scale, y0 * scale), (x1 * scale, y1 * scale),
                            (x0 * scale, y1 * scale)], close=True, dxfattribs={"layer": layer})

    lot, house, mound = layers
    box(0, 0, 200, 300, lot)
    box(60, 200, 110, 240, house)
    box(mound_x, 40, mound_x + 80, 100, mound)
    stream = io.StringIO()
    doc.write(stream)
    return stream.getvalue().encode()


def upload(name: str, data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


def test_dxf_layers_name_the_features_in_feet():
    got = plot_files.read_upload(upload("lot.dxf", dxf_bytes()))
    kinds = [f["properties"]["kind"] for f in got.plan["features"]]
    assert got.kind == "dxf" and kinds == ["lot_line", "dwelling", "dispersal_area"]
    ring = got.plan["features"][2]["geometry"]["coordinates"][0]
    assert ring[0] == [60.0, 40.0] and ring[-1] == ring[0]


def test_dxf_in_metres_is_read_in_feet():
    got = plot_files.read_upload(upload("lot.dxf", dxf_bytes(units=6, scale=0.3048)))
    ring = got.plan["features"][0]["geometry"]["coordinates"][0]
    assert ring[1][0] == pytest.approx(200.0) and ring[2][1] == pytest.approx(300.0)


def test_dxf_layer_words_people_use():
    got = plot_files.read_upload(upload("lot.dxf", dxf_bytes(layers=("Property Line", "HOUSE", "Drain-field"))))
    assert [f["properties"]["kind"] for f in got.plan["features"]] == ["lot_line", "dwelling", "dispersal_area"]


@pytest.mark.parametrize("data,words", [
    (b"0\nSECTION\n2\nHEADER\nthis is not a drawing", "not a readable DXF"),
    (b"MZ\x90\x00 a program", "not a GeoJSON, DXF or PDF"),
    (b"{not json", "not readable GeoJSON"),
    (b"", "empty"),
])
def test_unreadable_files_are_refused_naming_the_file(data, words):
    with pytest.raises(Refused) as refused:
        plot_files.read_upload(upload("site.dxf", data))
    assert refused.value.message.startswith("site.dxf:") and words in refused.value.message
    assert "plot_plan_file" in refused.value.errors


def test_dxf_with_no_feature_layer_lists_its_layers():
    with pytest.raises(Refused) as refused:
        plot_files.read_upload(upload("site.dxf", dxf_bytes(layers=("0", "TEXT", "Dims"))))
    assert "layers found: 0, Dims, TEXT" in refused.value.message


def test_a_plan_with_no_outline_is_refused():
    points_only = {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"kind": "well"}, "geometry": {"type": "Point", "coordinates": [0, 0]}},
        {"type": "Feature", "properties": {"kind": "lot_line"}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [9, 9]]}}]}
    with pytest.raises(Refused, match="no outline"):
        plot_files.from_request(upload("plan.geojson", json.dumps(points_only).encode()))


def test_too_large_a_file_is_refused():
    with pytest.raises(Refused, match="at most 5 MB"):
        plot_files.read_upload(upload("big.geojson", b"{" + b" " * plot_files.MAX_BYTES))


# -- longitude and latitude -------------------------------------------------------------------------

LON, LAT = -89.5254, 43.0605  # near Verona, in Dane County


def lonlat_plan(lon0=LON, lat0=LAT, mound_ft_from_lot=20.0):
    """The lot is 200 x 300 ft; the dispersal area starts `mound_ft_from_lot` ft inside the west lot line."""
    fx, fy = plot_files._feet_per_degree(lat0)

    def box(x0, y0, x1, y1):
        return [[[lon0 + x / fx, lat0 + y / fy] for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0))]]

    return {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"kind": "lot_line"}, "geometry": {"type": "Polygon", "coordinates": box(0, 0, 200, 300)}},
        {"type": "Feature", "properties": {"kind": "dispersal_area"},
         "geometry": {"type": "Polygon", "coordinates": box(mound_ft_from_lot, 40, mound_ft_from_lot + 80, 100)}}]}


def test_geographic_plan_in_the_county_is_projected_to_feet():
    feet = plot_files.in_feet(lonlat_plan(), slug="dane", county="Dane County")
    assert feet["units"] == "feet" and feet["origin"]["latitude"] == pytest.approx(LAT, abs=0.01)
    ring = feet["features"][0]["geometry"]["coordinates"][0]
    width = max(p[0] for p in ring) - min(p[0] for p in ring)
    assert width == pytest.approx(200.0, abs=0.05)


@pytest.mark.parametrize("gap,complies", [(4.9, False), (5.1, True)])
def test_geographic_plan_setbacks_both_sides_of_five_feet(dane, gap, complies):
    """Dane County Code s. 46.10(6): not less than 5 feet from any lot line."""
    from powts.permits.selectors import plan_check

    out = plan_check(plan=lonlat_plan(mound_ft_from_lot=gap), jurisdiction=dane)
    assert out["result"]["complies"] is complies


def test_geographic_plan_outside_the_county_is_refused():
    with pytest.raises(Refused) as refused:
        plot_files.in_feet(lonlat_plan(lon0=-91.25, lat0=44.8), slug="dane", county="Dane County")
    assert "outside Dane County" in refused.value.message and "Dane County Code s. 46.01" in refused.value.message


def test_feet_plans_are_left_as_they_are():
    from powts.permits.tests.conftest import COMPLIANT_PLAN

    assert plot_files.in_feet(COMPLIANT_PLAN, slug="dane", county="Dane County") is COMPLIANT_PLAN


# -- the form -----------------------------------------------------------------------------------------

def _form(**extra):
    data = {"jurisdiction": "dane", "parcel_number": "0608-222-1111-0", "new_parcel": "on", "site_address": "4410 Meadow Lane",
            "municipality": "Town of Verona", "owner_name": "Nia Newhouse", "system_type": "standard", "kind": "state"}
    data.update(extra)
    return data


def test_filing_with_a_dxf_plan_stores_it_checked(client, dane, master, plumber_user):
    client.force_login(plumber_user)
    r = client.post("/permits/new/", _form(plot_plan_file=upload("lot.dxf", dxf_bytes(mound_x=3))))
    assert r.status_code == 302
    permit = Permit.objects.get()
    assert len(permit.plot_plan["features"]) == 3 and permit.setback_result["complies"] is False


@pytest.mark.parametrize("name,data", [("lot.dxf", b"0\nSECTION\n2\nHEADER\nbroken"),
                                       ("lot.geojson", json.dumps({"type": "FeatureCollection", "features": []}).encode())])
def test_a_refused_plan_file_files_nothing(client, dane, master, plumber_user, name, data):
    client.force_login(plumber_user)
    r = client.post("/permits/new/", _form(plot_plan_file=upload(name, data)))
    page = r.content.decode()
    assert r.status_code == 200 and "The application was not filed" in page and name in page
    assert not Permit.objects.exists() and not Parcel.objects.filter(parcel_number="0608-222-1111-0").exists()


def test_a_plan_outside_the_county_files_nothing(client, dane, master, plumber_user):
    client.force_login(plumber_user)
    far = json.dumps(lonlat_plan(lon0=-91.25, lat0=44.8)).encode()
    page = client.post("/permits/new/", _form(plot_plan_file=upload("plan.geojson", far))).content.decode()
    assert "outside Dane County" in page and not Permit.objects.exists() and not Parcel.objects.filter(pending=True).exists()


def test_a_pdf_plot_plan_is_kept_as_the_paper_plot_plan(client, dane, master, plumber_user, settings, tmp_path):
    from pypdf import PdfWriter

    settings.MEDIA_ROOT = tmp_path
    writer, buf = PdfWriter(), io.BytesIO()
    writer.add_blank_page(width=612, height=792)
    writer.write(buf)
    client.force_login(plumber_user)
    r = client.post("/permits/new/", _form(plot_plan_file=upload("plot.pdf", buf.getvalue())))
    assert r.status_code == 302
    permit = Permit.objects.get()
    assert permit.plot_plan is None and permit.documents.filter(kind="plot_plan").exists()
    assert permit.attachments.filter(kind="plan", original_name="plot.pdf").exists()


def test_plan_check_shows_the_setback_result_before_filing(client, dane, master, plumber_user):
    client.force_login(plumber_user)
    bad = client.post("/permits/new/check-plan/", {"jurisdiction": "dane", "plot_plan_file": upload("lot.dxf", dxf_bytes(mound_x=3))})
    page = bad.content.decode()
    assert bad.status_code == 200 and "breaks 1 setback" in page and "<svg" in page and "Dane County Code s. 46.10(6)" in page
    good = client.post("/permits/new/check-plan/", {"jurisdiction": "dane", "plot_plan_file": upload("lot.dxf", dxf_bytes())})
    assert "complies with the setbacks" in good.content.decode()
    broken = client.post("/permits/new/check-plan/", {"jurisdiction": "dane", "plot_plan": "{oops"})
    assert broken.status_code == 400 and "plot_plan" in broken.content.decode()
    assert not Permit.objects.exists()


def test_permit_page_takes_a_dxf_plot_plan(client, dane, master, plumber_user):
    from powts.permits.tests.conftest import file_complete

    permit = file_complete(dane, master)
    client.force_login(plumber_user)
    page = client.post(f"/permits/{permit.pk}/plot-plan/", {"plot_plan_file": upload("new.dxf", dxf_bytes(mound_x=3))},
                       follow=True).content.decode()
    assert "Done: plot plan" in page
    assert Permit.objects.get(pk=permit.pk).setback_result["complies"] is False


# -- the parcel finder -----------------------------------------------------------------------------------

def test_parcel_finder_matches_number_and_address_in_the_users_county(client, dane, lincoln, master, plumber_user, make_user):
    from powts.inventory.services import system_create

    system_create(jurisdiction=dane, system_id="D-1", parcel_number="0810-123-4567-0", system_type="conventional",
                  owner_name="Private Person", site_address="12 Lake Rd", municipality="Town of Dunn")
    make_parcel(lincoln, number="0810-999")
    client.force_login(plumber_user)
    by_number = client.get("/permits/new/find-parcel/", {"parcel_q": "0810-12", "jurisdiction": "dane"}).content.decode()
    assert "0810-123-4567-0" in by_number and "Private Person" not in by_number and "0810-999" not in by_number
    by_address = client.get("/permits/new/find-parcel/", {"parcel_q": "12 lake", "jurisdiction": "dane"}).content.decode()
    assert "0810-123-4567-0" in by_address and "12 Lake Rd" in by_address
    bare = client.get("/permits/new/find-parcel/", {"parcel_q": "081012345", "jurisdiction": "dane"}).content.decode()
    assert "0810-123-4567-0" in bare
    none = client.get("/permits/new/find-parcel/", {"parcel_q": "zzzz", "jurisdiction": "dane"}).content.decode()
    assert "No parcel of Dane County" in none
    lincoln_staff = make_user("staff-l", "county_staff", lincoln)
    client.force_login(lincoln_staff)  # staff search their own county whatever the form says
    own = client.get("/permits/new/find-parcel/", {"parcel_q": "0810", "jurisdiction": "dane"}).content.decode()
    assert "0810-999" in own and "0810-123-4567-0" not in own


def test_parcel_finder_is_for_filers(client, dane, make_user):
    client.force_login(make_user("pumper1", "pumper"))
    assert client.get("/permits/new/find-parcel/", {"parcel_q": "0810"}).status_code == 403


# -- the API ---------------------------------------------------------------------------------------------

def test_api_checks_a_plan_and_finds_parcels(client, dane, master, plumber_user):
    from powts.permits.tests.conftest import BAD_PLAN, file_complete

    client.force_login(plumber_user)
    r = client.post("/api/plot-plans/check/?jurisdiction=dane", BAD_PLAN, content_type="application/json")
    assert r.status_code == 200 and r.json()["complies"] is False and r.json()["violation_count"] >= 1
    dxf = client.post("/api/plot-plans/check/?jurisdiction=dane", {"file": upload("lot.dxf", dxf_bytes())})
    assert dxf.status_code == 200 and dxf.json()["complies"] is True and dxf.json()["features"] == 3
    broken = client.post("/api/plot-plans/check/?jurisdiction=dane", {"file": upload("lot.dxf", b"0\nSECTION\nbroken")})
    assert broken.status_code == 400 and "lot.dxf" in json.dumps(broken.json())
    no_county = client.post("/api/plot-plans/check/", BAD_PLAN, content_type="application/json")
    assert no_county.status_code == 400 and "jurisdiction" in no_county.json()["errors"]
    make_parcel(dane, number="0810-555")
    found = client.get("/api/parcels/find/?q=0810-5&jurisdiction=dane").json()["results"]
    assert found == [{"parcel_number": "0810-555", "site_address": "123 County Rd", "municipality": ""}]
    permit = file_complete(dane, master)
    stored = client.post(f"/api/permits/{permit.pk}/plot-plan/", {"file": upload("lot.dxf", dxf_bytes(mound_x=3))})
    assert stored.status_code == 200 and stored.json()["setback_result"]["complies"] is False
    amended = [ch for ch in stored.json()["changes"] if ch["kind"] == "amendment"]
    assert amended and amended[0]["changed_fields"][0]["field"] == "plot_plan"


@pytest.mark.parametrize("body", [[1, 2], {"type": "FeatureCollection", "features": 5},
                                  {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"kind": "well"},
                                                                              "geometry": {"type": "Point", "coordinates": ["-89.5", "43"]}}]},
                                  {"type": "FeatureCollection", "features": ["x", {"geometry": "y"}]}])
def test_malformed_plans_are_a_400_never_a_500(client, dane, master, plumber_user, body):
    client.force_login(plumber_user)
    r = client.post("/api/plot-plans/check/?jurisdiction=dane", body, content_type="application/json")
    assert r.status_code == 400 and set(r.json()["errors"]) & {"plot_plan", "body"}


# ---- curves: DXF arcs, splines and hatches are read too ---------------------------------------------------------
CURVED = __import__("pathlib").Path(__file__).parent / "fixtures" / "curved_lot.dxf"


def _curved() -> dict:
    return plot_files.read_upload(upload("curved_lot.dxf", CURVED.read_bytes())).plan


def _by_kind(plan, kind):
    return next(f["geometry"] for f in plan["features"] if f["properties"]["kind"] == kind)


def test_a_polyline_bulge_is_read_as_its_arc_not_its_chord():
    """The fixture's lot: its road side is a half circle (bulge 1) of radius 100 about (100, 300)."""
    ring = _by_kind(_curved(), "lot_line")["coordinates"][0]
    bulge = [p for p in ring if p[1] > 300]
    assert max(p[1] for p in ring) == pytest.approx(400, abs=0.05) and len(bulge) > 10
    for x, y in bulge:  # every point on the arc, within the tolerance
        assert ((x - 100) ** 2 + (y - 300) ** 2) ** 0.5 == pytest.approx(100, abs=plot_files.CURVE_TOLERANCE_FEET)
    assert ring[0] == ring[-1]


def test_an_arc_is_an_open_line_on_its_circle_and_a_circle_a_closed_ring():
    plan = _curved()
    shore = _by_kind(plan, "high_water_mark")  # ARC, centre (100, -100), radius 60, 45 to 135 degrees
    assert shore["type"] == "LineString"
    (x0, y0), (x1, y1) = shore["coordinates"][0], shore["coordinates"][-1]
    assert (x0, y0) == pytest.approx((100 + 60 * 0.5 ** 0.5, -100 + 60 * 0.5 ** 0.5), abs=1e-4)
    assert (x1, y1) == pytest.approx((100 - 60 * 0.5 ** 0.5, -100 + 60 * 0.5 ** 0.5), abs=1e-4)
    assert max(y for _, y in shore["coordinates"]) == pytest.approx(-40, abs=0.05)  # its top, at 90 degrees
    well = _by_kind(plan, "well")  # CIRCLE, radius 1 ft
    assert well["type"] == "Polygon"
    assert all(((x - 30) ** 2 + (y - 250) ** 2) ** 0.5 == pytest.approx(1, abs=0.05) for x, y in well["coordinates"][0])


def _without_bulges() -> bytes:
    doc = ezdxf.read(io.StringIO(CURVED.read_text()))
    for e in doc.modelspace().query("LWPOLYLINE[layer=='dispersal_area']"):
        e.set_points([(x, y, 0, 0, 0) for x, y, *_ in e.get_points("xyseb")], format="xyseb")
    stream = io.StringIO()
    doc.write(stream)
    return stream.getvalue().encode()


@pytest.mark.parametrize("bulged,complies,measured", [(True, False, 2.0), (False, True, 32.0)])
def test_setbacks_measure_the_curve(dane, bulged, complies, measured):
    """Dane County Code s. 46.10(6): 5 ft from a lot line. The mound's rounded west end reaches 2 ft from the lot
    line; read as chords (as before), it seemed 32 ft away and to comply."""
    from powts.permits.selectors import plan_check

    data = CURVED.read_bytes() if bulged else _without_bulges()
    out = plan_check(plan=plot_files.read_upload(upload("lot.dxf", data)).plan, jurisdiction=dane)
    assert out["result"]["complies"] is complies
    mound = plot_files.read_upload(upload("lot.dxf", data)).plan
    assert min(x for x, _ in _by_kind(mound, "dispersal_area")["coordinates"][0]) == pytest.approx(measured, abs=0.05)
    if not complies:
        assert out["result"]["violations"][0]["measured_ft"] == pytest.approx(measured, abs=0.05)


def test_splines_ellipses_and_hatches_are_read():
    doc = ezdxf.new()
    doc.header["$INSUNITS"] = 2
    msp = doc.modelspace()
    msp.add_lwpolyline([(0, 0), (200, 0), (200, 300), (0, 300)], close=True, dxfattribs={"layer": "lot_line"})
    msp.add_ellipse((100, 150), major_axis=(20, 0), ratio=0.5, dxfattribs={"layer": "treatment_tank"})
    msp.add_spline([(10, 10), (40, 30), (70, 10), (100, 30)], dxfattribs={"layer": "high_water_mark"})
    hatch = msp.add_hatch(dxfattribs={"layer": "dwelling"})
    hatch.paths.add_polyline_path([(60, 200), (110, 200), (110, 240), (60, 240)], is_closed=True)
    stream = io.StringIO()
    doc.write(stream)
    plan = plot_files.read_upload(upload("lot.dxf", stream.getvalue().encode())).plan
    tank = _by_kind(plan, "treatment_tank")
    assert tank["type"] == "Polygon" and max(x for x, _ in tank["coordinates"][0]) == pytest.approx(120, abs=0.05)
    assert _by_kind(plan, "high_water_mark")["type"] == "LineString"
    house = _by_kind(plan, "dwelling")
    assert house["type"] == "Polygon" and {tuple(p) for p in house["coordinates"][0]} == {(60, 200), (110, 200), (110, 240), (60, 240)}


def test_a_curve_too_fine_to_be_a_plot_plan_is_refused_naming_the_file_and_layer():
    doc = ezdxf.new()
    doc.header["$INSUNITS"] = 2
    doc.modelspace().add_circle((0, 0), 10_000_000, dxfattribs={"layer": "lot_line"})
    stream = io.StringIO()
    doc.write(stream)
    with pytest.raises(Refused) as refused:
        plot_files.read_upload(upload("huge.dxf", stream.getvalue().encode()))
    assert refused.value.message.startswith("huge.dxf: layer lot_line:")


# ---- the permit page draws a drawn plan again (it once offered upload and paste only) --------------------------


def test_a_plan_drawn_on_the_map_comes_back_in_longitude_and_latitude():
    """in_lonlat is in_feet's inverse about the origin it kept: the corners drawn are the corners shown again."""
    drawn = lonlat_plan()
    back = plot_files.in_lonlat(plot_files.in_feet(drawn, slug="dane", county="Dane County"))
    for before, after in zip(drawn["features"], back["features"]):
        assert after["properties"]["kind"] == before["properties"]["kind"]
        for p, q in zip(before["geometry"]["coordinates"][0], after["geometry"]["coordinates"][0]):
            assert q == pytest.approx(p, abs=1e-6)


def test_a_plan_with_no_place_on_the_earth_is_not_put_on_a_map():
    """A DXF or a GeoJSON in feet has no origin: the permit page shows its drawing only."""
    assert plot_files.in_lonlat(plot_files.read_upload(upload("lot.dxf", dxf_bytes())).plan) is None
    assert plot_files.in_lonlat({"type": "FeatureCollection", "features": []}) is None


def test_the_permit_page_draws_a_drawn_plan_on_the_map_editable_by_its_plumber_only(client, dane, master, plumber_user, make_user):
    from powts.permits.tests.test_new_construction import _apply

    permit = _apply(plumber_user, dane, plot_plan=lonlat_plan())
    assert permit.plot_plan["origin"]
    client.force_login(plumber_user)
    page = client.get(f"/permits/{permit.pk}/").content.decode()
    settings = json.loads(page.split('id="plot-map-settings" type="application/json">')[1].split("</script>")[0])
    assert [f["properties"]["kind"] for f in settings["plan"]["features"]] == ["lot_line", "dispersal_area"]
    assert settings["editable"] is True and 'id="pp-drawn"' in page and "powts/plot-draw.js" in page
    # an auditor reads the permit: the plan is drawn, not editable, and there is no form to store it
    client.force_login(make_user("aud", role="state_auditor"))
    page = client.get(f"/permits/{permit.pk}/").content.decode()
    settings = json.loads(page.split('id="plot-map-settings" type="application/json">')[1].split("</script>")[0])
    assert settings["editable"] is False and 'id="pp-drawn"' not in page
    # a plan in feet: no map on the permit page
    other = _apply(plumber_user, dane, parcel_number="0608-222-9999-0")
    client.force_login(plumber_user)
    assert 'id="plot-map"' not in client.get(f"/permits/{other.pk}/").content.decode()
