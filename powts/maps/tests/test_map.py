"""The map's GeoJSON (bbox, role scope, standings, clusters, filters shared with the list),
the parcel centroid file, and the page's "not on the map" count."""
import datetime as dt
import json
from decimal import Decimal

import pytest
from django.utils import timezone

from powts.inventory.models import Parcel, System
from powts.inventory.services import system_create
from powts.maintenance.services import schedule_sync
from powts.maps import grid
from powts.maps.models import MapCell
from powts.maps.services import cells_rebuild

WORLD = "-180,-90,180,90"
TODAY = timezone.localdate()


def place(system, lat, lon):
    Parcel.objects.filter(pk=system.parcel_id).update(latitude=Decimal(str(lat)), longitude=Decimal(str(lon)))


@pytest.fixture
def county(dane):
    """One system in each standing, a few metres apart near Madison, and one with no coordinates."""
    def make(sid, lat, lon, **kw):
        s = system_create(jurisdiction=dane, system_id=sid, parcel_number=f"08-{sid}", system_type=kw.pop("system_type", "conventional"),
                          owner_name=f"Owner {sid}", site_address=f"{sid} Lake Rd", municipality="Town of Dunn", **kw)
        if lat is not None:
            place(s, lat, lon)
        return s

    made = {
        "current": make("CUR", 43.0001, -89.4001, installed_on=TODAY - dt.timedelta(days=30)),
        "due_soon": make("DUE", 43.0002, -89.4002, installed_on=TODAY - dt.timedelta(days=3 * 365 - 10)),
        "overdue": make("OVR", 43.0003, -89.4003, installed_on=TODAY - dt.timedelta(days=5 * 365)),
        "failing": make("FAI", 43.0004, -89.4004, installed_on=TODAY - dt.timedelta(days=30), status="failing"),
        "needs_data": make("NDA", 43.0005, -89.4005, system_type="mound"),
        "nowhere": make("NOW", None, None, installed_on=TODAY - dt.timedelta(days=30)),
    }
    schedule_sync(jurisdiction=dane)
    return made


@pytest.fixture
def api(client, staff):
    client.force_login(staff)
    return client


def geo(client, bbox=WORLD, **params):
    query = "&".join(f"{k}={v}" for k, v in {"bbox": bbox, **params}.items())
    return client.get(f"/api/map/systems.geojson?{query}")


def test_points_at_a_close_zoom_coloured_by_standing_and_linking_to_the_system(api, county):
    response = geo(api, bbox="-89.41,42.99,-89.39,43.01", zoom=16)
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    body = response.json()
    assert body["properties"]["kind"] == "points"
    got = {f["properties"]["label"]: f["properties"]["standing"] for f in body["features"]}
    assert got == {"System CUR": "current", "System DUE": "due_soon", "System OVR": "overdue", "System FAI": "failing",
                   "System NDA": "needs_data"}
    first = next(f for f in body["features"] if f["properties"]["label"] == "System CUR")
    assert first["geometry"]["coordinates"] == [-89.4001, 43.0001]
    assert first["properties"]["url"] == f"/inventory/systems/{county['current'].pk}/"


def test_the_bounding_box_excludes_what_is_outside_it(api, county):
    # west edge between CUR (-89.4001) and DUE (-89.4002): only CUR (east of it) is in the box
    body = geo(api, bbox="-89.40015,42.99,-89.39,43.01", zoom=16).json()
    assert [f["properties"]["label"] for f in body["features"]] == ["System CUR"]


def test_map_agrees_with_the_dashboard(api, county, dane):
    """The map's standings are the maintenance dashboard's buckets (powts.maintenance.selectors.standing_q)."""
    from powts.maintenance.selectors import dashboard_counts

    totals = dashboard_counts(jurisdiction=dane, as_of=TODAY)["totals"]
    by = geo(api, zoom=16, bbox="-89.41,42.99,-89.39,43.01").json()["properties"]["by_standing"]
    on_map = {"CUR", "DUE", "OVR", "FAI", "NDA"}
    assert by["overdue"] == totals["overdue"] + totals["delinquent"]
    assert by["due_soon"] == totals["due_soon"] and by["needs_data"] == totals["needs_data"]
    assert by["failing"] == totals["failing"]
    assert sum(by.values()) == len(on_map)


