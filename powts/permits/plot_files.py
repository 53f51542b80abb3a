"""A plot plan as the plumber has it: a GeoJSON file, a DXF drawing, a PDF, or features drawn on the map.

What comes out is the plan powts.setbacks checks: a GeoJSON FeatureCollection in feet on a local grid.
- GeoJSON in feet (the local grid) is taken as it is; GeoJSON in longitude and latitude (RFC 7946, and
  what the map draws) must lie in the county (its profile's `area`) and is projected to feet around its
  centre, the centre kept as `origin` so the map can draw it again.
- DXF: each entity's layer names the feature ("well", "dispersal_area", "lot line" ...); lines,
  polylines (their bulges as arcs), arcs, circles, ellipses, splines, hatches (their outer boundary) and
  points are read in the drawing's units ($INSUNITS; unitless is feet), curves as fine straight segments.
- PDF: no geometry; it is kept as the application's plan document, the features entered on the map.

A file that cannot be read, or that holds no outline (polygon), is refused naming the file; nothing is kept.
"""
from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass

from powts.core.fields import unstorable_in
from powts.core.refusals import Refused
from powts.kernel.profiles import load_profile
from powts.setbacks import KINDS

MAX_BYTES = 5 * 1024 * 1024  # a lot's drawing is kilobytes; anything this large is not a plot plan
MAX_ENTITIES = 2_000
FIELD = "plot_plan_file"
# Layer names people use for the features powts knows (after lower-casing, spaces and dashes as "_").
LAYER_WORDS = {
    "lot": "lot_line", "lot_lines": "lot_line", "property_line": "lot_line", "property_lines": "lot_line",
    "boundary": "lot_line", "parcel": "lot_line", "house": "dwelling", "home": "dwelling", "garage": "building",
    "shed": "building", "septic_tank": "treatment_tank", "tank": "treatment_tank", "tanks": "treatment_tank",
    "drainfield": "dispersal_area", "drain_field": "dispersal_area", "absorption_area": "dispersal_area",
    "soil_absorption": "dispersal_area", "mound": "dispersal_area", "replacement": "replacement_area",
    "wells": "well", "lake": "high_water_mark", "ohwm": "high_water_mark",
}
# $INSUNITS -> feet per drawing unit (0 = unitless: a plot plan is drawn in feet).
UNIT_FEET = {0: 1.0, 1: 1 / 12, 2: 1.0, 4: 0.1 / 30.48, 5: 1 / 30.48, 6: 1 / 0.3048}
UNIT_WORDS = {0: "unitless (feet)", 1: "inches", 2: "feet", 4: "millimetres", 5: "centimetres", 6: "metres"}
# A lot is far smaller than this many degrees across: a plan whose points all lie within it, and within
# longitude and latitude ranges, is in longitude and latitude (a plan in feet spans more than 0.05 ft).
GEOGRAPHIC_SPAN = 0.05


class PlanFileRefused(Refused):
    """A plot plan file that cannot be used; the message names the file."""

    def __init__(self, message: str, field: str = FIELD):
        super().__init__(message, field=field)


@dataclass(frozen=True)
class PlanFile:
    kind: str  # "geojson", "dxf" or "pdf"
    plan: dict | None  # the plan (not yet projected) for geojson and dxf; None for a PDF


def _read_bytes(upload, name: str) -> bytes:
    size = getattr(upload, "size", None)
    if size is not None and size > MAX_BYTES:
        raise PlanFileRefused(f"{name}: the file is {size / 1048576:.1f} MB; a plot plan file may be at most "
                              f"{MAX_BYTES // 1048576} MB")
    data = upload.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise PlanFileRefused(f"{name}: a plot plan file may be at most {MAX_BYTES // 1048576} MB")
    if not data:
        raise PlanFileRefused(f"{name}: the file is empty")
    return data


def read_upload(upload) -> PlanFile:
    """What the uploaded file is, from its content (never its name), and the plan it holds."""
    from powts.attachments.services import display_name

    name = display_name(getattr(upload, "name", ""))
    data = _read_bytes(upload, name)
    if data.startswith(b"%PDF-"):
        return PlanFile("pdf", None)
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"{"):
        return PlanFile("geojson", _geojson(data, name))
    if head.startswith(b"AutoCAD Binary DXF") or head.startswith(b"0") or b"SECTION" in head[:200]:
        return PlanFile("dxf", dxf_to_geojson(data, name))
    raise PlanFileRefused(f"{name}: not a GeoJSON, DXF or PDF file (its content is none of these)")


