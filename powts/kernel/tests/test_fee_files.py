"""Fee files go through the kernel like every other cited, dated file: refused naming file and line
for a missing citation, overlapping or gapped dates, an unknown unit or an amount that is not in
cents (one loader, fees included)."""
import datetime as dt

import pytest

from powts.kernel import profiles
from powts.permits import rules

HEAD = "schedules:\n"


def schedule(sid, start, end, extra="", fee='{label: "Application", amount: "100.00", authority: "Code s. 1"}'):
    return (f"  - id: {sid}\n    effective_from: {start}\n    effective_through: {end}\n"
            f"    amount_citation: \"Code s. 2\"\n{extra}    fees:\n      application: {fee}\n")


def write(profile_dir, text):
    (profile_dir / "testcounty" / "fees.yaml").write_text(HEAD + text)


def test_a_good_fee_file_loads(profile_dir):
    write(profile_dir, schedule("a", "2026-01-01", "2026-12-31") + schedule("b", "2027-01-01", "2027-12-31"))
    assert rules.fee_for("testcounty", "application", dt.date(2027, 1, 1)).schedule_id == "b"


def test_missing_authority_citation_names_file_and_line(profile_dir):
    write(profile_dir, schedule("a", "2026-01-01", "2026-12-31", fee='{label: "Application", amount: "100.00"}'))
    with pytest.raises(rules.FeeFileError, match=r"testcounty/fees.yaml:7: .*fee 'application' has no authority"):
        rules.fee_for("testcounty", "application", dt.date(2026, 6, 1))


def test_overlapping_schedules_name_file_and_line(profile_dir):
    write(profile_dir, schedule("a", "2026-01-01", "2026-12-31") + schedule("b", "2026-12-31", "2027-12-31"))
    with pytest.raises(rules.FeeFileError, match=r"testcounty/fees.yaml:8: schedules a and b overlap"):
        rules.fee_for("testcounty", "application", dt.date(2026, 6, 1))


def test_a_gap_between_schedules_is_refused_and_adjacent_schedules_are_not(profile_dir):
    write(profile_dir, schedule("a", "2026-01-01", "2026-12-31") + schedule("b", "2027-01-02", "2027-12-31"))
    with pytest.raises(rules.FeeFileError, match=r"testcounty/fees.yaml:8: gap between schedules a and b"):
        rules.fee_for("testcounty", "application", dt.date(2026, 6, 1))


def test_unknown_unit_on_a_schedule_or_a_fee_names_file_and_line(profile_dir):
    write(profile_dir, schedule("a", "2026-01-01", "2026-12-31", extra="    unit: EUR\n"))
    with pytest.raises(rules.FeeFileError, match=r"testcounty/fees.yaml:2: schedule a: unknown unit 'EUR'"):
        rules.fee_for("testcounty", "application", dt.date(2026, 6, 1))
    for fn in (rules._schedules, profiles.read_file, profiles.load_profile):
        fn.cache_clear()
    write(profile_dir, schedule("a", "2026-01-01", "2026-12-31",
                                fee='{label: "A", amount: "1.00", authority: "s. 1", unit: rate}'))
    with pytest.raises(rules.FeeFileError, match=r"fees.yaml:7: .*fee 'application': unknown unit 'rate'"):
        rules.fee_for("testcounty", "application", dt.date(2026, 6, 1))


def test_an_amount_written_as_a_float_is_refused(profile_dir):
    write(profile_dir, schedule("a", "2026-01-01", "2026-12-31",
                                fee='{label: "A", amount: 100.5, authority: "s. 1"}'))
    with pytest.raises(rules.FeeFileError, match=r"fees.yaml:7: .*amount 100.5 is not an amount in dollars and cents"):
        rules.fee_for("testcounty", "application", dt.date(2026, 6, 1))