def test_low_zoom_answers_clusters_counted_live_and_precounted_alike(api, county, dane):
    live = geo(api, zoom=5).json()
    assert live["properties"]["kind"] == "clusters"
    assert [f["properties"]["count"] for f in live["features"]] == [5]
    assert live["features"][0]["properties"]["standing"]["failing"] == 1
    cells_rebuild(jurisdiction=dane, as_of=TODAY)
    assert MapCell.objects.filter(level=0, facet="").count() == 1
    counted = geo(api, zoom=5).json()
    assert counted["properties"]["counted_on"] == TODAY.isoformat()
    assert [f["properties"] for f in counted["features"]] == [f["properties"] for f in live["features"]]
    assert counted["features"][0]["geometry"]["coordinates"] == pytest.approx(live["features"][0]["geometry"]["coordinates"])


@pytest.mark.parametrize("counted", [False, True])
def test_more_points_than_the_cap_come_as_clusters(api, county, monkeypatch, dane, counted):
    if counted:  # the counted cells say the box is crowded: no points query at all
        cells_rebuild(jurisdiction=dane, as_of=TODAY)
    monkeypatch.setattr(grid, "POINT_CAP", 2)
    body = geo(api, zoom=16, bbox="-89.41,42.99,-89.39,43.01").json()
    assert body["properties"]["kind"] == "clusters" and body["properties"]["total"] == 5
    monkeypatch.setattr(grid, "POINT_CAP", 5)
    assert geo(api, zoom=16, bbox="-89.41,42.99,-89.39,43.01").json()["properties"]["kind"] == "points"


@pytest.mark.parametrize("params", [{"system_type": "mound"}, {"status": "failing"}, {"municipality": "Town of Dunn"},
                                    {"system_type": "conventional", "status": "active"}, {"q": "OVR"}])
@pytest.mark.parametrize("zoom", [5, 13, 15])
def test_a_filter_answered_from_counted_cells_or_live_gives_the_same_clusters(api, county, dane, params, zoom, monkeypatch):
    """One type, status or municipality: the cells counted for it (a facet) up to grid.FACET_MAX_ZOOM; closer,
    more filters, or a search: counted live."""
    monkeypatch.setattr(grid, "POINT_CAP", 0)  # clusters at every zoom
    live = geo(api, zoom=zoom, **params).json()
    cells_rebuild(jurisdiction=dane, as_of=TODAY)
    counted = geo(api, zoom=zoom, **params).json()
    assert [f["properties"] for f in counted["features"]] == [f["properties"] for f in live["features"]]
    assert counted["properties"]["total"] == live["properties"]["total"] > 0


def test_filters_are_the_system_lists(api, county, dane):
    cells_rebuild(jurisdiction=dane, as_of=TODAY)  # a filter the counted cells cannot answer is counted live
    assert geo(api, zoom=5, system_type="mound").json()["properties"]["total"] == 1
    assert geo(api, zoom=16, bbox="-89.41,42.99,-89.39,43.01", q="OVR").json()["features"][0]["properties"]["label"] == "System OVR"
    assert geo(api, zoom=5, status="failing").json()["properties"]["by_standing"]["failing"] == 1


@pytest.mark.parametrize("bbox, zoom, field", [
    ("", "5", "bbox"), ("1,2,3", "5", "bbox"), ("a,b,c,d", "5", "bbox"), ("nan,0,1,1", "5", "bbox"),
    ("10,0,5,1", "5", "bbox"), (WORLD, "x", "zoom"), (WORLD, "99", "zoom"),
])
def test_a_bad_box_or_zoom_is_a_400_naming_it(api, county, bbox, zoom, field):
    response = api.get(f"/api/map/systems.geojson?bbox={bbox}&zoom={zoom}")
    assert response.status_code == 400 and field in response.json()["errors"]


def test_a_client_asking_for_geojson_gets_it_errors_too(api, county):
    ok = api.get("/api/map/systems.geojson?bbox=-180,-90,180,90&zoom=5", HTTP_ACCEPT="application/geo+json")
    bad = api.get("/api/map/systems.geojson?bbox=x", HTTP_ACCEPT="application/geo+json")
    assert ok.status_code == 200 and bad.status_code == 400 and "bbox" in bad.json()["errors"]
    assert ok["Content-Type"] == "application/json"


