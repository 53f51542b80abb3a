"""What the map shows: systems (points or grid clusters), permits and complaints in a bounding box.

Every read is scoped to the user (RoleScopedQuerySet.restrict) and filtered with the system list's own
FilterSet, so the map and the list agree on what "Town of Dunn, mounds" means.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.db.models import Avg, Case, Count, F, FloatField, Min, Q, Sum, Value, When
from django.db.models.functions import Cast

from powts.core.refusals import Refused
from powts.inventory import selectors as inventory_selectors
from powts.inventory.filtersets import SystemFilterSet
from powts.maps import grid, policies
from powts.maps.expressions import MAX_STRIPS, STRIP, GridIndex
from powts.maps.models import MapCell, MapFacetCell, MapStandingCell

# Standing, worst first; "off_cycle" is a system on no maintenance cycle (exempt, abandoned or replaced).
STANDINGS = ("failing", "overdue", "due_soon", "needs_data", "current", "off_cycle")
LABELS = {"failing": "Failing", "overdue": "Overdue", "due_soon": "Due soon", "needs_data": "Needs data",
          "current": "Current", "off_cycle": "Not on a maintenance cycle"}
# The list's filters (powts.inventory.filtersets.SystemFilterSet) other than the county, which is a column
# of the cells. FACETS alone or together, with one value or several, are answered from the cells counted for
# each combination of them (MapFacetCell); any other filter is counted live. A standing filter is the list's
# (maintenance's buckets, where a failing system is also overdue), not the cells' columns: with FACETS or alone
# it is summed from the cells split by those buckets (MapStandingCell) when they were counted on the day asked,
# else counted live.
LIVE_FILTERS = ("q", "system_type", "status", "municipality", "installed_year", "installed_before", "installed_after",
                "standing")
# filter -> the System column it reads (the MapFacetCell field has the filter's name)
FACETS = {"system_type": "system_type", "status": "status", "municipality": "parcel__municipality"}


class MapRefused(Refused):
    """A bounding box or zoom the map cannot use."""


def standing(as_of: dt.date) -> Case:
    """A system's standing on `as_of`, from its maintenance schedule: the same buckets as the maintenance
    dashboard (powts.maintenance.selectors.standing_q; test_map_agrees_with_the_dashboard checks it),
    with failing (status or an unreviewed failure report) first."""
    s = "maintenance_schedule__"
    return Case(
        When(Q(status="failing") | Q(**{f"{s}failure_reported": True}), then=Value("failing")),
        When(status__in=("abandoned", "replaced"), then=Value("off_cycle")),
        When(Q(**{f"{s}system__isnull": True}) | Q(**{f"{s}needs_data": True}), then=Value("needs_data")),
        When(**{f"{s}exempt": True}, then=Value("off_cycle")),
        When(**{f"{s}due_on__lte": as_of}, then=Value("overdue")),
        When(**{f"{s}notice_on__lte": as_of}, then=Value("due_soon")),
        default=Value("current"),
    )


# The list's standing filter (powts.inventory.filtersets.STANDINGS), one bit each in MapStandingCell.standings:
# a system can be in more than one (a failing system is also overdue, say), so the cells keep the set.
LIST_STANDING_BITS = {"current": 1, "due_soon": 2, "overdue": 4, "delinquent": 8, "failing": 16, "needs_data": 32}


def _on_system(q: Q) -> Q:
    """A filter on maintenance's Schedule (standing_q, FAILING_Q) as a filter on System through its schedule."""
    out = Q()
    out.connector, out.negated = q.connector, q.negated
    out.children = [_on_system(c) if isinstance(c, Q) else
                    (c[0].removeprefix("system__") if c[0].startswith("system__") else f"maintenance_schedule__{c[0]}", c[1])
                    for c in q.children]
    return out


def list_standings(as_of: dt.date):
    """The set of the list's standing buckets a system is in on `as_of`, as LIST_STANDING_BITS summed: the same
    filters the list applies (powts.maintenance.selectors.standing_systems), read through the system's schedule;
    a system with no schedule is in none."""
    from powts.maintenance.selectors import FAILING_Q, standing_q

    has = Q(maintenance_schedule__system__isnull=False)
    buckets = {**standing_q(as_of), "failing": FAILING_Q}
    total = None
    for name, bit in LIST_STANDING_BITS.items():
        term = Case(When(has & _on_system(buckets[name]), then=Value(bit)), default=Value(0))
        total = term if total is None else total + term
    return total


