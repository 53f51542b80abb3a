"""Finding: "a 4,000-feature plot plan makes a 65 MB page": a plot plan has at most MAX_FEATURES features and
MAX_POSITIONS coordinate pairs (both sides of each cap), and the drawing marks at most 100 violations."""
import random

import pytest

from powts.setbacks import PlanError, check_plan, parse_plan, render_svg, rules_for
from powts.setbacks.plan import MAX_FEATURES, MAX_POSITIONS

LOT = {"type": "Feature", "properties": {"kind": "lot_line", "name": "Lot"},
       "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1000, 0], [1000, 1000], [0, 1000], [0, 0]]]}}


def crowded(n: int, span: float = 40.0) -> dict:
    """A lot and n-1 wells and tanks crowded into `span` feet: nearly every well-tank pair is a violation."""
    rnd = random.Random(1)
    points = [{"type": "Feature", "properties": {"kind": ("well", "treatment_tank")[i % 2], "name": f"F{i}"},
               "geometry": {"type": "Point", "coordinates": [10 + rnd.uniform(0, span), 10 + rnd.uniform(0, span)]}}
              for i in range(n - 1)]
    return {"type": "FeatureCollection", "features": [LOT, *points]}


def long_line(positions: int) -> dict:
    """A lot line drawn with `positions` coordinate pairs in all (lot polygon 5 + the line)."""
    line = {"type": "Feature", "properties": {"kind": "slope_edge_15pct"},
            "geometry": {"type": "LineString", "coordinates": [[i * 0.01, 500.0] for i in range(positions - 5)]}}
    return {"type": "FeatureCollection", "features": [LOT, line]}


def test_features_cap_both_sides():
    assert MAX_FEATURES == 500
    assert len(parse_plan(crowded(MAX_FEATURES)).features) == MAX_FEATURES
    with pytest.raises(PlanError) as exc:
        parse_plan(crowded(MAX_FEATURES + 1))
    assert exc.value.problems == ["plan has 501 features; a plot plan may have at most 500"]


def test_a_4000_feature_plan_is_refused_before_any_geometry_is_read():
    with pytest.raises(PlanError, match="4,000 features"):
        parse_plan(crowded(4000))


def test_positions_cap_both_sides():
    assert len(parse_plan(long_line(MAX_POSITIONS)).features) == 2
    with pytest.raises(PlanError) as exc:
        parse_plan(long_line(MAX_POSITIONS + 1))
    assert "more than 20,000 coordinate pairs" in exc.value.problems[0]


def test_the_cap_is_a_parameter():
    with pytest.raises(PlanError, match="at most 10"):
        parse_plan(crowded(11), max_features=10)
    assert len(parse_plan(crowded(10), max_features=10).features) == 10


def test_crowded_plan_at_the_cap_draws_small_with_the_full_count():
    """500 crowded features give tens of thousands of violations: the drawing marks 100 and says how many."""
    plan = parse_plan(crowded(MAX_FEATURES))
    result = check_plan(plan, rules_for("dane"))
    assert len(result.violations) > 10_000
    svg = render_svg(plan, result)
    assert svg.count('class="violation"') == 100
    assert f"{len(result.violations)} setback violation(s), the first 100 marked" in svg
    assert len(svg) < 500_000
    stored = result.as_json(limit=200)
    assert stored["violation_count"] == len(result.violations) and len(stored["violations"]) == 200


def test_few_violations_are_all_marked():
    plan = parse_plan(crowded(6))
    result = check_plan(plan, rules_for("dane"))
    assert 0 < len(result.violations) <= 100
    svg = render_svg(plan, result)
    assert svg.count('class="violation"') == len(result.violations) and "marked" not in svg