def test_a_bad_filter_is_a_400_naming_it(api, county):
    response = geo(api, zoom=5, installed_year="0")
    assert response.status_code == 400 and "installed_year" in response.json()["errors"]


def test_role_scope(client, county, make_user, lincoln, dane):
    cells_rebuild(jurisdiction=dane, as_of=TODAY)
    client.force_login(make_user("lee", "county_staff", lincoln))
    assert geo(client, zoom=5).json()["features"] == []          # counted cells: only Lincoln's (none)
    assert geo(client, zoom=16, bbox="-89.41,42.99,-89.39,43.01").json()["features"] == []
    client.force_login(make_user("aud", "state_auditor"))
    assert geo(client, zoom=5).json()["properties"]["total"] == 5
    for role in ("owner", "plumber", "pumper"):
        client.force_login(make_user(f"x-{role}", role))
        assert geo(client, zoom=5).status_code == 403
        assert client.get("/map/").status_code == 403


def _staff():
    from powts.accounts.models import User

    return User.objects.get(username="sam")


def test_permits_and_complaints_layers(api, county, dane):
    from powts.permits.models import Complaint

    now = timezone.now()
    Complaint.objects.create(jurisdiction=dane, service_code="failing-septic", description="smell", address="1 Lake Rd",
                             lat=Decimal("43.1"), long=Decimal("-89.5"), requested_at=now, updated_at=now)
    Complaint.objects.create(jurisdiction=dane, service_code="failing-septic", description="far", lat=Decimal("45"),
                             long=Decimal("-91"), requested_at=now, updated_at=now)
    body = api.get("/api/map/complaints.geojson?bbox=-90,43,-89,44").json()
    assert [f["properties"]["address"] for f in body["features"]] == ["1 Lake Rd"]
    assert body["properties"]["truncated"] is False
    from powts.maps import selectors

    capped = selectors.complaints(user=_staff(), bbox=grid.BBox(-180, -90, 180, 90), cap=1)
    assert (capped["properties"]["total"], capped["properties"]["truncated"]) == (1, True)
    assert api.get("/api/map/permits.geojson?bbox=-90,43,-89,44").json()["features"] == []


def test_the_page_counts_systems_not_on_the_map(api, county):
    page = api.get("/map/").content.decode()
    assert '<strong>1</strong> system not on the map' in page
    assert "leaflet/leaflet.js" in page and 'id="map"' in page
    settings_json = page.split('id="map-settings" type="application/json">')[1].split("</script>")[0]
    assert json.loads(settings_json)["bounds"] == pytest.approx([-89.4005, 43.0001, -89.4001, 43.0005])
    assert '<strong>0</strong> systems not on the map' in api.get("/map/?system_type=mound").content.decode()


def test_tile_host_is_in_the_content_security_policy(api, county, settings):
    from powts.settings import _tile_origin

    assert "https://tile.openstreetmap.org" in api.get("/map/")["Content-Security-Policy"]
    assert _tile_origin("https://{s}.tiles.example.org/{z}/{x}/{y}.png") == "https://*.tiles.example.org"
    assert _tile_origin("not a url") is None


# -- parcel centroids ----------------------------------------------------------------------------------


@pytest.fixture
def unplaced(dane):
    return [system_create(jurisdiction=dane, system_id=f"C-{i}", parcel_number=number, system_type="mound", owner_name="Ann")
            for i, number in enumerate(["0810-123-4560-0", "0810 123 4561 0", "0810-123-4562-0"])]


