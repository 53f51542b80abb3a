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

    def of_kind(self, kind: str) -> list[PlanFeature]:
        return [f for f in self.features if f.kind == kind]


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


def parse_plan(data) -> Plan:
    """Validate a decoded GeoJSON object and return the Plan; raises PlanError listing problems."""
    if not isinstance(data, dict) or data.get("type") != "FeatureCollection":
        got = data.get("type") if isinstance(data, dict) else type(data).__name__
        raise PlanError([f"plan is not a GeoJSON FeatureCollection (its type is {got!r})"])
    raw = data.get("features")
    if not isinstance(raw, list):
        raise PlanError(["plan has no 'features' list"])
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
