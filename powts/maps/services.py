"""Counting the map's clusters once, so a pan over a million systems reads a few hundred rows.

Run after an import (powts.core.registry "after_import"), after a parcel centroid load, and daily (the
standings move with the date): `powts inventory map-cells --county X`. Derived data: one audit event
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
from powts.maps.models import MapCell
from powts.maps.selectors import FACETS, STANDINGS, GridIndex, standing

_COLUMNS = ("systems", "lat_sum", "lon_sum", *STANDINGS)


@transaction.atomic
def cells_rebuild(*, jurisdiction, as_of: dt.date | None = None) -> dict:
    """Every zoom's cells for the county: the finest counted from the systems in SQL, each coarser one
    from the cells below it (a cell at zoom z-1 is the 2x2 cells at zoom z)."""
    as_of = as_of or timezone.localdate()
    MapCell.objects.filter(jurisdiction=jurisdiction).delete()
    level = grid.MAX_CLUSTER_ZOOM
    size = grid.cell_size(level)
    located = (System.objects.filter(jurisdiction=jurisdiction, parcel__latitude__isnull=False, parcel__longitude__isnull=False)
               .annotate(standing=standing(as_of), cx=GridIndex(F("parcel__longitude"), 180, size),
                         cy=GridIndex(F("parcel__latitude"), 90, size)).order_by())
    sums = {"systems": Count("pk"), "lat_sum": Sum(Cast("parcel__latitude", FloatField())),
            "lon_sum": Sum(Cast("parcel__longitude", FloatField())), **{k: Count("pk", filter=Q(standing=k)) for k in STANDINGS}}
    for name, column in (("", None), *FACETS.items()):
        rows = located.values("cx", "cy", *([column] if column else [])).annotate(**sums)
        MapCell.objects.bulk_create(
            (MapCell(jurisdiction_id=jurisdiction.pk, level=level, computed_on=as_of,
                     facet=f"{name}={r.pop(column)}" if column else "", **r) for r in rows.iterator()),
            batch_size=2000)
    table = MapCell._meta.db_table
    totals = ", ".join(f"SUM({c})" for c in _COLUMNS)
    with connection.cursor() as cursor:
        for lower in range(level - 1, -1, -1):
            cursor.execute(
                f"INSERT INTO {table} (jurisdiction_id, level, facet, cx, cy, computed_on, {', '.join(_COLUMNS)}) "
                f"SELECT jurisdiction_id, %s, facet, cx / 2, cy / 2, %s, {totals} FROM {table} "
                "WHERE jurisdiction_id = %s AND level = %s GROUP BY jurisdiction_id, facet, cx / 2, cy / 2",
                [lower, as_of, jurisdiction.pk, lower + 1])
    counts = dict(MapCell.objects.filter(jurisdiction=jurisdiction, level=0, facet="").aggregate(systems=Sum("systems"), cells=Count("pk")))
    summary = {"systems_on_map": counts["systems"] or 0, "as_of": as_of.isoformat()}
    build_event(jurisdiction, action="map clusters counted", verb="update",
                changes={"systems_on_map": [None, summary["systems_on_map"]], "as_of": [None, summary["as_of"]]}).save()
    return summary


def after_import(*, jurisdiction) -> dict:
    """After-import hook (powts.core.registry): recount once the import's schedules are in step."""
    return cells_rebuild(jurisdiction=jurisdiction)
