"""Map speed: the map filtered by two or three of the list's facets at once (type, status,
municipality; several values each) is summed from clusters counted ahead per combination (MapFacetCell),
and gives exactly what counting the filtered systems live gives, on both sides of the due and notice dates."""
import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from powts.inventory.models import System
from powts.maps import grid
from powts.maps.models import MapCell, MapFacetCell
from powts.maps.services import cells_rebuild

WORLD = "-180,-90,180,90"
TODAY = timezone.localdate()
TYPES = ("conventional", "mound", "holding_tank")
TOWNS = ("Town of Dunn", "Town of Vienna")


def geo(client, params: str, zoom: int):
    return client.get(f"/api/map/systems.geojson?bbox={WORLD}&zoom={zoom}&{params}")


COMBINATIONS = [
    "system_type=mound&status=active",
    "system_type=conventional&municipality=Town of Vienna",
    "status=failing&municipality=Town of Dunn",
    "system_type=holding_tank&status=active&municipality=Town of Dunn",
    "system_type=mound&system_type=holding_tank",
    "system_type=mound&system_type=conventional&status=active&status=abandoned",
    "system_type=mound",
    "status=abandoned",
]


@pytest.mark.parametrize("params", COMBINATIONS)
@pytest.mark.parametrize("zoom", [5, 11, 13, grid.FACET_MAX_ZOOM])
def test_facets_together_are_summed_from_the_counted_cells_and_equal_the_live_count(api, county, params, zoom, monkeypatch):
    """Any combination of type, status and municipality, counted ahead, equals the live
    count, and no schedule is read for it (it took 936 ms reading 60,000 schedules one at a time)."""
    monkeypatch.setattr(grid, "POINT_CAP", 0)  # clusters at every zoom
    live = geo(api, params, zoom).json()
    assert live["properties"]["total"] > 0
    cells_rebuild(jurisdiction=county, as_of=TODAY)
    with CaptureQueriesContext(connection) as queries:
        counted = geo(api, params, zoom).json()
    assert not [q["sql"] for q in queries if "maintenance_schedule" in q["sql"]]
    assert [f["properties"] for f in counted["features"]] == [f["properties"] for f in live["features"]]
    assert [c for f in counted["features"] for c in f["geometry"]["coordinates"]] == pytest.approx(
        [c for f in live["features"] for c in f["geometry"]["coordinates"]])
    assert counted["properties"]["by_standing"] == live["properties"]["by_standing"]
    assert counted["properties"]["counted_on"] == TODAY.isoformat()


def test_the_due_date_sides_are_counted_as_the_live_count_counts_them(api, county, monkeypatch):
    """Due today is overdue, due tomorrow with the notice date today is due soon, the notice date tomorrow is
    current: the counted cells hold the same split as of the day they were counted."""
    monkeypatch.setattr(grid, "POINT_CAP", 0)
    cells_rebuild(jurisdiction=county, as_of=TODAY)
    body = geo(api, "system_type=mound&status=active", 5).json()
    assert body["properties"]["by_standing"] == {"failing": 0, "overdue": 2, "due_soon": 1, "needs_data": 0,
                                                 "current": 1, "off_cycle": 0}
    cells_rebuild(jurisdiction=county, as_of=TODAY - dt.timedelta(days=1))  # a day earlier: nothing overdue yet
    earlier = geo(api, "system_type=mound&status=active", 5).json()["properties"]["by_standing"]
    assert (earlier["overdue"], earlier["due_soon"], earlier["current"]) == (0, 2, 2)


@pytest.mark.parametrize("zoom", [grid.FACET_MAX_ZOOM + 1])
def test_closer_than_the_facet_zoom_the_filtered_map_is_counted_live(api, county, zoom, monkeypatch):
    monkeypatch.setattr(grid, "POINT_CAP", 0)
    live = geo(api, COMBINATIONS[0], zoom).json()
    cells_rebuild(jurisdiction=county, as_of=TODAY)
    assert [f["properties"] for f in geo(api, COMBINATIONS[0], zoom).json()["features"]] == [
        f["properties"] for f in live["features"]]


