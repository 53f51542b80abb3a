"""Parcel centroids: a county's file of parcel number, latitude and longitude places on the map the systems
whose records carry no coordinates.

The file is CSV (columns parcel_number / parcel_id / pin, latitude / lat, longitude / lon / lng) or
GeoJSON (Point features, or polygons whose centroid is taken, with the parcel number in properties).
Parcel numbers match with or without dashes, spaces and dots ("0810-123-4560-0" = "081012345600").
Only parcels with no coordinates are filled: coordinates already on record are the county's own and
stay. Every row is filled, skipped (already placed) or rejected with its line and reason; the fills are
one transaction, each parcel's change audited.
"""
from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone

from powts.audit.context import current
from powts.audit.models import AuditEvent
from powts.core.refusals import Refused
from powts.inventory.importing.columns import normalise_header
from powts.inventory.importing.values import BadValue, parse_coordinate
from powts.inventory.models import Parcel

NUMBER_COLUMNS = ("parcel_number", "parcel_id", "parcel", "pin", "parcel_no", "tax_parcel_number")
LAT_COLUMNS = ("latitude", "lat", "y")
LON_COLUMNS = ("longitude", "lon", "lng", "long", "x")
MAX_BYTES = 512 * 1024 * 1024
_NOT_ALNUM = re.compile(r"[^0-9A-Za-z]")


class CentroidFileRefused(Refused):
    """The whole file cannot be read; nothing was written."""


def parcel_key(number: str) -> str:
    """'0810-123-4560-0', '0810 123 4560 0' and '081012345600' are one parcel."""
    return _NOT_ALNUM.sub("", number or "").upper()


@dataclass
class CentroidResult:
    rows: int = 0
    filled: int = 0
    already_placed: int = 0
    rejected: int = 0
    rejects: list[dict] = field(default_factory=list)  # every rejected row: {"line", "parcel_number", "reason"}

    def counts(self) -> dict:
        return {"rows": self.rows, "filled": self.filled, "already_placed": self.already_placed, "rejected": self.rejected}


def _pick(headers: list[str], names: tuple[str, ...]) -> str | None:
    return next((h for h in headers if h in names), None)


def _csv_rows(path: Path, name: str):
    with open(path, newline="", encoding="utf-8-sig", errors="strict") as handle:
        reader = csv.reader(handle)
        try:
            raw = next(reader)
        except StopIteration:
            raise CentroidFileRefused(f"{name} is empty", field="file") from None
        headers = [normalise_header(h) for h in raw]
        number, lat, lon = _pick(headers, NUMBER_COLUMNS), _pick(headers, LAT_COLUMNS), _pick(headers, LON_COLUMNS)
        if not (number and lat and lon):
            raise CentroidFileRefused(f"{name} needs a parcel number, a latitude and a longitude column "
                                      f"(found: {', '.join(h for h in raw if h) or 'no header'})", field="file")
        at = {h: i for i, h in enumerate(headers)}
        for cells in reader:
            if not any(c.strip() for c in cells):
                continue
            cells = cells + [""] * (len(headers) - len(cells))
            yield reader.line_num, cells[at[number]].strip(), cells[at[lat]], cells[at[lon]]


def _geojson_rows(path: Path, name: str):
    try:
        data = json.loads(path.read_bytes())
    except (ValueError, UnicodeDecodeError) as exc:
        raise CentroidFileRefused(f"{name} is not readable GeoJSON ({exc.__class__.__name__})", field="file") from None
    features = data.get("features") if isinstance(data, dict) else None
    if not isinstance(features, list):
        raise CentroidFileRefused(f"{name} is not a GeoJSON FeatureCollection", field="file")
    from shapely.geometry import shape

    for index, feature in enumerate(features, start=1):
        props = (feature or {}).get("properties") or {} if isinstance(feature, dict) else {}
        keys = {normalise_header(k): v for k, v in props.items()} if isinstance(props, dict) else {}
        number = next((str(keys[k]).strip() for k in NUMBER_COLUMNS if keys.get(k) not in (None, "")), "")
        lat = lon = None
        geometry = feature.get("geometry") if isinstance(feature, dict) else None
        try:
            if geometry:
                point = shape(geometry)
                point = point if point.geom_type == "Point" else point.centroid
                lon, lat = point.x, point.y
        except Exception:  # shapely refuses a malformed geometry in many ways: that feature's reject
            lat = lon = "not a geometry"
        if lat is None:
            lat, lon = keys.get("latitude", keys.get("lat")), keys.get("longitude", keys.get("lon", keys.get("lng")))
        yield f"feature {index}", number, lat, lon