def standing_masks(name: str) -> list[int]:
    """The MapStandingCell.standings values that hold the bucket `name`."""
    bit = LIST_STANDING_BITS[name]
    return [m for m in range(2 * max(LIST_STANDING_BITS.values())) if m & bit]


def parse_bbox(raw: str | None) -> grid.BBox:
    """`minlon,minlat,maxlon,maxlat` (GeoJSON's order), within the world and not inverted."""
    if not raw:
        raise MapRefused("bbox is required: minlon,minlat,maxlon,maxlat", field="bbox")
    parts = raw.split(",")
    if len(parts) != 4 or len(raw) > 200:
        raise MapRefused(f"bbox {raw[:60]!r} is not four numbers minlon,minlat,maxlon,maxlat", field="bbox")
    try:
        west, south, east, north = (float(p) for p in parts)
    except ValueError:
        raise MapRefused(f"bbox {raw[:60]!r} is not four numbers minlon,minlat,maxlon,maxlat", field="bbox") from None
    if not all(v == v for v in (west, south, east, north)):  # NaN
        raise MapRefused("bbox holds a value that is not a number", field="bbox")
    # A map panned past the antimeridian or the poles asks for more than the world: clip it.
    west, east = max(west, -180.0), min(east, 180.0)
    south, north = max(south, -90.0), min(north, 90.0)
    if west > east or south > north:
        raise MapRefused("bbox: minlon must not exceed maxlon, nor minlat maxlat", field="bbox")
    return grid.BBox(west, south, east, north)


def parse_zoom(raw: str | None, bbox: grid.BBox) -> int:
    if raw in (None, ""):
        return bbox.zoom_for_width()
    if not raw.isdigit() or int(raw) > 22:
        raise MapRefused(f"zoom {raw[:20]!r} is not a whole number from 0 to 22", field="zoom")
    return int(raw)


def filtered_systems(*, user, params) -> tuple[object, str | dict | None]:
    """(the user's systems through the list's FilterSet, the counted cells that answer the same question:
    "" with no filter, {"system_type": ["mound"], "status": ["active"]} with facets only, None when only a
    live count can)."""
    data = params.copy()
    for key in [k for k, values in data.lists() if not any(v.strip() for v in values)]:
        del data[key]
    filterset = SystemFilterSet(data, queryset=inventory_selectors.system_list(user=user))
    if not filterset.is_valid():
        field, errors = next(iter(filterset.errors.items()))
        raise MapRefused(f"{field}: {' '.join(errors)}", field=field)
    used = [k for k in LIVE_FILTERS if k in data]
    if not used:
        return filterset.qs, ""
    # A standing on another day than today ("as_of") is not what the cells were counted for: live.
    if all(k in FACETS or (k == "standing" and "as_of" not in data) for k in used):
        cleaned = filterset.form.cleaned_data
        return filterset.qs, {k: list(cleaned[k]) if isinstance(cleaned[k], list) else [cleaned[k]] for k in used}
    return filterset.qs, None


def _single_facet(facet) -> str | None:
    """UnplacedCount's name for a filter on one facet with one value ("system_type=mound"), else None."""
    if facet == "" or facet is None:
        return facet
    if len(facet) == 1:
        (name, values), = facet.items()
        if len(values) == 1 and name in FACETS:  # UnplacedCount is not counted by standing
            return f"{name}={values[0]}"
    return None


def _in_box(qs, bbox: grid.BBox, prefix: str = "parcel__"):
    q = Decimal(str(round(bbox.west, 6))), Decimal(str(round(bbox.east, 6)))
    r = Decimal(str(round(bbox.south, 6))), Decimal(str(round(bbox.north, 6)))
    return qs.filter(**{f"{prefix}longitude__range": q, f"{prefix}latitude__range": r})


