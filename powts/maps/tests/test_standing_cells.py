"""Map speed: the map filtered by the list's standing (maintenance's buckets), alone or with type, status
and municipality, is summed from clusters counted ahead per bucket (MapStandingCell) on the day they were
counted, and gives exactly what counting the filtered systems live gives; on any other day it is counted live."""
import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from powts.maintenance.models import Schedule
from powts.maps import grid
from powts.maps.models import MapStandingCell
from powts.maps.services import cells_rebuild
from powts.maps.tests.test_facet_cells import TODAY, geo

STANDINGS = ("current", "due_soon", "overdue", "delinquent", "failing", "needs_data")
FACETS = ["", "system_type=mound", "system_type=conventional&status=active", "status=failing&municipality=Town of Dunn"]


@pytest.fixture
def spread(county):
    """The facet fixture's 24 systems, with a delinquent, a needs-data, an exempt and a failure-reported schedule,
    one due date missing, one schedule gone, and one schedule whose notice date is after its due date (so it is
    in both the current and the overdue lists)."""
    ids = list(Schedule.objects.order_by("system_id").values_list("pk", flat=True))
    Schedule.objects.filter(pk=ids[0]).update(delinquent=True)
    Schedule.objects.filter(pk=ids[4]).update(needs_data=True)
    Schedule.objects.filter(pk=ids[5]).update(exempt=True)
    Schedule.objects.filter(pk=ids[7]).update(failure_reported=True)
    Schedule.objects.filter(pk=ids[9]).update(due_on=None)
    Schedule.objects.filter(pk=ids[8]).update(notice_on=TODAY + dt.timedelta(days=5), due_on=TODAY - dt.timedelta(days=5))
    Schedule.objects.filter(pk=ids[12]).delete()
    return county


@pytest.mark.parametrize("facets", FACETS)
@pytest.mark.parametrize("zoom", [5, 13, grid.STANDING_MAX_ZOOM])
def test_a_standing_is_summed_from_the_counted_cells_and_equals_the_live_count(api, spread, facets, zoom, monkeypatch):
    """Each standing bucket, alone or with the facets, counted ahead equals the live count, and no schedule
    is read for it (731 ms for a zoom-12 box at 1,000,000 systems, live). Fails before MapStandingCell: the
    map read every filtered system's schedule."""
    monkeypatch.setattr(grid, "POINT_CAP", 0)  # clusters at every zoom
    seen = 0
    for standing in STANDINGS:
        params = f"standing={standing}" + (f"&{facets}" if facets else "")
        live = geo(api, params, zoom).json()
        seen += live["properties"]["total"]
        cells_rebuild(jurisdiction=spread, as_of=TODAY)
        with CaptureQueriesContext(connection) as queries:
            counted = geo(api, params, zoom).json()
        assert not [q["sql"] for q in queries if "maintenance_schedule" in q["sql"]], params
        assert [f["properties"] for f in counted["features"]] == [f["properties"] for f in live["features"]], params
        assert [c for f in counted["features"] for c in f["geometry"]["coordinates"]] == pytest.approx(
            [c for f in live["features"] for c in f["geometry"]["coordinates"]])
        assert counted["properties"]["by_standing"] == live["properties"]["by_standing"], params
        assert counted["properties"]["counted_on"] == TODAY.isoformat()
        MapStandingCell.objects.all().delete()
    assert seen > 0


def test_the_overlapping_buckets_are_each_counted(spread):
    """A schedule with its notice date after its due date is in the current and the overdue lists: the cells
    keep the set of buckets, not one of them."""
    cells_rebuild(jurisdiction=spread, as_of=TODAY)
    both = MapStandingCell.objects.filter(level=0, standings=1 | 4)
    assert sum(c.systems for c in both) == 1


def test_standing_cells_of_another_day_are_not_read(api, spread, monkeypatch):
    """Standings move with the date: cells counted yesterday do not answer today's standing filter (live),
    nor does a standing asked "as of" another day."""
    monkeypatch.setattr(grid, "POINT_CAP", 0)
    live = geo(api, "standing=overdue", 5).json()["properties"]
    cells_rebuild(jurisdiction=spread, as_of=TODAY - dt.timedelta(days=1))
    stale = geo(api, "standing=overdue", 5).json()["properties"]
    assert stale["by_standing"] == live["by_standing"] and stale["counted_on"] == TODAY.isoformat()
    cells_rebuild(jurisdiction=spread, as_of=TODAY)
    later = (TODAY + dt.timedelta(days=1)).isoformat()
    with CaptureQueriesContext(connection) as queries:
        tomorrow = geo(api, f"standing=overdue&as_of={later}", 5).json()["properties"]
    assert [q for q in queries if "maintenance_schedule" in q["sql"]]
    cells_rebuild(jurisdiction=spread, as_of=TODAY - dt.timedelta(days=1))
    MapStandingCell.objects.all().delete()
    assert geo(api, f"standing=overdue&as_of={later}", 5).json()["properties"]["total"] == tomorrow["total"]


def test_a_county_counted_before_the_standing_cells_existed_is_counted_live(api, spread, monkeypatch):
    monkeypatch.setattr(grid, "POINT_CAP", 0)
    live = geo(api, "standing=current&system_type=mound", 5).json()["properties"]
    cells_rebuild(jurisdiction=spread, as_of=TODAY)
    MapStandingCell.objects.all().delete()
    assert geo(api, "standing=current&system_type=mound", 5).json()["properties"]["total"] == live["total"] > 0


def test_the_not_on_the_map_count_of_a_standing_is_counted_live(spread, staff):
    """UnplacedCount is kept by type, status and municipality only: "standing=overdue" is counted live, never
    read as a stored facet it does not have (which would say 0)."""
    from django.http import QueryDict

    from powts.inventory.models import Parcel, System
    from powts.maintenance.selectors import standing_systems
    from powts.maps.selectors import not_on_map

    overdue = System.objects.filter(pk__in=standing_systems(standing="overdue", as_of=TODAY)).order_by("pk")
    Parcel.objects.filter(pk__in=[s.parcel_id for s in overdue[:2]]).update(latitude=None, longitude=None)
    cells_rebuild(jurisdiction=spread, as_of=TODAY)
    assert not_on_map(user=staff, params=QueryDict("standing=overdue"))["count"] == 2