def _coordinate(column: str, raw, limit: int) -> Decimal:
    if isinstance(raw, float):
        raw = repr(raw)
    value = parse_coordinate(column, raw, limit)
    if value is None:
        raise BadValue(f"{column} is empty")
    return value


def load_centroids(*, path: Path, jurisdiction, source_name: str | None = None) -> CentroidResult:
    """Fill the coordinates of `jurisdiction`'s parcels that have none from the file at `path`."""
    path = Path(path)
    name = Path(source_name or path.name).name
    if not path.is_file():
        raise CentroidFileRefused(f"{name} does not exist", field="file")
    if path.stat().st_size > MAX_BYTES:
        raise CentroidFileRefused(f"{name} is larger than {MAX_BYTES // (1024 * 1024)} MB", field="file")
    suffix = path.suffix.lower()
    if suffix in (".geojson", ".json"):
        rows = _geojson_rows(path, name)
    elif suffix in (".csv", ".txt"):
        rows = _csv_rows(path, name)
    else:
        raise CentroidFileRefused(f"{name}: parcel centroids are read from .csv or .geojson files, not {suffix or 'this file'}",
                                  field="file")
    # Parcels of the county, by their number without separators; the ones already placed are only reported.
    parcels: dict[str, tuple[int, str, bool]] = {}
    for pk, number, lat, lon in Parcel.objects.filter(jurisdiction=jurisdiction).values_list(
            "pk", "parcel_number", "latitude", "longitude").iterator(chunk_size=10000):
        parcels.setdefault(parcel_key(number), (pk, number, lat is not None and lon is not None))
    result = CentroidResult()
    fills: dict[int, tuple[str, Decimal, Decimal]] = {}
    seen: dict[str, object] = {}

    def reject(line, number, reason):
        result.rejected += 1
        result.rejects.append({"line": line, "parcel_number": number, "reason": reason})

    try:
        for line, number, raw_lat, raw_lon in rows:
            result.rows += 1
            if not number:
                reject(line, number, "the parcel number is empty")
                continue
            key = parcel_key(number)
            if key in seen:
                reject(line, number, f"parcel {number} appears twice in this file (first at {seen[key]})")
                continue
            seen[key] = line
            try:
                lat, lon = _coordinate("latitude", raw_lat, 90), _coordinate("longitude", raw_lon, 180)
            except BadValue as exc:
                reject(line, number, str(exc))
                continue
            if lat == 0 and lon == 0:
                reject(line, number, "latitude 0, longitude 0 is not a place in the county")
                continue
            found = parcels.get(key)
            if found is None:
                reject(line, number, f"parcel {number} is not in {jurisdiction}'s inventory")
                continue
            pk, stored_number, placed = found
            if placed:
                result.already_placed += 1
                continue
            fills[pk] = (stored_number, lat, lon)
    except UnicodeDecodeError:
        raise CentroidFileRefused(f"{name} is not UTF-8 text; save it as CSV UTF-8 and try again", field="file") from None
    except csv.Error as exc:
        raise CentroidFileRefused(f"{name} is not readable CSV ({exc})", field="file") from None
    result.filled = len(fills)
    if fills:
        _write(fills, jurisdiction=jurisdiction, name=name)
    return result


@transaction.atomic
def _write(fills: dict, *, jurisdiction, name: str) -> None:
    action = f"parcel centroid from {name}"
    ctx = current()
    actor = ctx.resolved_actor()
    actor = actor if getattr(actor, "pk", None) else None
    now = timezone.now()
    content_type = ContentType.objects.get_for_model(Parcel)
    ids = list(fills)
    for start in range(0, len(ids), 2000):
        chunk = Parcel.objects.filter(pk__in=ids[start:start + 2000], latitude__isnull=True)
        objs = []
        for parcel in chunk:
            _, parcel.latitude, parcel.longitude = fills[parcel.pk]
            objs.append(parcel)
        Parcel.objects.bulk_update(objs, ["latitude", "longitude"], batch_size=1000)
        AuditEvent.objects.bulk_create([
            AuditEvent(at=now, actor=actor, actor_label=actor.username if actor else ctx.actor_label, channel=ctx.channel,
                       action=action, verb="update", content_type=content_type, object_id=p.pk, object_repr=str(p)[:200],
                       changes={"latitude": [None, str(p.latitude)], "longitude": [None, str(p.longitude)]}, batch=ctx.batch)
            for p in objs], batch_size=1000)


__all__ = ["CentroidFileRefused", "CentroidResult", "load_centroids", "parcel_key"]