def _geojson(data: bytes, name: str) -> dict:
    try:
        plan = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise PlanFileRefused(f"{name}: not readable GeoJSON ({exc})") from None
    found = unstorable_in(plan)  # a JSON escape such as "\\ud800" decodes to text that cannot be stored
    if found:
        raise PlanFileRefused(f"{name}: {found[0]} {found[1]}")
    if not isinstance(plan, dict) or plan.get("type") != "FeatureCollection":
        raise PlanFileRefused(f"{name}: a plot plan is a GeoJSON FeatureCollection")
    return plan


def _kind_of_layer(layer: str) -> str | None:
    word = "_".join(layer.strip().lower().replace("-", " ").split())
    return word if word in KINDS else LAYER_WORDS.get(word)


# Curves (arcs, circles, polyline bulges, ellipses, splines, hatch boundaries) are read as the points of
# straight segments that stray at most this far from the curve, in feet: far finer than any setback.
CURVE_TOLERANCE_FEET = 0.05
MAX_CURVE_POINTS = 5_000
CURVES = ("LWPOLYLINE", "POLYLINE", "ARC", "CIRCLE", "ELLIPSE", "SPLINE")


def _flattened(path, scale: float) -> list[list[float]]:
    points = []
    for v in path.flattening(CURVE_TOLERANCE_FEET / scale):
        points.append([v.x * scale, v.y * scale])
        if len(points) > MAX_CURVE_POINTS:
            raise PlanFileRefused(f"a curve of more than {MAX_CURVE_POINTS:,} points at {CURVE_TOLERANCE_FEET} ft; "
                                  "a plot plan's curves are smaller")
    return [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]


def _shape(coords: list, closed: bool) -> dict | None:
    if len(coords) < 2:
        return None
    if closed or (len(coords) >= 4 and coords[0] == coords[-1]):
        if coords[0] != coords[-1]:
            coords.append(coords[0])
        if len(coords) >= 4:
            return {"type": "Polygon", "coordinates": [coords]}
    return {"type": "LineString", "coordinates": coords}


def _entity_geometry(entity, scale: float) -> dict | None:
    from ezdxf import path as dxf_path

    kind = entity.dxftype()
    if kind == "LINE":
        a, b = entity.dxf.start, entity.dxf.end
        return {"type": "LineString", "coordinates": [[a.x * scale, a.y * scale], [b.x * scale, b.y * scale]]}
    if kind in CURVES:
        # ezdxf's path of the entity follows its arcs (a polyline's bulges included), not their chords.
        closed = kind == "CIRCLE" or (kind in ("LWPOLYLINE", "POLYLINE") and entity.closed)
        return _shape(_flattened(dxf_path.make_path(entity), scale), closed)
    if kind == "HATCH":  # a filled area: its outer boundary is the outline
        paths = [p for p in dxf_path.from_hatch(entity) if len(p)]
        rings = [_flattened(p, scale) for p in paths[:1]]
        return _shape(rings[0], True) if rings else None
    if kind == "POINT":
        p = entity.dxf.location
        return {"type": "Point", "coordinates": [p.x * scale, p.y * scale]}
    return None


def dxf_to_geojson(data: bytes, name: str) -> dict:
    """The features of a DXF drawing's model space, each named by its layer, in feet."""
    import ezdxf
    from ezdxf import recover

    try:
        doc, _auditor = recover.read(io.BytesIO(data))
    except (OSError, ezdxf.DXFError, ValueError, UnicodeDecodeError) as exc:
        raise PlanFileRefused(f"{name}: not a readable DXF drawing ({exc})") from None
    units = doc.header.get("$INSUNITS", 0)
    if units not in UNIT_FEET:
        raise PlanFileRefused(f"{name}: drawn in units powts does not read ($INSUNITS {units}); save it in feet, "
                              "inches or metres")
    scale = UNIT_FEET[units]
    features, unknown, count = [], set(), 0
    for entity in doc.modelspace():
        count += 1
        if count > MAX_ENTITIES:
            raise PlanFileRefused(f"{name}: more than {MAX_ENTITIES:,} drawing entities; a plot plan shows one lot")
        layer = entity.dxf.get("layer", "0")
        kind = _kind_of_layer(layer)
        if kind is None:
            unknown.add(layer)
            continue
        try:
            geometry = _entity_geometry(entity, scale)
        except PlanFileRefused as exc:
            raise PlanFileRefused(f"{name}: layer {layer}: {exc.message}") from None
        except (ezdxf.DXFError, ValueError, ZeroDivisionError) as exc:
            raise PlanFileRefused(f"{name}: layer {layer}: a {entity.dxftype()} that cannot be read ({exc})") from None
        if geometry is not None:
            features.append({"type": "Feature", "properties": {"kind": kind, "name": layer}, "geometry": geometry})
    if not features:
        seen = ", ".join(sorted(unknown)[:10]) or "none"
        raise PlanFileRefused(f"{name}: no line, outline or point on a layer named for a plot plan feature (layers "
                              f"found: {seen}); name the layers lot_line, dwelling, well, treatment_tank, "
                              "dispersal_area ...")
    return {"type": "FeatureCollection", "units": "feet", "features": features}


