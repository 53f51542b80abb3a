"""Counting the map's clusters once, so a pan over a million systems reads a few hundred rows.

Run after an import (powts.core.registry "after_import"), after a parcel centroid load, and daily (the
standings move with the date): `powts inventory map-cells --jurisdiction X`. Derived data: one audit event
sums each run up, as maintenance's schedule_sync does.
"""
from __future__ import annotations

import datetime as dt

from django.db import connection, transaction
from django.db.models import Count, F, FloatField, Q, Sum
from django.db.models.functions import Cast
from django.utils import timezone

from powts.audit.services import build_event
from powts.inventory.models import System
from powts.maps import grid
from powts.maps.models import MapCell, MapFacetCell, MapStandingCell, UnplacedCount
from powts.maps.expressions import GridIndex
from powts.maps.selectors import FACETS, STANDINGS, list_standings, standing

_COLUMNS = ("systems", "lat_sum", "lon_sum", *STANDINGS)


def cells_rebuild(*, jurisdiction, as_of: dt.date | None = None) -> dict:
    """Every zoom's cells for the county: one read of its systems grouped by the finest cell (and type,
    status, municipality), each coarser zoom summed from the one below (a cell at zoom z-1 is the 2x2
    cells at zoom z). Up to grid.FACET_MAX_ZOOM the cells are also kept split by each combination of type,
    status and municipality (MapFacetCell), so any of the list's filters on those is summed from them, and up to
    grid.STANDING_MAX_ZOOM split again by the list's standing buckets on `as_of` (MapStandingCell). The read runs
    outside any transaction, so SQLite's write lock is held only for the short delete-and-insert; the map reads
    the old cells until then."""
    as_of = as_of or timezone.localdate()
    level = grid.MAX_CLUSTER_ZOOM
    size = grid.cell_size(level)
    shift = level - grid.FACET_MAX_ZOOM
    standing_shift = level - grid.STANDING_MAX_ZOOM
    located = (System.objects.filter(jurisdiction=jurisdiction, parcel__latitude__isnull=False, parcel__longitude__isnull=False)
               .annotate(standing=standing(as_of), buckets=list_standings(as_of), cx=GridIndex(F("parcel__longitude"), 180, size),
                         cy=GridIndex(F("parcel__latitude"), 90, size)).order_by())
    sums = {"systems": Count("pk"), "lat_sum": Sum(Cast("parcel__latitude", FloatField())),
            "lon_sum": Sum(Cast("parcel__longitude", FloatField())), **{k: Count("pk", filter=Q(standing=k)) for k in STANDINGS}}
    everything: dict[tuple, list] = {}  # (cx, cy) at the finest zoom
    # (type, status, municipality, cx, cy) at FACET_MAX_ZOOM: filtered maps closer than that are counted live
    combos: dict[tuple, list] = {}
    # (type, status, municipality, the list's standing buckets, cx, cy) at STANDING_MAX_ZOOM
    standings: dict[tuple, list] = {}
    from powts.core.progress import report

    report(0, None, "cells read")
    for n, r in enumerate(located.values("cx", "cy", *FACETS.values(), "buckets").annotate(**sums).iterator(chunk_size=10000), 1):
        if n % 1000 == 0:
            report(n, None, "cells read")
        values = [r[c] for c in _COLUMNS]
        facets = tuple(r[column] for column in FACETS.values())
        _add(everything, (r["cx"], r["cy"]), values)
        _add(combos, (*facets, r["cx"] >> shift, r["cy"] >> shift), values)
        _add(standings, (*facets, r["buckets"], r["cx"] >> standing_shift, r["cy"] >> standing_shift), values)
    # Rows as tuples, written with executemany: building and saving 480,000 model instances through bulk_create
    # was most of a count at a million systems (Django's per-field preparation, not the database).
    day = connection.ops.adapt_datefield_value(as_of)
    head = ("jurisdiction_id", "level", "computed_on")
    cells = list(_levels(everything, grid.MAX_CLUSTER_ZOOM, lambda level, key, values: (
        jurisdiction.pk, level, day, "", *key, *values)))
    facet_cells = list(_levels(combos, grid.FACET_MAX_ZOOM, lambda level, key, values: (
        jurisdiction.pk, level, day, *key, *values)))
    standing_cells = list(_levels(standings, grid.STANDING_MAX_ZOOM, lambda level, key, values: (
        jurisdiction.pk, level, day, *key, *values)))
    unplaced = _unplaced(jurisdiction, as_of)
    report(0, None, "writing the cells")
    with transaction.atomic():
        MapCell.objects.filter(jurisdiction=jurisdiction).delete()
        _insert(MapCell, (*head, "facet", "cx", "cy", *_COLUMNS), cells)
        MapFacetCell.objects.filter(jurisdiction=jurisdiction).delete()
        _insert(MapFacetCell, (*head, *FACETS, "cx", "cy", *_COLUMNS), facet_cells)
        MapStandingCell.objects.filter(jurisdiction=jurisdiction).delete()
        _insert(MapStandingCell, (*head, *FACETS, "standings", "cx", "cy", *_COLUMNS), standing_cells)
        UnplacedCount.objects.filter(jurisdiction=jurisdiction).delete()
        UnplacedCount.objects.bulk_create(unplaced, batch_size=5000)
        on_map = sum(c[len(head) + 3] for c in cells if c[1] == 0)  # the "systems" column of zoom 0
        summary = {"systems_on_map": on_map, "as_of": as_of.isoformat()}
        build_event(jurisdiction, action="map clusters counted", verb="update",
                    changes={"systems_on_map": [None, on_map], "as_of": [None, summary["as_of"]]}).save()
    return summary


