"""Lincoln County Ch. 22 (draft), Privies and Portable Restrooms (2): "Privies and portable restrooms
shall be located a minimum horizontal distance of 10 feet from dwellings, 10 feet from all lot lines,
50 feet from water supply wells, 75 feet from a stream, lake, river or other water course, and 25 feet
from the edge of a slope of 15 percent or greater where practical."
"""
import pytest

from powts.setbacks import check_plan, parse_plan, rules_for

from .plans import pair_plan

CITE = "Lincoln County Ch. 22 (draft), Privies and Portable Restrooms (2)"
LINCOLN_PRIVIES_2 = [("dwelling", 10), ("lot_line", 10), ("well", 50), ("high_water_mark", 75),
                     ("slope_edge_15pct", 25)]


def check(subject, obj, gap, slug="lincoln"):
    return check_plan(parse_plan(pair_plan(subject, obj, gap)), rules_for(slug))


@pytest.mark.parametrize("subject", ["privy", "portable_restroom"])
@pytest.mark.parametrize("obj, required", LINCOLN_PRIVIES_2)
def test_privies_and_portable_restrooms_both_sides(subject, obj, required):
    (v,) = check(subject, obj, required - 0.01).violations
    assert (v.required_ft, v.citation) == (required, CITE)
    assert check(subject, obj, required).complies


def test_slope_setback_is_flagged_where_practical():
    (v,) = check("privy", "slope_edge_15pct", 10).violations
    assert v.where_practical and "(where practical)" in v.describe()


def test_dwellings_only_not_every_building():
    # (2) says "dwellings"; a shed or garage is a building, not a dwelling
    assert check("privy", "building", 1).complies


def test_lincoln_soil_absorption_setbacks_come_from_the_state_code():
    (v,) = check("dispersal_area", "lot_line", 4.99).violations
    rule = next(r for r in rules_for("lincoln").values() if r.id == v.rule_id)
    assert "SPS 383.43" in v.citation and rule.outside_texts and "outside the texts" not in v.citation
