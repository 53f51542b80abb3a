"""Dane County Code s. 46.10(6): "The soil absorption area shall be located not less than 5 feet from
any lot line; 10 feet from a water service swimming pool or any building or dwelling, or any water
main or cistern; 50 feet from the high water mark of any lake, reservoir, stream or other water
course. Setbacks from wells are specified in Ch. NR 812" (NR 812 distance outside the texts).

Both sides of every threshold: 0.01 ft short violates, exactly the distance complies.
"""
import pytest

from powts.setbacks import check_plan, parse_plan, rules_for

from .plans import pair_plan

DANE_46_10_6 = [
    ("lot_line", 5), ("water_service", 10), ("pool", 10), ("building", 10), ("dwelling", 10),
    ("water_main", 10), ("cistern", 10), ("high_water_mark", 50),
]


def check(subject, obj, gap, slug="dane"):
    return check_plan(parse_plan(pair_plan(subject, obj, gap)), rules_for(slug))


# s. 46.10(4)(b)1.: the replacement area meets the "site requirements contained in this chapter"
@pytest.mark.parametrize("subject", ["dispersal_area", "replacement_area"])
@pytest.mark.parametrize("obj, required", DANE_46_10_6)
def test_46_10_6_both_sides_of_each_setback(subject, obj, required):
    short = check(subject, obj, required - 0.01)
    assert not short.complies
    (v,) = short.violations
    assert v.required_ft == required
    assert v.measured_ft == pytest.approx(required - 0.01)
    assert v.citation == "Dane County Code s. 46.10(6)"
    assert v.feature == f'#1 {subject} "the {subject}"' and v.other == f'#0 {obj} "the {obj}"'
    assert check(subject, obj, required).complies


def test_4_99_vs_5_00_feet_from_a_lot_line():
    assert not check("dispersal_area", "lot_line", 4.99).complies
    assert check("dispersal_area", "lot_line", 5.00).complies


def test_lot_polygon_is_measured_to_its_boundary():
    plan = {"type": "FeatureCollection", "features": [
        {"type": "Feature", "properties": {"kind": "lot_line"},
         "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [100, 0], [100, 100], [0, 100], [0, 0]]]}},
        {"type": "Feature", "properties": {"kind": "dispersal_area"},
         "geometry": {"type": "Polygon", "coordinates": [[[4, 40], [30, 40], [30, 60], [4, 60], [4, 40]]]}},
    ]}
    (v,) = check_plan(parse_plan(plan), rules_for("dane")).violations
    assert (v.measured_ft, v.required_ft, v.other) == (4.0, 5.0, "#0 lot_line")


@pytest.mark.parametrize("subject", ["dispersal_area", "replacement_area"])
def test_well_setback_from_nr_812_is_marked_outside_the_texts(subject):
    (v,) = check(subject, "well", 49.99).violations
    rule = next(r for r in rules_for("dane").values() if r.id == v.rule_id)
    assert v.required_ft == 50 and "NR 812" in v.citation and rule.outside_texts
    assert "outside the texts" not in v.citation  # an internal note, kept in the profile's note
    assert check(subject, "well", 50).complies


def test_46_10_6_does_not_govern_privies():
    # Dane's ch. 46 sets no privy distances; only the state's well distance reaches them
    assert check("privy", "lot_line", 1).complies
    assert check("privy", "dwelling", 1).complies
    assert not check("privy", "well", 49.99).complies


def test_overlap_is_distance_zero():
    (v,) = check("replacement_area", "building", -5).violations   # building on the replacement area
    assert v.measured_ft == 0


def test_measured_distance_is_rounded_down_so_a_violation_never_reads_as_compliant():
    (v,) = check("dispersal_area", "lot_line", 4.999).violations
    assert v.measured_ft == 4.99


def test_sample_plan_complies():
    from pathlib import Path
    import json
    data = json.loads((Path(__file__).parent / "sample_plan.geojson").read_text())
    result = check_plan(parse_plan(data), rules_for("dane"))
    assert result.complies and result.pairs_checked > 0
