"""Which inspections each system type needs, from the profile, each with its citation.

Dane s. 46.11(1): one inspection "after construction but before backfilling" for every system.
Lincoln Ch. 22 (draft): Mound and At-Grade Systems (2) (plowed; distribution piping before
backfilling; final "as deemed necessary"), Sand Filters (2) (liner and underdrain; piping; after all
work), site-constructed holding tanks (1), (3) (before walls are poured; after completion).
"""
import pytest

from powts.calendars import CalendarError, required_stages


def ids(slug, system):
    return [s.id for s in required_stages(slug, system)]


def test_dane_one_inspection_before_backfilling_for_every_system():
    for system in ("standard", "mound", "sand_filter", "nonplumbing"):
        (stage,) = required_stages("dane", system)
        assert stage.id == "before_backfill" and stage.citation == "Dane County Code s. 46.11(1)"


def test_lincoln_mound_and_at_grade():
    assert ids("lincoln", "mound") == ids("lincoln", "at_grade") == ["plowed", "distribution_piping", "final"]
    assert required_stages("lincoln", "mound")[-1].optional


def test_lincoln_sand_filter_three_inspections():
    stages = required_stages("lincoln", "sand_filter")
    assert [s.id for s in stages] == ["liner_underdrain", "distribution_piping", "final"]
    assert not any(s.optional for s in stages)
    assert all(s.citation == "Lincoln County Ch. 22 (draft), Inspections; Sand Filters (2)" for s in stages)


def test_lincoln_site_built_holding_tank_before_walls_then_final():
    assert ids("lincoln", "site_built_holding_tank") == ["before_walls", "final"]


def test_unknown_system_type():
    with pytest.raises(CalendarError, match="unknown system type"):
        required_stages("lincoln", "cesspool")
