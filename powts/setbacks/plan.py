"""The plot plan: a GeoJSON FeatureCollection in feet on a local grid, parsed and validated.

Every problem is reported, not just the first, each naming the feature by index (0-based, as in
the file) and name, so the person who drew the plan can fix them all in one go.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import shapely
from shapely.geometry import shape
from shapely.geometry.base import BaseGeometry

from .errors import PlanError

KINDS = (
    "lot_line", "building", "dwelling", "well", "water_main", "water_service", "pool", "cistern",
    "high_water_mark", "slope_edge_15pct", "treatment_tank", "holding_tank", "dispersal_area",
    "replacement_area", "privy", "portable_restroom",
)
LOT_LINE_TYPES = {"LineString", "MultiLineString", "Polygon", "MultiPolygon"}
# A plot plan shows one lot: tens of features. Far beyond that it is a mistake or an attack, and checking
# and drawing it would cost seconds and tens of megabytes per page (4,000 features made a 65 MB page).
MAX_FEATURES = 500
MAX_POSITIONS = 20_000  # coordinate pairs over all features


@dataclass(frozen=True)
class PlanFeature:
    index: int
    kind: str
    name: str | None
    geometry: BaseGeometry   # as drawn
    measured: BaseGeometry   # what distances are measured to (a lot polygon's boundary)

    @property
    def label(self) -> str:
        """How messages name it: '#3 well "W1"' or '#3 well'."""
        return f'#{self.index} {self.kind} "{self.name}"' if self.name else f"#{self.index} {self.kind}"


@dataclass(frozen=True)
class Plan:
    features: tuple[PlanFeature, ...]


def _who(index: int, feature) -> str:
    name = feature.get("properties", {}).get("name") if isinstance(feature, dict) and isinstance(
        feature.get("properties"), dict) else None
    return f'feature #{index} "{name}"' if name else f"feature #{index}"


def _finite(coords) -> bool:
    if isinstance(coords, (int, float)) and not isinstance(coords, bool):
        return math.isfinite(coords)
    if isinstance(coords, (list, tuple)):
        return all(_finite(c) for c in coords)
    return False


def _positions(coords, budget: int) -> int:
    """How many coordinate pairs `coords` holds, counting no further than `budget` + 1."""
    if not isinstance(coords, (list, tuple)) or not coords or not isinstance(coords[0], (list, tuple)):
        return 1
    total = 0
    for part in coords:
        total += _positions(part, budget - total)
        if total > budget:
            break
    return total


def parse_plan(data, *, max_features: int = MAX_FEATURES, max_positions: int = MAX_POSITIONS) -> Plan:
    """Validate a decoded GeoJSON object and return the Plan; raises PlanError listing problems."""
    if not isinstance(data, dict) or data.get("type") != "FeatureCollection":
        got = data.get("type") if isinstance(data, dict) else type(data).__name__
        raise PlanError([f"plan is not a GeoJSON FeatureCollection (its type is {got!r})"])
    raw = data.get("features")
    if not isinstance(raw, list):
        raise PlanError(["plan has no 'features' list"])
    if len(raw) > max_features:
        raise PlanError([f"plan has {len(raw):,} features; a plot plan may have at most {max_features:,}"])
    positions = 0
    for feature in raw:
        geo = feature.get("geometry") if isinstance(feature, dict) else None
        if isinstance(geo, dict):
            positions += _positions(geo.get("coordinates"), max_positions - positions)
        if positions > max_positions:
            too_many = f"plan has more than {max_positions:,} coordinate pairs; draw lines and outlines with fewer points"
            raise PlanError([too_many])
    problems: list[str] = []
    features: list[PlanFeature] = []
    for index, feature in enumerate(raw):
        who = _who(index, feature)
        if not isinstance(feature, dict) or feature.get("type") != "Feature":
            problems.append(f"{who}: not a GeoJSON Feature")
            continue
        props = feature.get("properties")
        if not isinstance(props, dict):
            problems.append(f"{who}: has no properties (needs properties.kind)")
            continue
        kind = props.get("kind")
        if kind not in KINDS:
            problems.append(f"{who}: unknown kind {kind!r}; expected one of {', '.join(KINDS)}"
                            if kind is not None else f"{who}: has no properties.kind")
            continue
        name = props.get("name")
        name = str(name) if name not in (None, "") else None
        geo = feature.get("geometry")
        if not isinstance(geo, dict) or "type" not in geo:
            problems.append(f"{who} ({kind}): has no geometry")
            continue
        if not _finite(geo.get("coordinates", [])):
            problems.append(f"{who} ({kind}): coordinates must be finite numbers (feet)")
            continue
        try:
            geom = shape(geo)
        except Exception as exc:  # shapely raises several types for malformed GeoJSON
            problems.append(f"{who} ({kind}): geometry {geo.get('type')!r} cannot be read ({exc})")
            continue
        if geom.is_empty:
            problems.append(f"{who} ({kind}): geometry is empty")
            continue
        if not geom.is_valid:
            problems.append(f"{who} ({kind}): invalid geometry: {shapely.is_valid_reason(geom)}")
            continue
        if kind == "lot_line" and geom.geom_type not in LOT_LINE_TYPES:
            problems.append(f"{who} (lot_line): must be a LineString or a Polygon whose boundary is "
                            f"the lot line, not a {geom.geom_type}")
            continue
        measured = geom.boundary if kind == "lot_line" and geom.geom_type.endswith("Polygon") else geom
        features.append(PlanFeature(index, kind, name, geom, measured))
    if problems:
        raise PlanError(problems)
    return Plan(tuple(features))