def require_outline(plan: dict, name: str) -> None:
    """A plot plan shows at least one outline (the lot, the building, the dispersal area)."""
    for feature in _features(plan):
        geometry = feature.get("geometry") if isinstance(feature, dict) else None
        if isinstance(geometry, dict) and geometry.get("type") in ("Polygon", "MultiPolygon"):
            return
    raise PlanFileRefused(f"{name}: the plan has no outline (polygon); draw the lot, the building or the dispersal "
                          "area as a closed shape")


# -- longitude and latitude -> feet ---------------------------------------------------------------

def _positions(coords):
    if isinstance(coords, (list, tuple)) and coords and isinstance(coords[0], (int, float)) and not isinstance(coords[0], bool):
        yield coords
    elif isinstance(coords, (list, tuple)):
        for part in coords:
            yield from _positions(part)


def _features(plan) -> list:
    features = plan.get("features") if isinstance(plan, dict) else None
    return features if isinstance(features, list) else []


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _all_positions(plan: dict) -> list:
    out = []
    for feature in _features(plan):
        geometry = feature.get("geometry") if isinstance(feature, dict) else None
        if isinstance(geometry, dict):
            out.extend(p for p in _positions(geometry.get("coordinates")) if len(p) >= 2)
    return out


def is_geographic(plan: dict) -> bool:
    """In longitude and latitude (a named CRS84/EPSG:4326, or points within a few hundredths of a degree)."""
    if plan.get("units") == "feet":
        return False
    crs = json.dumps(plan.get("crs") or "")
    if "CRS84" in crs or "4326" in crs:
        return True
    points = _all_positions(plan)
    if not points:
        return False
    if not all(_number(p[0]) and _number(p[1]) for p in points):
        return False  # parse_plan names what is wrong with the coordinates
    xs, ys = [float(p[0]) for p in points], [float(p[1]) for p in points]
    in_range = all(-180 <= x <= 180 for x in xs) and all(-90 <= y <= 90 for y in ys)
    return in_range and max(max(xs) - min(xs), max(ys) - min(ys)) < GEOGRAPHIC_SPAN and (max(xs) - min(xs)) > 0


def _feet_per_degree(latitude: float) -> tuple[float, float]:
    """(feet per degree of longitude, of latitude) at `latitude` on the WGS 84 ellipsoid."""
    phi = math.radians(latitude)
    m_lat = 111132.92 - 559.82 * math.cos(2 * phi) + 1.175 * math.cos(4 * phi)
    m_lon = 111412.84 * math.cos(phi) - 93.5 * math.cos(3 * phi)
    return m_lon / 0.3048, m_lat / 0.3048


def _project(coords, lon0: float, lat0: float, fx: float, fy: float):
    if coords and isinstance(coords[0], (int, float)):
        return [round((coords[0] - lon0) * fx, 3), round((coords[1] - lat0) * fy, 3)]
    return [_project(part, lon0, lat0, fx, fy) for part in coords]


def county_area(slug: str) -> dict | None:
    return load_profile(slug).get("area")