def _insert(model, columns: tuple, rows: list[tuple], batch: int = 5000) -> None:
    quote = connection.ops.quote_name
    sql = (f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(c) for c in columns)}) "
           f"VALUES ({', '.join(['%s'] * len(columns))})")
    with connection.cursor() as cursor:
        for start in range(0, len(rows), batch):
            cursor.executemany(sql, rows[start:start + batch])


def _unplaced(jurisdiction, as_of: dt.date) -> list[UnplacedCount]:
    """The county's systems not on the map, in all and by each facet the cells are counted for."""
    counts: dict[str, int] = {"": 0}
    unplaced = (System.objects.filter(jurisdiction=jurisdiction)
                .filter(Q(parcel__latitude__isnull=True) | Q(parcel__longitude__isnull=True)).order_by())
    for r in unplaced.values(*FACETS.values()).annotate(n=Count("pk")).iterator(chunk_size=10000):
        counts[""] += r["n"]
        for name, column in FACETS.items():
            key = f"{name}={r[column]}"
            counts[key] = counts.get(key, 0) + r["n"]
    return [UnplacedCount(jurisdiction_id=jurisdiction.pk, facet=facet, systems=n, computed_on=as_of)
            for facet, n in counts.items()]


def _levels(finest: dict[tuple, list], level: int, make):
    """Rows for `finest` (keyed (..., cx, cy) at `level`) and every coarser zoom down to 0, each summed
    from the one below."""
    while level >= 0:
        yield from (make(level, key, values) for key, values in finest.items())
        coarser: dict[tuple, list] = {}
        for key, values in finest.items():
            _add(coarser, (*key[:-2], key[-2] >> 1, key[-1] >> 1), values)
        finest, level = coarser, level - 1


def _add(into: dict, key: tuple, values: list) -> None:
    found = into.get(key)
    if found is None:
        into[key] = list(values)
    else:
        for i, v in enumerate(values):
            found[i] += v


def after_import(*, jurisdiction) -> dict:
    """After-import hook (powts.core.registry): recount once the import's schedules are in step."""
    return cells_rebuild(jurisdiction=jurisdiction)
