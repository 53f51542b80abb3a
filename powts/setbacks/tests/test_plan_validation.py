"""Bad plans get a clear message naming the feature (index and name) and the problem; every
problem is listed at once."""
import json

import pytest

from powts.setbacks import PlanError, parse_plan

from .plans import feature, square


def problems(data):
    with pytest.raises(PlanError) as exc:
        parse_plan(data)
    return exc.value.problems


def fc(*features):
    return {"type": "FeatureCollection", "features": list(features)}


@pytest.mark.parametrize("data, message", [
    ({"type": "Feature"}, "not a GeoJSON FeatureCollection (its type is 'Feature')"),
    ([1, 2], "not a GeoJSON FeatureCollection (its type is 'list')"),
    ({"type": "FeatureCollection"}, "no 'features' list"),
])
def test_not_a_feature_collection(data, message):
    assert problems(data) == [f"plan is {message}" if message.startswith("not") else f"plan has {message}"]


def test_unknown_kind_names_index_and_name():
    (p,) = problems(fc(feature("wel", {"type": "Point", "coordinates": [0, 0]}, name="W1")))
    assert p.startswith('feature #0 "W1": unknown kind \'wel\'; expected one of lot_line')


def test_missing_kind():
    (p,) = problems(fc({"type": "Feature", "properties": {}, "geometry": None}))
    assert p == "feature #0: has no properties.kind"


def test_self_intersecting_polygon():
    bowtie = {"type": "Polygon", "coordinates": [[[0, 0], [10, 10], [10, 0], [0, 10], [0, 0]]]}
    (p,) = problems(fc(feature("dispersal_area", bowtie, name="Mound")))
    assert p.startswith('feature #0 "Mound" (dispersal_area): invalid geometry: Self-intersection')


def test_lot_line_must_be_a_line_or_polygon():
    (p,) = problems(fc(feature("lot_line", {"type": "Point", "coordinates": [0, 0]})))
    assert "must be a LineString or a Polygon" in p and p.startswith("feature #0 (lot_line)")


def test_non_finite_and_malformed_coordinates():
    nan_plan = json.loads('{"type": "FeatureCollection", "features": [{"type": "Feature", '
                          '"properties": {"kind": "well"}, "geometry": {"type": "Point", "coordinates": [NaN, 1]}}]}')
    assert problems(nan_plan) == ["feature #0 (well): coordinates must be finite numbers (feet)"]
    (p,) = problems(fc(feature("well", {"type": "Point", "coordinates": ["a", 1]})))
    assert "finite numbers" in p
    (p,) = problems(fc(feature("well", {"type": "Point", "coordinates": []})))
    assert "(well)" in p


def test_every_problem_is_reported_at_once():
    got = problems(fc(
        feature("dispersal_area", square(0), name="ok"),
        feature("pol", square(0)),
        {"type": "Feature", "properties": {"kind": "well", "name": "W2"}},
        "not a feature",
    ))
    assert [p.split(":")[0] for p in got] == ["feature #1", 'feature #2 "W2" (well)', "feature #3"]


def test_a_valid_plan_keeps_indexes_and_names():
    plan = parse_plan(fc(feature("lot_line", {"type": "LineString", "coordinates": [[0, 0], [0, 9]]}),
                         feature("well", {"type": "Point", "coordinates": [3, 3]}, name="Well")))
    assert [f.label for f in plan.features] == ["#0 lot_line", '#1 well "Well"']