def in_feet(plan: dict, *, slug: str, county: str, field: str = "plot_plan") -> dict:
    """The plan on the local grid in feet; one in longitude and latitude must lie in the county."""
    if not isinstance(plan, dict) or not is_geographic(plan):
        return plan
    points = _all_positions(plan)
    area = county_area(slug)
    if area:
        outside = [p for p in points if not (area["west"] <= p[0] <= area["east"] and area["south"] <= p[1] <= area["north"])]
        if outside:
            lon, lat = outside[0][0], outside[0][1]
            raise PlanFileRefused(f"the plot plan lies outside {county} (a point at latitude {lat:.5f}, longitude "
                                  f"{lon:.5f}); draw it on the parcel [{area['citation']}]", field=field)
    lon0 = sum(p[0] for p in points) / len(points)
    lat0 = sum(p[1] for p in points) / len(points)
    fx, fy = _feet_per_degree(lat0)
    features = []
    for feature in _features(plan):
        if isinstance(feature, dict) and isinstance(feature.get("geometry"), dict):
            geometry = dict(feature["geometry"])
            geometry["coordinates"] = _project(geometry.get("coordinates") or [], lon0, lat0, fx, fy)
            feature = {**feature, "geometry": geometry}
        features.append(feature)
    return {"type": "FeatureCollection", "units": "feet",
            "origin": {"longitude": round(lon0, 7), "latitude": round(lat0, 7)}, "features": features}


def from_request(upload):
    """(plan, None) for a GeoJSON or DXF upload, (None, the upload rewound) for a PDF, (None, None) for none."""
    if upload is None:
        return None, None
    from powts.attachments.services import display_name

    got = read_upload(upload)
    if got.kind == "pdf":
        upload.seek(0)
        return None, upload
    require_outline(got.plan, display_name(getattr(upload, "name", "")))
    return got.plan, None


# What a plumber draws on the map, in the words of the plot plan the ordinances describe (setbacks.KINDS).
DRAW_KINDS = (("lot_line", "Lot line"), ("dwelling", "Dwelling"), ("building", "Other building"), ("well", "Well"),
              ("water_service", "Water service"), ("water_main", "Water main"), ("treatment_tank", "Septic or treatment tank"),
              ("holding_tank", "Holding tank"), ("dispersal_area", "Dispersal (absorption) area"),
              ("replacement_area", "Replacement area"), ("high_water_mark", "Lake or stream high-water mark"),
              ("pool", "Swimming pool"), ("cistern", "Cistern"), ("slope_edge_15pct", "Edge of a slope over 15%"),
              ("privy", "Privy"), ("portable_restroom", "Portable restroom"))


def _unproject(coords, lon0: float, lat0: float, fx: float, fy: float):
    if coords and isinstance(coords[0], (int, float)):
        return [round(lon0 + coords[0] / fx, 8), round(lat0 + coords[1] / fy, 8)]
    return [_unproject(part, lon0, lat0, fx, fy) for part in coords]


def in_lonlat(plan) -> dict | None:
    """A plan drawn on the map (or given in longitude and latitude), back in longitude and latitude for the
    map to draw it again: the inverse of in_feet, around the `origin` it kept. None for a plan with no place
    on the earth (a DXF or GeoJSON drawn in feet on its own grid: the permit page shows its drawing only)."""
    origin = plan.get("origin") if isinstance(plan, dict) else None
    try:
        lon0, lat0 = float(origin["longitude"]), float(origin["latitude"])
    except (TypeError, KeyError, ValueError):
        return None
    fx, fy = _feet_per_degree(lat0)
    features = []
    for feature in _features(plan):
        if isinstance(feature, dict) and isinstance(feature.get("geometry"), dict):
            geometry = dict(feature["geometry"])
            geometry["coordinates"] = _unproject(geometry.get("coordinates") or [], lon0, lat0, fx, fy)
            features.append({"type": "Feature", "properties": dict(feature.get("properties") or {}), "geometry": geometry})
    return {"type": "FeatureCollection", "features": features} if features else None


def draw_settings(counties, *, own=None, plan=None, editable: bool = True) -> dict:
    """The drawing map's tiles and each county's centre (the middle of its profile's area); with `plan` (a
    stored plan, in feet), its features in longitude and latitude to draw again, editable or only shown."""
    from django.conf import settings

    centers = {}
    for county in counties:
        area = county_area(county.profile_slug)
        if area:
            centers[county.slug] = [(area["south"] + area["north"]) / 2, (area["west"] + area["east"]) / 2]
    return {"tiles": settings.POWTS_MAP_TILES_URL, "attribution": settings.POWTS_MAP_TILES_ATTRIBUTION,
            "centers": centers, "own": own.slug if own is not None else "", "fallback": settings.POWTS_MAP_CENTER,
            "zoom": 12, "plan": in_lonlat(plan) if plan else None, "editable": editable, "labels": dict(DRAW_KINDS)}