def test_cells_counted_before_the_facet_cells_existed_are_not_read_as_empty(api, county, monkeypatch):
    """After the upgrade and before the next count there are clusters for every system but none by facet:
    the filtered map is counted live rather than shown empty."""
    monkeypatch.setattr(grid, "POINT_CAP", 0)
    cells_rebuild(jurisdiction=county, as_of=TODAY)
    MapFacetCell.objects.all().delete()
    assert MapCell.objects.exists()
    assert geo(api, COMBINATIONS[0], 5).json()["properties"]["total"] == 4


def test_a_standing_filter_is_the_lists_not_ignored_by_the_counted_cells(api, county, monkeypatch):
    """The list's standing filter (maintenance's buckets) was dropped when the clusters were counted ahead:
    the map showed every system. It is counted live, and agrees with the list."""
    from powts.maintenance.selectors import standing_systems

    monkeypatch.setattr(grid, "POINT_CAP", 0)
    cells_rebuild(jurisdiction=county, as_of=TODAY)
    for standing in ("overdue", "due_soon", "current", "failing"):
        listed = System.objects.filter(pk__in=standing_systems(standing=standing, as_of=TODAY)).count()
        assert 0 < listed < System.objects.count()
        assert geo(api, f"standing={standing}", 5).json()["properties"]["total"] == listed
        assert geo(api, f"standing={standing}&system_type=mound", 5).json()["properties"]["total"] == System.objects.filter(
            pk__in=standing_systems(standing=standing, as_of=TODAY), system_type="mound").count()


def test_the_cells_by_facet_sum_to_the_cells_for_every_system(county):
    cells_rebuild(jurisdiction=county, as_of=TODAY)
    for level in (0, grid.FACET_MAX_ZOOM):
        everything = {(c.cx, c.cy): c.systems for c in MapCell.objects.filter(level=level, facet="")}
        summed: dict = {}
        for c in MapFacetCell.objects.filter(level=level):
            summed[(c.cx, c.cy)] = summed.get((c.cx, c.cy), 0) + c.systems
        assert summed == everything and sum(everything.values()) == 24
    assert not MapFacetCell.objects.filter(level=grid.FACET_MAX_ZOOM + 1).exists()


def test_the_daily_sweep_counts_the_clusters_again_as_of_the_day(api, county, settings, monkeypatch):
    """Standings move with the date: the sweep recounts every county's clusters (alone and by facet) as of
    its day, so a schedule due on that day is overdue in the counted cells as in the live count."""
    import zoneinfo

    from powts.jobs.sweeps import sweep_clock

    monkeypatch.setattr(grid, "POINT_CAP", 0)
    settings.TIME_ZONE = "America/Chicago"
    settings.POWTS_SWEEPS = {"map_cells": "02:40"}
    cells_rebuild(jurisdiction=county, as_of=TODAY - dt.timedelta(days=1))
    stale = geo(api, COMBINATIONS[0], 5).json()["properties"]
    live_today = {"overdue": 2, "due_soon": 1, "current": 1}
    assert stale["counted_on"] == (TODAY - dt.timedelta(days=1)).isoformat()
    assert {k: stale["by_standing"][k] for k in live_today} != live_today
    chicago = zoneinfo.ZoneInfo("America/Chicago")
    assert sweep_clock(dt.datetime(TODAY.year, TODAY.month, TODAY.day, 2, 39, tzinfo=chicago)) == []
    [job] = sweep_clock(dt.datetime(TODAY.year, TODAY.month, TODAY.day, 2, 40, tzinfo=chicago))
    assert (job.kind, job.state) == ("sweep.map_cells", "done")
    assert job.result["counts"] == {"counties": 1, "systems on the map": 24}
    fresh = geo(api, COMBINATIONS[0], 5).json()["properties"]
    assert fresh["counted_on"] == TODAY.isoformat()
    assert {k: fresh["by_standing"][k] for k in live_today} == live_today
