"""A large column with few distinct values (dates, counts, flows) is checked once per distinct value
and every row takes its value's result (columns.distinct). The rows must come out exactly as when
each value is read by the reference parser in fields.py: the same value and the same error."""
from __future__ import annotations

import csv
import datetime as dt
import json

import numpy as np
import polars as pl
import pytest

from powts.cli import main
from powts.law import columns as C
from powts.law import fields as F
from powts.law.tests.test_columnar_vs_one import FIXTURES

ROWS = 20_000  # enough rows that the distinct values are few (columns.distinct's thresholds)

DATES = ["2024-03-15", "", "2024-02-30", " 2024-01-01", "2024-1-5", "0000-01-01", "x", "1999-12-31", "2024-02-29"]
INTS = ["1", "", "0", "-1", " 3 ", "2.5", "one", "12345678901234567", "7"]
NUMBERS = ["2500.5", "", "0", "-1", " 12 ", "1e3", "nan", "3.", "1234567890123456", "800"]


def _column(values: list[str]) -> pl.Series:
    return pl.Series("v", [values[i % len(values)] for i in range(ROWS)], dtype=pl.String)


def _one_by_one(values, parse, missing, convert=lambda v: v):
    out, msgs = [], []
    for v in values:
        try:
            got = parse(v)
            out.append(missing if got is None else convert(got))
            msgs.append(None)
        except F.FieldError as e:
            out.append(None)
            msgs.append(str(e))
    return out, msgs


def _check(series: pl.Series, got: np.ndarray, errors: C.Errors, want, want_msgs) -> None:
    assert C.distinct(series)[1] is not None  # the column is read by distinct values
    assert errors.msg.tolist() == want_msgs
    for g, w in zip(got.tolist(), want):
        if w is not None:
            assert g == w or (g != g and w != w)


@pytest.mark.parametrize("required", [True, False])
def test_dates_by_distinct_value_as_one_by_one(required):
    """Dates (failure_determined_on, applied_on...): YYYY-MM-DD or the field's error, row by row."""
    s = _column(DATES)
    errors = C.Errors(ROWS)
    got = C.dates("applied_on", s, errors, required=required)
    want, msgs = _one_by_one(s.to_list(), lambda v: F.parse_date("applied_on", v, required), C.NAT,
                             lambda d: (d - dt.date(1970, 1, 1)).days)
    _check(s, got, errors, want, msgs)


@pytest.mark.parametrize("minimum", [0, 1])
def test_counts_by_distinct_value_as_one_by_one(minimum):
    """units_served: a whole number at least the minimum, blank the default, else the field's error."""
    s = _column(INTS)
    errors = C.Errors(ROWS)
    got = C.ints("units_served", s, errors, default=1, minimum=minimum)
    want, msgs = _one_by_one(s.to_list(), lambda v: F.parse_int("units_served", v, 1, minimum), None)
    _check(s, got, errors, want, msgs)


@pytest.mark.parametrize("positive", [True, False])
def test_flows_by_distinct_value_as_one_by_one(positive):
    """daily_flow_gpd / design_flow_gpd: a number (positive where required), else the field's error."""
    s = _column(NUMBERS)
    errors = C.Errors(ROWS)
    got = C.numbers("daily_flow_gpd", s, errors, required=False, positive=positive)
    want, msgs = _one_by_one(s.to_list(), lambda v: F.parse_number("daily_flow_gpd", v, False, positive), np.nan)
    _check(s, got, errors, want, msgs)


def test_many_copies_of_the_fixture_decide_as_one_copy(tmp_path):
    """s. 145.245 / 145.246: 70 copies of the fixture's rows (their dates, counts and flows then read by
    distinct value) are decided and worded exactly as the fixture alone (read value by value)."""
    with (FIXTURES / "grants_in.csv").open(encoding="utf-8", newline="") as f:
        header, *rows = list(csv.reader(f))
    big = tmp_path / "big.csv"
    with big.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for _ in range(70):
            w.writerows(rows)
    outs = []
    for name in ("grants_in.csv", "big"):
        out = tmp_path / f"{name}.jsonl"
        src = big if name == "big" else FIXTURES / name
        assert main(["rules", "evaluate", "wisconsin-fund-grant", "--input", str(src), "--output", str(out)]) == 0
        outs.append([json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()])
    one, many = outs
    assert len(many) == 70 * len(one)
    for k in range(70):
        assert many[k * len(one):(k + 1) * len(one)] == one