def systems(*, user, params, bbox: grid.BBox, zoom: int, as_of: dt.date) -> dict:
    """A GeoJSON FeatureCollection: single systems when the box holds few enough of them at a close zoom,
    otherwise one feature per grid cell with its count and counts by standing."""
    qs, facet = filtered_systems(user=user, params=params)
    live = facet is None
    in_box = _in_box(qs, bbox)
    # The counted cells over the box hold at least the systems in it: when they hold far more than the cap,
    # the points query would only be thrown away, so it is not run.
    if zoom >= grid.POINT_ZOOM and (live or (_counted_in_box(user=user, params=params, bbox=bbox) or 0) <= 2 * grid.POINT_CAP):
        rows = list(_in_strips(in_box, bbox).annotate(standing=standing(as_of)).order_by().values_list(
            "pk", "system_id", "parcel__latitude", "parcel__longitude", "parcel__site_address", "standing")[:grid.POINT_CAP + 1])
        if len(rows) <= grid.POINT_CAP:
            return _collection([_point(*r) for r in rows], kind="points", zoom=zoom)
    level = min(zoom, grid.MAX_CLUSTER_ZOOM)
    top = grid.STANDING_MAX_ZOOM if facet and "standing" in facet else grid.FACET_MAX_ZOOM
    if not live and (facet == "" or level <= top):
        counted = _counted_cells(user=user, params=params, bbox=bbox, level=level, facet=facet, as_of=as_of)
        if counted is not None:
            features, counted_on = counted
            return _collection(features, kind="clusters", zoom=level, counted_on=counted_on)
    return _collection(_live_cells(in_box, level=level, as_of=as_of), kind="clusters", zoom=level, counted_on=as_of)


