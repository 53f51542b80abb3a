"""Parameter files: citations required, dates contiguous, units known, errors name file and line;
versions chosen by date with no gap or overlap (a Catala-style temporal-coverage sweep)."""
from __future__ import annotations

import datetime as dt
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from powts.law.engine import (PARAMETER_DIR, NoProgramInForce, NotCovered, ParameterError, ParameterSet,
                              default_parameters)

GOOD = """\
program: well-compensation
version: "281.75"
parameters:
  award_rate:
    unit: rate
    values:
      - value: "0.75"
        effective_from: 1985-01-01
        citation:
          section: "Wis. Stat. s. 281.75(7)(a)"
          quote: "The award may not pay more than 75% of the eligible costs."
          source: text
"""


def _dir_with(tmp_path: Path, text: str) -> Path:
    shutil.copy(PARAMETER_DIR / "programs.yaml", tmp_path / "programs.yaml")
    (tmp_path / "wells.yaml").write_text(text)
    return tmp_path


def test_shipped_parameters_load():
    params = ParameterSet(PARAMETER_DIR)
    assert params.snapshot("wisconsin-fund-grant", dt.date(2024, 1, 1)).version == "145.246"


def test_good_file_loads(tmp_path):
    ParameterSet(_dir_with(tmp_path, GOOD))


def test_missing_citation_names_file_and_line(tmp_path):
    text = GOOD.split("        citation:")[0]
    with pytest.raises(ParameterError) as e:
        ParameterSet(_dir_with(tmp_path, text))
    assert "wells.yaml:7" in str(e.value) and "no citation" in str(e.value)


def test_citation_without_quote(tmp_path):
    with pytest.raises(ParameterError, match=r"wells.yaml:10: .*citation has no quote"):
        ParameterSet(_dir_with(tmp_path, GOOD.replace('          quote: "The award may not pay more than 75% of the eligible costs."\n', "")))


def test_unknown_unit(tmp_path):
    with pytest.raises(ParameterError, match=r"wells.yaml:5: parameter 'award_rate': unknown unit 'percent'"):
        ParameterSet(_dir_with(tmp_path, GOOD.replace("unit: rate", "unit: percent")))


def test_overlapping_dates(tmp_path):
    extra = GOOD + """\
      - value: "0.80"
        effective_from: 1990-01-01
        citation: {section: "x", quote: "y", source: text}
"""
    with pytest.raises(ParameterError, match=r"wells.yaml:13: .*dates overlap"):
        ParameterSet(_dir_with(tmp_path, extra))


def test_gap_between_dates(tmp_path):
    text = GOOD.replace("effective_from: 1985-01-01", "effective_from: 1985-01-01\n        effective_to: 1989-12-31") + """\
      - value: "0.80"
        effective_from: 1990-01-02
        citation: {section: "x", quote: "y", source: text}
"""
    with pytest.raises(ParameterError, match=r"wells.yaml:14: .*gap between 1989-12-31 and 1990-01-02"):
        ParameterSet(_dir_with(tmp_path, text))


def test_value_must_cover_its_version(tmp_path):
    text = GOOD.replace("effective_from: 1985-01-01", "effective_from: 1986-01-01")
    with pytest.raises(ParameterError, match="does not cover well-compensation 281.75"):
        ParameterSet(_dir_with(tmp_path, text))


def test_chosen_value_needs_a_note(tmp_path):
    with pytest.raises(ParameterError, match="a chosen value needs a note"):
        ParameterSet(_dir_with(tmp_path, GOOD.replace("source: text", "source: chosen")))


def test_money_as_float_is_refused(tmp_path):
    text = GOOD.replace('unit: rate', 'unit: USD').replace('value: "0.75"', 'value: 0.755')
    with pytest.raises(ParameterError, match="float"):
        ParameterSet(_dir_with(tmp_path, text))


def test_invalid_yaml_names_line(tmp_path):
    with pytest.raises(ParameterError, match=r"wells.yaml:\d+: not valid YAML"):
        ParameterSet(_dir_with(tmp_path, GOOD + "  bad: [unclosed\n"))


def test_every_shipped_value_is_cited():
    params = default_parameters()
    for (program, version), prms in params.params.items():
        for prm in prms.values():
            for v in prm.values:
                assert v.citation.section and v.citation.quote, (program, version, prm.name)


# -- version by date ----------------------------------------------------------------------------

@pytest.mark.parametrize("day,version", [
    (dt.date(2000, 7, 1), "145.245"),
    (dt.date(2021, 6, 30), "145.245"),
    (dt.date(2023, 7, 7), "145.246"),
    (dt.date(2040, 1, 1), "145.246"),
])
def test_grant_version_by_date(day, version):
    assert default_parameters().period("wisconsin-fund-grant", day).version == version


@pytest.mark.parametrize("day", [dt.date(2021, 7, 1), dt.date(2022, 6, 1), dt.date(2023, 7, 6)])
def test_gap_is_no_program_in_force(day):
    with pytest.raises(NoProgramInForce, match="No Wisconsin Fund grant program was in force"):
        default_parameters().snapshot("wisconsin-fund-grant", day)


def test_before_coverage_is_an_error_not_zero():
    with pytest.raises(NotCovered):
        default_parameters().snapshot("wisconsin-fund-grant", dt.date(2000, 6, 30))
    with pytest.raises(NotCovered):
        default_parameters().snapshot("well-compensation", dt.date(1984, 12, 31))


def test_temporal_coverage_sweep():
    """Every day from the first coverage to 2035 falls in exactly one period; versions in order."""
    params = default_parameters()
    for program, periods in params.periods.items():
        start = periods[0].effective_from
        counts = params.sweep(program, start, dt.date(2035, 12, 31))
        assert "uncovered" not in counts
        assert sum(counts.values()) == (dt.date(2035, 12, 31) - start).days + 1
    counts = params.sweep("wisconsin-fund-grant", dt.date(2000, 7, 1), dt.date(2035, 12, 31))
    assert counts["none"] == (dt.date(2023, 7, 6) - dt.date(2021, 7, 1)).days + 1
    # every parameter of every version answers on every day that version is in force
    for program, periods in params.periods.items():
        for p in periods:
            if p.version is None:
                continue
            for day in (p.effective_from, p.effective_to or dt.date(2035, 12, 31)):
                snap = params.snapshot(program, day)
                assert snap.version == p.version


def test_rules_package_imports_no_django():
    code = ("import sys, powts.law.cli, powts.law.batch, powts.law.allocation, powts.law.wells; "
            "sys.exit(1 if any(m == 'django' or m.startswith('django.') for m in sys.modules) else 0)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
