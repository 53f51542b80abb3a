"""The setback data: every rule cited, counties as data, the stricter distance governing."""
import pytest

from powts.jurisdictions.profiles import load_profile
from powts.setbacks import SetbackRulesError, combine, parse_rules, rules_for


@pytest.mark.parametrize("slug", ["dane", "lincoln", "state"])
def test_every_rule_is_cited_and_outside_facts_say_so(slug):
    raw = load_profile(slug)["setbacks"]["rules"]
    for rule, entry in zip(parse_rules(raw, slug), raw):
        assert rule.citation and rule.quote
        if rule.outside_texts:  # said in the note (for maintainers), not in the citation people see
            assert "outside the texts" in entry["note"] and "outside the texts" not in rule.citation


def test_dane_governing_rules_cite_46_10_6():
    rules = rules_for("dane")
    for obj in ("lot_line", "pool", "cistern", "high_water_mark", "water_main", "water_service"):
        assert rules[("dispersal_area", obj)].citation == "Dane County Code s. 46.10(6)"


def test_stricter_distance_governs_and_county_wins_ties():
    county = parse_rules([{"id": "c", "subjects": ["privy"], "objects": ["well", "lot_line"], "min_ft": 10,
                           "citation": "county"}], "county")
    state = parse_rules([{"id": "s", "subjects": ["privy"], "objects": ["well", "lot_line"], "min_ft": 10,
                          "citation": "state"},
                         {"id": "s2", "subjects": ["privy"], "objects": ["well"], "min_ft": 50,
                          "citation": "state"}], "state")
    got = combine(county, state)
    assert got[("privy", "well")].id == "s2"
    assert got[("privy", "lot_line")].id == "c"


@pytest.mark.parametrize("entry, message", [
    ({"subjects": ["privy"], "objects": ["well"], "min_ft": 5}, "no citation"),
    ({"subjects": ["privvy"], "objects": ["well"], "min_ft": 5, "citation": "c"}, "unknown subjects"),
    ({"subjects": ["privy"], "objects": ["well"], "min_ft": -1, "citation": "c"}, "min_ft"),
])
def test_bad_rule_data_does_not_load(entry, message):
    with pytest.raises(SetbackRulesError, match=message):
        parse_rules([entry], "test")


def test_unknown_jurisdiction():
    with pytest.raises(SetbackRulesError, match="unknown jurisdiction"):
        rules_for("nowhere")
