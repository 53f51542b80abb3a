"""Who may inspect in Lincoln. The draft's PLUMBER is "a Master Plumber or Master Plumber-Restricted Service", and its
Septic Tank Maintenance Program (3) lets "a plumber" inspect; Wis. Stat. s. 145.20(5)(b) lets "a master plumber,
journeyman plumber or restricted plumber" conduct the program's inspections. The statute governs: journeymen are
admitted, and the citation names s. 145.20(5)(b), the text that admits them."""
from powts.kernel.profiles import load_profile
from powts.maintenance.profile import maintenance_profile


def test_145_20_5_b_journeymen_may_inspect_in_lincoln_and_the_statute_is_cited():
    profile = maintenance_profile("lincoln")
    assert {"journeyman_plumber", "journeyman_plumber_restricted"} <= profile.license_kinds
    assert {"master_plumber", "master_plumber_restricted"} <= profile.license_kinds
    assert profile.citations["licenses"].startswith("Wis. Stat. s. 145.20(5)(b)")
    reports = load_profile("lincoln")["maintenance"]["reports"]
    assert "journeyman plumber" in reports["license_quote"]


def test_lincolns_plumber_definition_is_masters_only_and_does_not_decide_who_inspects():
    """The definition is quoted (and checked against the draft by tests/test_quoted_passages.py); it names no
    journeyman, which is why the admission of journeymen cites the statute."""
    reports = load_profile("lincoln")["maintenance"]["reports"]
    assert "Master Plumber or Master Plumber-Restricted Service" in reports["plumber_definition_quote"]
    assert "journeyman" not in reports["plumber_definition_quote"].lower()
    assert "Lincoln" in reports["plumber_definition_citation"]