def test_centroids_csv_matched_with_or_without_dashes_and_every_reject_reported(cli, unplaced, write_csv):
    from powts.audit.models import AuditEvent

    place(unplaced[2], 43.5, -89.5)  # already placed: kept as it is
    path = write_csv([["PIN", "Lat", "Lon"],
                      ["081012345600", "43.0701", "-89.4001"],      # no dashes: matches 0810-123-4560-0
                      ["0810-123-4561-0", "43.0702", "-89.4002"],   # dashes: matches "0810 123 4561 0"
                      ["0810-123-4562-0", "43.0703", "-89.4003"],   # already has coordinates
                      ["9999-1", "43", "-89"],
                      ["0810-123-4560-0", "43", "-89"],
                      ["", "43", "-89"],
                      ["5555", "95", "-89"],
                      ["6666", "0", "0"]], name="centroids.csv")
    code, out, err = cli("inventory", "centroids", "load", str(path), "--jurisdiction", "dane", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert (result["filled"], result["already_placed"], result["rejected"]) == (2, 1, 5)
    assert [(r["line"], r["reason"]) for r in result["rejects"]] == [
        (5, "parcel 9999-1 is not in Dane County's inventory"),
        (6, "parcel 0810-123-4560-0 appears twice in this file (first at 2)"),
        (7, "the parcel number is empty"),
        (8, "latitude '95' is outside -90 to 90"),
        (9, "latitude 0, longitude 0 is not a place in the county"),
    ]
    coords = {s.system_id: (s.parcel.latitude, s.parcel.longitude) for s in System.objects.select_related("parcel")}
    assert coords == {"C-0": (Decimal("43.070100"), Decimal("-89.400100")), "C-1": (Decimal("43.070200"), Decimal("-89.400200")),
                      "C-2": (Decimal("43.500000"), Decimal("-89.500000"))}
    event = AuditEvent.objects.get(object_id=unplaced[0].parcel_id, content_type__model="parcel", verb="update")
    assert event.action == "parcel centroid from centroids.csv" and event.changes["latitude"] == [None, "43.070100"]
    assert MapCell.objects.filter(level=0, facet="").get().systems == 3  # recounted after the load


def test_centroids_geojson_points_and_polygons(unplaced, tmp_path, dane):
    from powts.inventory.centroids import load_centroids

    data = {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"parcel_number": "0810-123-4560-0"}, "geometry": {"type": "Point", "coordinates": [-89.1, 43.1]}},
        {"type": "Feature", "properties": {"PIN": "081012345610"},
         "geometry": {"type": "Polygon", "coordinates": [[[-89.2, 43.2], [-89.0, 43.2], [-89.0, 43.4], [-89.2, 43.4], [-89.2, 43.2]]]}},
        {"type": "Feature", "properties": {"parcel_number": "0810-123-4562-0"}, "geometry": {"type": "Point", "coordinates": ["x", 1]}},
    ]}
    path = tmp_path / "parcels.geojson"
    path.write_text(json.dumps(data))
    result = load_centroids(path=path, jurisdiction=dane)
    assert (result.filled, result.rejected) == (2, 1) and result.rejects[0]["line"] == "feature 3"
    parcel = Parcel.objects.get(parcel_number="0810 123 4561 0")
    assert (parcel.latitude, parcel.longitude) == (Decimal("43.300000"), Decimal("-89.100000"))


@pytest.mark.parametrize("name, content, words", [
    ("c.csv", "a,b\n1,2\n", "c.csv needs a parcel number, a latitude and a longitude column"),
    ("c.geojson", "{not json", "c.geojson is not readable GeoJSON"),
    ("c.xls", "x", "c.xls: parcel centroids are read from .csv or .geojson files"),
])
def test_a_file_that_cannot_be_read_changes_nothing_and_says_why(cli, unplaced, tmp_path, name, content, words):
    path = tmp_path / name
    path.write_text(content)
    code, out, err = cli("inventory", "centroids", "load", str(path), "--jurisdiction", "dane")
    assert code == 1 and words in err
    assert not Parcel.objects.filter(latitude__isnull=False).exists()


# ---------------------------------------------------------------- speed: the close-zoom points read by strip

