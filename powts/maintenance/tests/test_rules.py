"""Due-date rules straight from the texts (no database)."""
import datetime as dt
from decimal import Decimal

import pytest

from powts.jurisdictions.profiles import ProfileError
from powts.kernel.profiles import combine as _merge
from powts.kernel.profiles import own_concern as _own
from powts.maintenance import rules
from powts.maintenance.profile import build, maintenance_profile

D = dt.date
DANE = maintenance_profile("dane")
LINCOLN = maintenance_profile("lincoln")


def _read(slug):
    return _own(slug, "maintenance") or {}


def compute(profile=DANE, **kw):
    kw.setdefault("last_serviced_on", None)
    return rules.compute(profile, **kw)


def test_145_20_5_b_three_years_from_installation():
    s = compute(system_type="mound", installed_on=D(2021, 5, 10))
    assert (s.due_on, s.basis_kind) == (D(2024, 5, 10), "installed")


def test_lincoln_septic_tank_program_1_every_3_years_after_last_pumping():
    s = compute(LINCOLN, system_type="conventional", installed_on=D(2010, 1, 1),
                events=[rules.Event(D(2022, 3, 1), rules.PUMPING), rules.Event(D(2019, 3, 1), rules.PUMPING)])
    assert s.due_on == D(2025, 3, 1)


def test_inventory_last_serviced_counts_as_last_event():
    s = compute(system_type="conventional", installed_on=D(2010, 1, 1), last_serviced_on=D(2023, 7, 4))
    assert s.due_on == D(2026, 7, 4)


def test_lincoln_septic_tank_program_1_inspection_below_one_third_restarts_cycle():
    s = compute(LINCOLN, system_type="conventional", installed_on=D(2020, 1, 1),
                events=[rules.Event(D(2023, 1, 5), rules.INSPECTION, Decimal("0.3332"))])
    assert s.due_on == D(2026, 1, 5) and not s.pumping_required


def test_lincoln_septic_tank_program_1_exactly_one_third_must_be_pumped():
    frac = rules.parse_fraction("1/3")
    assert frac == Decimal("0.3333")
    s = compute(LINCOLN, system_type="conventional", installed_on=D(2021, 1, 1),
                events=[rules.Event(D(2023, 1, 5), rules.INSPECTION, frac)])
    # the inspection does not restart the cycle; pumping is due pump_within_days after it
    assert s.pumping_required and s.due_on == D(2023, 1, 5) + dt.timedelta(days=LINCOLN.pump_within_days)
    assert s.basis_kind == "installed"


def test_pumping_after_a_high_inspection_clears_it():
    s = compute(system_type="conventional", installed_on=D(2020, 1, 1),
                events=[rules.Event(D(2023, 1, 5), rules.INSPECTION, Decimal("0.5")), rules.Event(D(2023, 1, 20), rules.PUMPING)])
    assert not s.pumping_required and s.due_on == D(2026, 1, 20)


def test_dane_46_06_5_b_holding_tank_semiannual():
    s = compute(system_type="holding_tank", installed_on=D(2020, 1, 1), events=[rules.Event(D(2026, 2, 10), rules.PUMPING)])
    assert s.due_on == D(2026, 8, 10)
    # an inspection alone does not service a holding tank
    s = compute(system_type="holding_tank", installed_on=D(2026, 1, 1), events=[rules.Event(D(2026, 3, 1), rules.INSPECTION)])
    assert s.due_on == D(2026, 7, 1)


def test_dane_46_11_5_atu_on_its_component_interval():
    s = compute(system_type="aerobic_treatment_unit", installed_on=D(2025, 4, 1), events=[rules.Event(D(2025, 10, 1), rules.SERVICING)])
    assert s.due_on == D(2026, 10, 1)


def test_no_date_at_all_needs_data_not_skipped():
    s = compute(system_type="conventional", installed_on=None)
    assert s.needs_data and s.due_on is None
    assert rules.due_kind(due_on=None, notice_on=None, needs_data=True, as_of=D(2026, 1, 1)) == "needs_data"


