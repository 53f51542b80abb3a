"""kernel.profiles: one inheritance rule (a county file over the state minimum's, one level), every
profile of every county loads through every reader, and a bad file stops the application."""
import pytest
from django.core.exceptions import ImproperlyConfigured

from powts.jurisdictions.apps import JurisdictionsConfig
from powts.jurisdictions.data_check import _readers, problems
from powts.kernel import profiles
from powts.maintenance.profile import maintenance_profile
from powts.setbacks.rules import rules_for


@pytest.mark.parametrize("slug", profiles.available())
@pytest.mark.parametrize("concern", [name for name, _ in _readers()])
def test_each_profile_of_each_county_loads(slug, concern):
    read = dict(_readers())[concern]
    assert read(slug) is not None


def test_all_data_files_load_at_start_up():
    assert problems() == []


def test_a_county_without_a_file_for_a_concern_has_the_states(profile_dir):
    state = profiles.load_profile("state")
    county = profiles.load_profile("testcounty")
    assert county["permits"] == state["permits"] and county["name"] == "Test County"
    assert rules_for("testcounty") == rules_for("state")


def test_a_county_file_replaces_the_states_and_extends_combines_with_it(profile_dir):
    (profile_dir / "testcounty" / "setbacks.yaml").write_text(
        "rules:\n  - {id: own, subjects: [treatment_tank], objects: [well], min_ft: 99, citation: 'County s. 1'}\n")
    alone = rules_for("testcounty")
    assert set(alone) == {("treatment_tank", "well")}
    rules_for.cache_clear(), profiles.read_file.cache_clear()
    (profile_dir / "testcounty" / "setbacks.yaml").write_text(
        "extends: state\nrules+:\n  - {id: own, subjects: [treatment_tank], objects: [well], min_ft: 99, citation: 'County s. 1'}\n")
    combined = rules_for("testcounty")
    assert combined[("treatment_tank", "well")].id == "own" and len(combined) > 1


def test_maintenance_is_laid_over_the_state_key_by_key(profile_dir):
    (profile_dir / "testcounty" / "maintenance.yaml").write_text("extends: state\nnotices+:\n  lead_time_days: 45\n")
    county, state = maintenance_profile("testcounty"), maintenance_profile("state")
    assert county.lead_time_days == 45
    assert county.steps == state.steps and county.types == state.types


def test_a_county_may_extend_only_the_state_minimum(profile_dir):
    (profile_dir / "testcounty" / "calendar.yaml").write_text("# a comment\nextends: dane\nholidays: []\n")
    with pytest.raises(profiles.ProfileError, match=r"testcounty/calendar.yaml:2: extends: 'dane': a county file "
                                                    r"may extend only the state minimum"):
        profiles.load_profile("testcounty")


def test_bad_yaml_names_file_and_line(profile_dir):
    (profile_dir / "testcounty" / "permits.yaml").write_text("expiry:\n  years: 2\n  citation: [unclosed\n")
    with pytest.raises(profiles.ProfileError, match=r"testcounty/permits.yaml:\d+: not valid YAML"):
        profiles.load_profile("testcounty")


def test_the_application_refuses_to_start_on_a_bad_profile(profile_dir):
    """A bad file names county, file, line and problem; ready() raises instead of running on it."""
    (profile_dir / "testcounty" / "fees.yaml").write_text(
        "schedules:\n  - id: x\n    effective_from: 2026-01-01\n    effective_through: 2026-12-31\n"
        "    fees:\n      application: {label: A, amount: '1.00'}\n")
    import powts.jurisdictions as app_module
    config = JurisdictionsConfig("powts.jurisdictions", app_module)
    with pytest.raises(ImproperlyConfigured, match=r"profile testcounty fees: testcounty/fees.yaml:6: .*no authority"):
        config.ready()
    (profile_dir / "testcounty" / "fees.yaml").unlink()
    for fn in (profiles.read_file, profiles.load_profile):
        fn.cache_clear()
    from powts.permits import rules
    rules._schedules.cache_clear()
    config.ready()  # a good tree starts


def test_an_uncited_maintenance_rule_names_file_and_line(profile_dir):
    """Maintenance intervals: a parameter without a citation does not load, and the line is named."""
    (profile_dir / "testcounty" / "maintenance.yaml").write_text(
        "extends: state\ntypes:\n  septic_tank:\n    rule: septic_tank\n    interval_months: 36\n")
    with pytest.raises(profiles.ProfileError, match=r"profiles/testcounty/maintenance.yaml:4 types.septic_tank: no citation"):
        maintenance_profile("testcounty")


