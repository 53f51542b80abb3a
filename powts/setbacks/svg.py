"""The plot plan drawn as SVG, with violations marked: a pure function of the plan and the result.

North is up (GeoJSON y grows north, SVG y grows down, so y is flipped). Each violation is drawn as
a red dashed line along the shortest path between the two features, labelled with the measured and
required distances.
"""
from __future__ import annotations

from xml.sax.saxutils import escape

import shapely
from shapely.geometry.base import BaseGeometry

from .check import CheckResult
from .plan import Plan

STYLE = {  # kind -> (stroke, fill)
    "lot_line": ("#1b1b1b", "none"),
    "building": ("#565c65", "#dfe1e2"), "dwelling": ("#565c65", "#c6cace"),
    "well": ("#005ea2", "#005ea2"), "water_main": ("#005ea2", "none"),
    "water_service": ("#2378c3", "none"), "pool": ("#00bde3", "#e7f6f8"),
    "cistern": ("#2378c3", "#d9e8f6"), "high_water_mark": ("#0050d8", "#d9e8f6"),
    "slope_edge_15pct": ("#936f38", "none"),
    "treatment_tank": ("#4d8055", "#c5e0c9"), "holding_tank": ("#4d8055", "#c5e0c9"),
    "dispersal_area": ("#538200", "#ecf3ec"), "replacement_area": ("#538200", "none"),
    "privy": ("#8b0a03", "#f4e3db"), "portable_restroom": ("#8b0a03", "#f4e3db"),
}
VIOLATION = "#d83933"
# A white halo keeps labels readable where they cross lines. Attributes, not a <style> element: the SVG
# is drawn inside pages whose Content-Security-Policy refuses inline styles.
HALO = 'paint-order="stroke" stroke="#fff" stroke-width="3" stroke-linejoin="round"'


def render_svg(plan: Plan, result: CheckResult | None = None, *, width: int = 800,
               title: str = "Plot plan", max_marked: int = 100) -> str:
    """SVG text of the plan; with `result`, its first `max_marked` violations are marked in red (more would
    hide the drawing and only make the page heavy; the verdict line gives the full count)."""
    geoms = [f.geometry for f in plan.features]
    if geoms:
        minx, miny, maxx, maxy = shapely.total_bounds(geoms)
    else:
        minx = miny = 0.0
        maxx = maxy = 1.0
    span_x, span_y = max(maxx - minx, 1.0), max(maxy - miny, 1.0)
    margin = 40
    scale = (width - 2 * margin) / span_x
    top = margin + 24  # room for the verdict line above the drawing
    height = int(span_y * scale + margin + top)

    def sx(x: float) -> str:
        return f"{(x - minx) * scale + margin:.2f}"

    def sy(y: float) -> str:
        return f"{(maxy - y) * scale + top:.2f}"

    def xy(x: float, y: float) -> str:
        return f"{sx(x)},{sy(y)}"

    def draw(geom: BaseGeometry, stroke: str, fill: str, extra: str = "") -> list[str]:
        kind = geom.geom_type
        if kind.startswith("Multi") or kind == "GeometryCollection":
            return [s for part in geom.geoms for s in draw(part, stroke, fill, extra)]
        if kind == "Point":
            return [f'<circle cx="{sx(geom.x)}" cy="{sy(geom.y)}" '
                    f'r="4" stroke="{stroke}" fill="{fill if fill != "none" else stroke}"{extra}/>']
        if kind == "LineString":
            pts = " ".join(xy(x, y) for x, y in geom.coords)
            return [f'<polyline points="{pts}" fill="none" stroke="{stroke}" stroke-width="2"{extra}/>']
        rings = [geom.exterior, *geom.interiors]
        d = " ".join("M " + " L ".join(xy(x, y) for x, y in ring.coords) + " Z" for ring in rings)
        return [f'<path d="{d}" fill="{fill}" fill-rule="evenodd" stroke="{stroke}" stroke-width="1.5"{extra}/>']

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="plan-title" '
           f'font-family="Source Sans Pro, Helvetica, Arial, sans-serif" font-size="11">'
           f'<title id="plan-title">{escape(title)}</title>',
           f'<rect width="{width}" height="{height}" fill="white"/>']
    for f in plan.features:
        stroke, fill = STYLE.get(f.kind, ("#000", "none"))
        dash = ' stroke-dasharray="6 4"' if f.kind in ("lot_line", "replacement_area", "slope_edge_15pct") else ""
        out.append(f'<g class="feature {f.kind}" data-index="{f.index}"><title>{escape(f.label)}</title>')
        out += draw(f.geometry, stroke, fill, dash)
        p = f.geometry.representative_point()
        out.append(f'<text x="{sx(p.x)}" y="{sy(p.y)}" '
                   f'dx="6" dy="-6" fill="#1b1b1b" {HALO}>{escape(f.name or f.kind)}</text></g>')
    if result is not None:
        by_index = {f.index: f for f in plan.features}
        for v in result.violations[:max_marked]:
            a, b = by_index[v.feature_index], by_index[v.other_index]
            line = shapely.shortest_line(a.measured, b.measured)
            (x1, y1), (x2, y2) = line.coords
            mx, my = sx((x1 + x2) / 2), sy((y1 + y2) / 2)
            label = f"{v.measured_ft:g} ft < {v.required_ft:g} ft"
            out.append(f'<g class="violation" data-rule="{escape(v.rule_id)}"><title>{escape(v.describe())}</title>'
                       f'<line x1="{sx(x1)}" y1="{sy(y1)}" x2="{sx(x2)}" y2="{sy(y2)}" '
                       f'stroke="{VIOLATION}" stroke-width="3" stroke-dasharray="4 3"/>'
                       f'<circle cx="{mx}" cy="{my}" r="9" fill="none" stroke="{VIOLATION}" stroke-width="2"/>'
                       f'<text x="{mx}" y="{my}" dx="11" dy="4" fill="{VIOLATION}" font-weight="bold" {HALO}>'
                       f'{escape(label)}</text></g>')
        n = len(result.violations)
        verdict = "complies" if result.complies else f"{n} setback violation(s)" + (
            f", the first {max_marked} marked" if n > max_marked else "")
        colour = "#00a91c" if result.complies else VIOLATION
        out.append(f'<text x="{margin}" y="24" font-size="14" font-weight="bold" fill="{colour}" {HALO}>'
                   f'{escape(title)}: {verdict}</text>')
    out.append("</svg>")
    return "\n".join(out)
