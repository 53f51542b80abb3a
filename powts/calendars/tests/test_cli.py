"""`powts workdays ...`: output and exit codes (0 done, 1 outside the notice rules, 2 bad input)."""
import pytest

from powts.calendars.cli import main
from powts.cli import main as powts_main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.strip(), err.strip()


def test_add_prints_iso_date(capsys):
    assert run(capsys, "add", "--jurisdiction", "dane", "--from", "2026-11-25", "--days", "1") == (0, "2026-11-27", "")


def test_dispatched_from_the_powts_command(capsys):
    assert powts_main(["workdays", "add", "--jurisdiction", "lincoln", "--from", "2026-11-25", "--days", "2"]) == 0
    assert capsys.readouterr().out.strip() == "2026-11-30"


@pytest.mark.parametrize("notice, expected", [("2026-11-24T08:59", "2026-11-25"), ("2026-11-24T09:01", "2026-11-27")])
def test_deadline_inspection_dane(capsys, notice, expected):
    code, out, _ = run(capsys, "deadline", "--jurisdiction", "dane", "--notice", notice, "--rule", "inspection")
    assert (code, out) == (0, expected)


def test_deadline_backfill_and_explain(capsys):
    code, out, _ = run(capsys, "deadline", "--jurisdiction", "dane", "--notice", "2026-11-25T08:00",
                       "--rule", "backfill", "--explain")
    assert code == 0 and out.splitlines()[0] == "2026-11-27" and "SPS 383.26" in out


def test_request_outside_the_rules_exits_1_with_earliest_day(capsys):
    code, out, err = run(capsys, "deadline", "--jurisdiction", "dane", "--notice", "2026-11-24T09:01",
                         "--requested", "2026-11-24")
    assert code == 1 and out == ""
    assert "earliest allowed day is Wednesday 2026-11-25" in err and "46.11(1)" in err


def test_late_lincoln_notice_prints_the_fee_note(capsys):
    code, out, err = run(capsys, "deadline", "--jurisdiction", "lincoln", "--notice", "2026-11-23T10:00",
                         "--requested", "2026-11-23")
    assert (code, out) == (0, "2026-11-24") and "additional fee" in err


def test_check_command(capsys):
    code, out, _ = run(capsys, "check", "--jurisdiction", "lincoln", "--notice", "2026-11-28T09:00",
                       "--system", "mound", "--requested", "2026-11-30")
    assert code == 1 and out.startswith("not allowed") and "Tuesday 2026-12-01" in out


@pytest.mark.parametrize("argv, message", [
    (["add", "--jurisdiction", "dane", "--from", "2026-13-01", "--days", "1"], "'2026-13-01' is not a date"),
    (["add", "--jurisdiction", "nowhere", "--from", "2026-01-01", "--days", "1"], "unknown jurisdiction 'nowhere'"),
    (["add", "--jurisdiction", "dane", "--from", "2026-01-01", "--days", "x"], "invalid int value"),
    (["deadline", "--jurisdiction", "dane", "--notice", "soon"], "'soon' is not a date and time"),
    (["deadline", "--jurisdiction", "dane", "--notice", "2026-11-24T08:00", "--rule", "nap"], "unknown rule 'nap'"),
    (["deadline", "--jurisdiction", "nowhere", "--notice", "2026-11-24T08:00"], "unknown jurisdiction"),
    (["frobnicate"], "invalid choice"),
    ([], "required"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err