def test_pit_privy_not_on_a_cycle():
    assert compute(system_type="pit_privy", installed_on=D(2000, 1, 1)).exempt


def test_lincoln_privies_and_portable_restrooms_5_annual():
    assert compute(LINCOLN, system_type="portable_restroom", installed_on=D(2025, 6, 1)).due_on == D(2026, 6, 1)


def test_add_months_end_of_month():
    assert rules.add_months(D(2020, 2, 29), 36) == D(2023, 2, 28)
    assert rules.add_months(D(2025, 8, 31), 6) == D(2026, 2, 28)


@pytest.mark.parametrize("as_of,kind", [
    (D(2026, 5, 31), None),            # due_on minus 31 days: not yet (Dane s. 46.11(5) lead time 30 days)
    (D(2026, 6, 1), "first_notice"),   # due_on minus exactly 30 days
    (D(2026, 6, 30), "first_notice"),  # the day before the due date
    (D(2026, 7, 1), "overdue"),        # the due date itself
])
def test_dane_46_11_5_lead_time_both_sides(as_of, kind):
    s = compute(system_type="conventional", installed_on=D(2023, 7, 1))
    assert s.due_on == D(2026, 7, 1) and s.notice_on == D(2026, 6, 1)
    assert rules.due_kind(due_on=s.due_on, notice_on=s.notice_on, needs_data=False, as_of=as_of) == kind


def _custom(**over):
    raw = _merge(_read("state"), _read("dane"))
    return build("test", _merge(raw, over))


def test_winter_pause_moves_first_notice_before_the_pause():
    mailing = _merge(_read("state"), _read("dane"))["notices"]["mailing"]  # cited: restated whole
    p = _custom(**{"notices+": {"mailing": {**mailing, "winter_pause": {"from": "12-15", "to": "03-01"}}}})
    assert p.paused(D(2026, 12, 15)) and p.paused(D(2027, 3, 1)) and not p.paused(D(2027, 3, 2)) and not p.paused(D(2026, 12, 14))
    s = rules.compute(p, system_type="conventional", installed_on=D(2024, 1, 20), last_serviced_on=None)
    assert s.due_on == D(2027, 1, 20) and s.notice_on == D(2026, 12, 14)


def test_mailing_spread_only_ever_earlier():
    p = _custom(**{"notices+": {"mailing+": {"spread_days": 14}}})
    offsets = {rules.compute(p, system_type="conventional", installed_on=D(2024, 1, 20), last_serviced_on=None, key=k).notice_on
               for k in range(200)}
    assert min(offsets) == D(2026, 12, 21) - dt.timedelta(days=14) and max(offsets) == D(2026, 12, 21)


def test_phase_in_by_year_thirds():
    p = _custom(**{"program+": {"phase_in": {"method": "by_year", "years": 3, "first_due_on": "2020-06-01"}}})
    due = {k: rules.compute(p, system_type="conventional", installed_on=D(1990, 1, 1), last_serviced_on=None, key=k).due_on for k in range(3)}
    assert due == {0: D(2020, 6, 1), 1: D(2021, 6, 1), 2: D(2022, 6, 1)}


def test_lincoln_program_year_missing_is_marked():
    assert LINCOLN.applies_installed_on_or_after is None
    assert LINCOLN.raw["program"]["applies_missing_in_text"] is True


def test_parameter_without_citation_does_not_load():
    raw = _merge(_read("state"), {})
    del raw["types"]["mound"]["citation"]
    with pytest.raises(ProfileError, match="types.mound: no citation"):
        build("x", raw)


def test_sps_383_55_and_383_54_4_parameters():
    assert DANE.late_after_days == 30
    assert "soil_tester" not in DANE.license_kinds and "septage_operator" in DANE.license_kinds and len(DANE.license_kinds) == 7