def test_points_read_by_strip_are_those_of_the_box_at_strip_edges(api, dane):
    """Speed (map p95 < 150 ms at 1,000,000 systems): at a close zoom the box's systems are read
    through the parcel's strip index (one latitude range per longitude strip). A system just either side
    of a strip edge and of the box's edges: the box gives exactly those inside it, as the plain range did."""
    from powts.maps.expressions import STRIP

    edge = round(33023 * STRIP - 180, 6)  # a strip edge near -89.3 (strips are STRIP wide from -180)
    west, east = edge - 3.5 * STRIP, edge + 0.5 * STRIP
    spots = {"W-OUT": west - 0.00001, "W-IN": west + 0.00001, "EDGE-": edge - 0.000001, "EDGE": edge,
             "E-IN": east - 0.00001, "E-OUT": east + 0.00001}
    for sid, lon in spots.items():
        s = system_create(jurisdiction=dane, system_id=sid, parcel_number=f"08-{sid}", system_type="conventional",
                          owner_name=f"Owner {sid}", site_address=f"{sid} Lake Rd", municipality="Town of Dunn")
        place(s, 43.0, round(lon, 6))
    body = geo(api, bbox=f"{west:.6f},42.99,{east:.6f},43.01", zoom=16).json()
    assert body["properties"]["kind"] == "points"
    assert sorted(f["properties"]["label"] for f in body["features"]) == ["System E-IN", "System EDGE", "System EDGE-", "System W-IN"]
    # a box wider than MAX_STRIPS strips reads the plain longitude range, with the same answer
    wide = geo(api, bbox="-100,42.99,-80,43.01", zoom=16).json()
    assert wide["properties"]["kind"] == "points" and len(wide["features"]) == 6, wide["properties"]


def test_the_strip_expression_is_the_indexs_word_for_word(dane):
    """The strip filter the points query uses (selectors._in_strips) is the expression parcel_map_strip
    indexes, so the database reads that index: its plan names it (PostgreSQL told to avoid a full scan, as a
    table of a million parcels would)."""
    from django.db import connection, transaction
    from django.db.models import F

    from powts.maps.expressions import STRIP, GridIndex

    query = Parcel.objects.alias(strip=GridIndex(F("longitude"), 180, STRIP)).filter(strip__in=range(32700, 32711))
    if connection.vendor == "sqlite":
        query = query.filter(latitude__range=(Decimal("42.99"), Decimal("43.01")))
    # (PostgreSQL's planner, on an empty table, reads a latitude range from parcel_lon_lat as readily: asked for
    # the strips alone it shows whether the expression matches the index; bench_map shows it chosen at scale.)
    query = query.order_by().values_list("pk")
    sql, params = query.query.sql_with_params()
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(("EXPLAIN QUERY PLAN " if connection.vendor == "sqlite" else "EXPLAIN ") + sql, params)
        plan = " ".join(str(row) for row in cursor.fetchall())
    assert "parcel_map_strip" in plan, plan


def test_the_not_on_the_map_figure_is_read_from_the_count_kept_with_the_clusters(api, county, dane, django_assert_max_num_queries):
    """The map page at a million systems took about a second to count the 20,000 with no coordinates on each
    view. Once the clusters are counted, the figure counted with them is shown (and its day), for
    every system and for each single-value filter; it is not recounted on the page."""
    from powts.maps.models import UnplacedCount

    cells_rebuild(jurisdiction=dane)
    assert dict(UnplacedCount.objects.values_list("facet", "systems")) == {
        "": 1, "system_type=conventional": 1, "status=active": 1, "municipality=Town of Dunn": 1}
    # the stored figure is what the page shows: changing it (as a stale count would be) changes the page
    UnplacedCount.objects.filter(facet="").update(systems=7)
    page = api.get("/map/").content.decode()
    assert "<strong>7</strong> systems not on the map" in page and "counted on" in page
    assert "<strong>0</strong> systems not on the map" in api.get("/map/?system_type=mound").content.decode()
    assert "<strong>1</strong> system not on the map" in api.get("/map/?system_type=conventional").content.decode()


def test_a_filter_the_counts_do_not_cover_is_counted_live_up_to_the_cap(api, county, dane, monkeypatch):
    """Both sides of the cap: at the cap the page says the number; one more and it says "More than"."""
    from powts.maps import selectors

    cells_rebuild(jurisdiction=dane)
    make = lambda i: system_create(jurisdiction=dane, system_id=f"X-{i}", parcel_number=f"09-{i}", system_type="conventional",  # noqa: E731
                                   owner_name="Ann", site_address=f"{i} Elm St", municipality="Town of Dunn", status="active")
    make(1)
    monkeypatch.setattr(selectors, "UNPLACED_LIVE_CAP", 2)
    live = "/map/?system_type=conventional&status=active"  # two filters: counted live
    page = api.get(live).content.decode()
    assert "<strong>2</strong> systems not on the map" in page and "More than" not in page and "counted on" not in page
    make(2)
    assert "More than <strong>2</strong> systems not on the map" in api.get(live).content.decode()