def test_an_uncited_setback_names_file_and_line(profile_dir):
    (profile_dir / "testcounty" / "setbacks.yaml").write_text(
        "rules:\n  - {id: own, subjects: [treatment_tank], objects: [well], min_ft: 99}\n")
    from powts.setbacks import SetbackRulesError
    with pytest.raises(SetbackRulesError, match=r"profiles/testcounty/setbacks.yaml:2 rule #1 \('own'\): has no citation"):
        rules_for("testcounty")


def test_an_uncited_permit_rule_names_file_and_line(profile_dir):
    from powts.permits import rules
    text = (profile_dir / "state" / "permits.yaml").read_text()
    (profile_dir / "testcounty" / "permits.yaml").write_text(text + "\nrevocation:\n  notice_days: 10\n")
    line = text.count("\n") + 3
    with pytest.raises(rules.RuleError, match=rf"testcounty/permits.yaml revocation \(line {line}\): rule has no citation"):
        rules.permit_rules("testcounty")


# -- the one rule of layers (kernel.profiles.combine), both ways --------------------------------------

STATE = {"a": 1, "box": {"x": 1, "y": 2, "citation": "State s. 1"}, "items": [{"id": "p", "v": 1}, {"id": "q", "v": 2}]}


def test_keys_a_county_does_not_name_are_the_states_and_a_named_key_replaces_whole():
    out = profiles.combine(STATE, {"extends": "state", "box": {"x": 9, "citation": "County s. 2"}})
    assert out["a"] == 1 and out["items"] == STATE["items"]
    assert out["box"] == {"x": 9, "citation": "County s. 2"}  # no y, no state citation: replaced whole
    assert "extends" not in out


def test_a_plus_mapping_combines_with_the_states_one_level_down_by_the_same_rule():
    out = profiles.combine(STATE, {"box+": {"x": 9}})
    assert out["box"] == {"x": 9, "y": 2, "citation": "State s. 1"}
    deeper = profiles.combine({"n": {"m": {"k": 1, "j": 2}}}, {"n+": {"m+": {"k": 5}}})
    assert deeper == {"n": {"m": {"k": 5, "j": 2}}}
    assert profiles.combine({"n": {"m": {"k": 1, "j": 2}}}, {"n+": {"m": {"k": 5}}}) == {"n": {"m": {"k": 5}}}
    assert profiles.combine({}, {"new+": {"k": 1}}) == {"new": {"k": 1}}  # nothing of the state's to combine with


def test_a_plus_list_replaces_items_by_id_or_name_and_adds_the_rest():
    out = profiles.combine(STATE, {"items+": [{"id": "q", "v": 20}, {"id": "r", "v": 3}]})
    assert out["items"] == [{"id": "p", "v": 1}, {"id": "q", "v": 20}, {"id": "r", "v": 3}]
    named = profiles.combine({"h": [{"name": "A"}, {"name": "B"}]}, {"h+": [{"name": "B", "day": 2}]})
    assert named["h"] == [{"name": "A"}, {"name": "B", "day": 2}]
    assert profiles.combine(STATE, {"items": [{"id": "r"}]})["items"] == [{"id": "r"}]  # no '+': replaced


def test_a_minus_list_takes_items_out_and_refuses_one_the_state_lacks():
    assert profiles.combine(STATE, {"items-": ["p"]})["items"] == [{"id": "q", "v": 2}]
    with pytest.raises(profiles.ProfileError, match=r"items-: names \['zz'\] that the state's 'items' does not have"):
        profiles.combine(STATE, {"items-": ["zz"]}, "testcounty/x.yaml ")


def test_plus_on_a_value_that_is_neither_list_nor_mapping_is_refused():
    with pytest.raises(profiles.ProfileError, match=r"testcounty/x.yaml: a\+: '\+' combines a list"):
        profiles.combine(STATE, {"a+": 2}, "testcounty/x.yaml ")


def test_a_named_maintenance_key_replaces_the_states_and_plus_combines_it(profile_dir):
    """maintenance.yaml: `notices:` replaces the state's notices whole (so the county must restate their
    citations), `notices+:` keeps the state's and changes one value."""
    (profile_dir / "testcounty" / "maintenance.yaml").write_text("extends: state\nnotices:\n  lead_time_days: 45\n")
    with pytest.raises(profiles.ProfileError, match="notices: no lead_time_citation"):
        maintenance_profile("testcounty")
    maintenance_profile.cache_clear(), profiles.read_file.cache_clear()
    (profile_dir / "testcounty" / "maintenance.yaml").write_text("extends: state\nnotices+:\n  lead_time_days: 45\n")
    county, state = maintenance_profile("testcounty"), maintenance_profile("state")
    assert county.lead_time_days == 45 and county.steps == state.steps


def test_a_county_file_without_extends_stands_alone(profile_dir):
    (profile_dir / "testcounty" / "maintenance.yaml").write_text("notices+:\n  lead_time_days: 45\n")
    with pytest.raises(profiles.ProfileError, match="program: no citation"):
        maintenance_profile("testcounty")
