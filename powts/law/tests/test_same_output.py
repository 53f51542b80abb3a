"""The columnar command line writes what the per-row code wrote before it (fixtures/*_out.*, written
by that code on the seeded inputs of fixtures/make_fixtures.py): same rows, same fields, same words."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from powts.cli import main

FIXTURES = Path(__file__).parent / "fixtures"


def _csv(path):
    return list(csv.reader(path.open(encoding="utf-8")))


def _jsonl(path):
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("program,source,expected,extra", [
    ("wisconsin-fund-grant", "grants_in.csv", "grants_out.csv", []),
    ("wisconsin-fund-grant", "grants_in.csv", "grants_out_noexpl.csv", ["--no-explanation"]),
    ("wisconsin-fund-grant", "grants_in.csv", "grants_out.jsonl", []),
    ("wisconsin-fund-grant", "grants_in.jsonl", "grants_jsonl_out.jsonl", []),
    ("well-compensation", "wells_in.csv", "wells_out.csv", []),
    ("well-compensation", "wells_in.csv", "wells_out.jsonl", []),
    # s. 281.75: both sides of every threshold and bad values in every field (written by the per-row code)
    ("well-compensation", "wells_edge_in.csv", "wells_edge_out.csv", []),
    ("well-compensation", "wells_edge_in.csv", "wells_edge_out.jsonl", []),
    ("well-compensation", "wells_edge_in.csv", "wells_edge_out_noexpl.csv", ["--no-explanation"]),
])
def test_output_unchanged(tmp_path, program, source, expected, extra):
    out = tmp_path / ("out" + Path(expected).suffix)
    assert main(["rules", "evaluate", program, *extra, "--input", str(FIXTURES / source), "--output", str(out)]) == 0
    read = _csv if out.suffix == ".csv" else _jsonl
    old, new = read(FIXTURES / expected), read(out)
    assert len(new) == len(old)
    for before, after in zip(old, new):
        assert after == before


def test_well_allocation_unchanged(tmp_path):
    """s. 281.75(5)(f): the order of payment from the column path is the per-row code's
    (fixtures/wells_edge_alloc.csv, written by it with --funds 60000)."""
    out = tmp_path / "alloc.csv"
    assert main(["rules", "allocate", "well-compensation", "--funds", "60000", "--input",
                 str(FIXTURES / "wells_edge_in.csv"), "--output", str(out)]) == 0
    assert _csv(out) == _csv(FIXTURES / "wells_edge_alloc.csv")


def test_small_well_files_unchanged(tmp_path):
    """Blank cells stay empty in CSV (polars would quote an empty string): a JSON Lines file with a
    line that is not JSON and an eligible claim, written as CSV, is what the per-row code wrote."""
    src = tmp_path / "w.jsonl"
    src.write_text('{"id":"J1","claimant_type":"landowner","supply_use":"residential","well_kind":"drilled",'
                   '"dwelling_units":1,"sample_dates":["2024-01-01","2024-01-15"],"lab_certified":true,'
                   '"annual_family_income":50000,"eligible_costs":[{"item":"New Well","amount":9000}],'
                   '"claimed_on":"2024-02-01"}\nnot json\n', encoding="utf-8")
    out = tmp_path / "out.csv"
    assert main(["rules", "evaluate", "well-compensation", "--input", str(src), "--output", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[1].startswith("J1,true,5250.00,,PASS A landowner") or lines[1].startswith('J1,true,5250.00,,"PASS')
    assert lines[2] == ",false,0.00,line 2: not valid JSON (Expecting value),Not decided: line 2: not valid JSON (Expecting value)"