def _in_strips(in_box, bbox: grid.BBox):
    """The box's systems read through the parcel's strip index (parcel_map_strip): one latitude range in
    each longitude strip the box crosses."""
    first, last = int((bbox.west + 180) // STRIP), int((bbox.east + 180) // STRIP)
    if last - first + 1 > MAX_STRIPS:
        return in_box
    return in_box.alias(strip=GridIndex(F("parcel__longitude"), 180, STRIP)).filter(strip__in=range(first, last + 1))


def _point(pk, system_id, lat, lon, address, standing_) -> dict:
    return {"type": "Feature", "geometry": {"type": "Point", "coordinates": [float(lon), float(lat)]},
            "properties": {"kind": "system", "id": pk, "label": f"System {system_id}", "address": address,
                           "standing": standing_, "standing_label": LABELS[standing_], "url": f"/inventory/systems/{pk}/"}}


def _cluster(count: int, lat: float, lon: float, by_standing: dict) -> dict:
    return {"type": "Feature", "geometry": {"type": "Point", "coordinates": [round(lon, 6), round(lat, 6)]},
            "properties": {"kind": "cluster", "count": count, "standing": {k: by_standing.get(k, 0) for k in STANDINGS}}}


def _collection(features: list, *, kind: str, zoom: int, counted_on: dt.date | None = None) -> dict:
    totals = {k: 0 for k in STANDINGS}
    for f in features:
        p = f["properties"]
        if p["kind"] == "cluster":
            for k, v in p["standing"].items():
                totals[k] += v
        else:
            totals[p["standing"]] += 1
    out = {"type": "FeatureCollection", "features": features,
           "properties": {"kind": kind, "zoom": zoom, "total": sum(totals.values()), "by_standing": totals}}
    if counted_on:
        out["properties"]["counted_on"] = counted_on.isoformat()
    return out


def _live_cells(in_box, *, level: int, as_of: dt.date) -> list[dict]:
    """Grid aggregation in SQL over the filtered systems (GROUP BY the cell numbers)."""
    size = grid.cell_size(level)
    counts = {k: Count("pk", filter=Q(standing=k)) for k in STANDINGS}
    rows = (in_box.annotate(standing=standing(as_of), cx=GridIndex(F("parcel__longitude"), 180, size),
                            cy=GridIndex(F("parcel__latitude"), 90, size))
            .order_by().values("cx", "cy")
            .annotate(n=Count("pk"), lat=Avg(Cast("parcel__latitude", FloatField())),
                      lon=Avg(Cast("parcel__longitude", FloatField())), **counts)
            .order_by("cx", "cy"))  # the same order as the counted cells (PostgreSQL's hash grouping has none)
    return [_cluster(r["n"], r["lat"], r["lon"], {k: r[k] for k in STANDINGS}) for r in rows]


def _counted_cells(*, user, params, bbox: grid.BBox, level: int, facet: str | dict, as_of: dt.date):
    """The pre-counted cells in the box, or None when the user's counties have none yet (or, for a standing,
    none counted on `as_of`)."""
    if not _scoped_cells(user=user, params=params, level=level, facet="").exists():
        return None
    day = None  # the day every cell read was counted, when known before reading them
    if facet and "standing" in facet:
        facet = dict(facet)
        wanted = facet.pop("standing")[0]
        # Every county in view counted on `as_of`, by standing too (a county counted before these cells existed
        # has none): else live. A county's cells are all counted on one day, in one transaction.
        everything = _scoped_cells(user=user, params=params, level=0, facet="")
        if everything.exclude(computed_on=as_of).exists():
            return None
        ready = _scoped_cells(user=user, params=params, level=0, model=MapStandingCell).filter(computed_on=as_of)
        if set(everything.values_list("jurisdiction_id", flat=True)) - set(ready.values_list("jurisdiction_id", flat=True)):
            return None
        cells = _scoped_cells(user=user, params=params, level=level, model=MapStandingCell).filter(
            standings__in=standing_masks(wanted), **{f"{name}__in": values for name, values in facet.items()})
        day = as_of
    elif facet:
        if not _scoped_cells(user=user, params=params, level=0, model=MapFacetCell).exists():
            return None  # counted before the cells by facet existed: live until the next count
        cells = _scoped_cells(user=user, params=params, level=level, model=MapFacetCell)
        cells = cells.filter(**{f"{name}__in": values for name, values in facet.items()})
    else:
        cells = _scoped_cells(user=user, params=params, level=level, facet="")
    x0, y0, x1, y1 = bbox.cells(level)
    rows = list(cells.filter(cx__range=(x0, x1), cy__range=(y0, y1)).order_by().values("cx", "cy")
                .annotate(n=Sum("systems"), lat=Sum("lat_sum"), lon=Sum("lon_sum"), on=Min("computed_on"),
                          **{k: Sum(k) for k in STANDINGS})
                .order_by("cx", "cy"))
    features = [_cluster(r["n"], r["lat"] / r["n"], r["lon"] / r["n"], {k: r[k] for k in STANDINGS}) for r in rows if r["n"]]
    # The day the cells shown were counted (the oldest among them), read with them: not a sort of every
    # cell of the level, which took longer than the cells themselves at a million systems. A box with no
    # cells takes any cell's day (a rebuild counts them all on one day).
    counted_on = day or min((r["on"] for r in rows), default=None) or next(
        iter(cells.order_by().values_list("computed_on", flat=True)[:1]), None)
    return features, counted_on


def extent(*, user) -> list[float] | None:
    """[west, south, east, north] of the user's systems on the map, from the finest counted cells (cheap at
    a million systems) or, before any are counted, from the parcels themselves."""
    from django.db.models import Max, Min

    from powts.inventory.models import Parcel

    cells = MapCell.objects.filter(level=grid.MAX_CLUSTER_ZOOM, facet="")
    ids = policies.jurisdiction_ids(user)
    if ids is not None:
        cells = cells.filter(jurisdiction_id__in=ids)
    found = cells.aggregate(x0=Min("cx"), y0=Min("cy"), x1=Max("cx"), y1=Max("cy"))
    if found["x0"] is not None:
        size = grid.cell_size(grid.MAX_CLUSTER_ZOOM)
        return [found["x0"] * size - 180, found["y0"] * size - 90, (found["x1"] + 1) * size - 180, (found["y1"] + 1) * size - 90]
    parcels = Parcel.objects.filter(latitude__isnull=False, longitude__isnull=False, pending=False)
    if ids is not None:
        parcels = parcels.filter(jurisdiction_id__in=ids)
    found = parcels.aggregate(x0=Min("longitude"), y0=Min("latitude"), x1=Max("longitude"), y1=Max("latitude"))
    if found["x0"] is None:
        return None
    return [float(found["x0"]), float(found["y0"]), float(found["x1"]), float(found["y1"])]


def _counted_in_box(*, user, params, bbox: grid.BBox) -> int | None:
    """Systems in the finest counted cells that touch the box: an upper bound of those in it, whatever the filter."""
    cells = _scoped_cells(user=user, params=params, level=grid.MAX_CLUSTER_ZOOM, facet="")
    x0, y0, x1, y1 = bbox.cells(grid.MAX_CLUSTER_ZOOM)
    return cells.filter(cx__range=(x0, x1), cy__range=(y0, y1)).aggregate(n=Sum("systems"))["n"]


def _scoped_cells(*, user, params, level: int, facet: str = "", model=MapCell):
    cells = model.objects.filter(level=level, **({"facet": facet} if model is MapCell else {}))
    ids = policies.jurisdiction_ids(user)
    if ids is not None:
        cells = cells.filter(jurisdiction_id__in=ids)
    if params.get("jurisdiction"):
        cells = cells.filter(jurisdiction__slug=params["jurisdiction"])
    return cells


# Beyond this many, a filter the stored counts cannot answer shows "more than" (read live, it stops there).
UNPLACED_LIVE_CAP = 1_000


def not_on_map(*, user, params) -> dict:
    """Systems with no coordinates (on their own record or their parcel's centroid): {"count", "more" (True:
    at least that many), "counted_on" (the day of a stored count; None when counted now)}.

    A county has thousands of them (2% of a million): counting them on every view took about a second, so
    the figures counted with the clusters (maps.services.cells_rebuild: after an import, a centroid load and
    daily) answer the list's filters they were counted for; any other filter is counted live up to
    UNPLACED_LIVE_CAP."""
    from powts.maps.models import UnplacedCount

    qs, facet = filtered_systems(user=user, params=params)
    facet = _single_facet(facet)
    if facet is not None and _scoped_cells(user=user, params=params, level=0, facet="").exists():
        stored = UnplacedCount.objects.filter(facet=facet)
        ids = policies.jurisdiction_ids(user)
        if ids is not None:
            stored = stored.filter(jurisdiction_id__in=ids)
        if params.get("jurisdiction"):
            stored = stored.filter(jurisdiction__slug=params["jurisdiction"])
        found = stored.aggregate(n=Sum("systems"), on=Min("computed_on"))
        return {"count": found["n"] or 0, "more": False,
                "counted_on": found["on"] or _scoped_cells(user=user, params=params, level=0, facet="")
                .values_list("computed_on", flat=True).first()}
    # Two reads, each from an index on the parcel (parcel_lon_lat; parcel_no_latitude), rather than one OR
    # that would read every system of the county; each stops at the cap.
    cap = UNPLACED_LIVE_CAP + 1
    n = qs.filter(parcel__longitude__isnull=True).order_by().values("pk")[:cap].count()
    if n < cap:
        n += qs.filter(parcel__longitude__isnull=False, parcel__latitude__isnull=True).order_by().values("pk")[:cap - n].count()
    return {"count": min(n, UNPLACED_LIVE_CAP), "more": n > UNPLACED_LIVE_CAP, "counted_on": None}


def _capped(kind: str, features: list, cap: int) -> dict:
    """A layer's points, at most `cap` of them, the newest first; `truncated` says when there were more."""
    return {"type": "FeatureCollection", "features": features[:cap],
            "properties": {"kind": kind, "total": len(features[:cap]), "truncated": len(features) > cap}}


def permits(*, user, bbox: grid.BBox, cap: int = grid.POINT_CAP) -> dict:
    from powts.permits.models import Permit

    rows = _in_box(Permit.objects.restrict(user, "view"), bbox).order_by("-id").values_list(
        "pk", "number", "status", "parcel__latitude", "parcel__longitude", "parcel__site_address")[:cap + 1]
    features = [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [float(lon), float(lat)]},
                 "properties": {"kind": "permit", "id": pk, "label": f"Permit {number}", "status": status,
                                "address": address, "url": f"/permits/{pk}/"}}
                for pk, number, status, lat, lon, address in rows]
    return _capped("permits", features, cap)


def complaints(*, user, bbox: grid.BBox, cap: int = grid.POINT_CAP) -> dict:
    """Public complaints that came with a location (Open311 lat/long)."""
    from powts.permits.models import Complaint

    qs = Complaint.objects.all()
    ids = policies.jurisdiction_ids(user)
    if ids is not None:
        qs = qs.filter(jurisdiction_id__in=ids)
    qs = qs.filter(long__range=(Decimal(str(round(bbox.west, 6))), Decimal(str(round(bbox.east, 6)))),
                   lat__range=(Decimal(str(round(bbox.south, 6))), Decimal(str(round(bbox.north, 6)))))
    rows = qs.order_by("-id").values_list("pk", "service_code", "status", "lat", "long", "address")[:cap + 1]
    features = [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [float(lon), float(lat)]},
                 "properties": {"kind": "complaint", "id": pk, "label": f"Complaint #{pk}", "status": status,
                                "address": address, "url": "/permits/site/#h-comp"}}
                for pk, code, status, lat, lon, address in rows]
    return _capped("complaints", features, cap)
