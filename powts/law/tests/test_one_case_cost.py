"""Speed of one application (under 5 ms with its explanation), held by what it costs rather
than by a clock: every polars operation costs about 0.1 ms however few the rows, so one case's words
are written with one polars query, and the few values formatted in Python match the column-wise
formatters the batch uses."""
from __future__ import annotations

import cProfile
import csv
import pstats
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from powts.law import explain, grants, render, wells

ONE = {"id": "A1", "applicant_type": "residence", "failure_conditions": "a;d", "failure_determined_on": "2024-03-15",
       "applied_on": "2024-04-01", "system_installed_on": "1970-05-01", "annual_family_income": "38000",
       "funding_table_amount": "5200"}


def _polars_queries(fn) -> int:
    prof = cProfile.Profile()
    prof.runcall(fn)
    stats = pstats.Stats(prof).stats
    return sum(v[1] for k, v in stats.items()
               if k[2] in ("<method 'collect' of 'builtins.PyLazyFrame' objects>", "<collect_all>"))


@pytest.mark.parametrize("raw", [ONE, {**ONE, "applicant_type": "business", "annual_gross_revenue": "100000",
                                       "daily_flow_gpd": "2000"}, {**ONE, "applied_on": "2024-13-01"}])
def test_one_case_is_one_polars_query(raw):
    grants.decide_row(raw)  # plans and parameters built once per process
    d = None

    def run():
        nonlocal d
        d = grants.decide_row(raw)

    # one query: the words selected from the case's one-row frame (there were 14 once: each date,
    # money and flow column of one row was worded by its own query; then a collect_all and a drop)
    assert _polars_queries(run) == 1
    assert d.explanation


def test_money_words_of_a_few_rows_match_the_batch_formatter():
    cents = np.array([0, 1, 99, 100, 99_999, 100_000, 123_456_789, 99_999_999_999, 100_000_000_000,
                      100_000_000_001, 99_999_999_999_999], dtype=np.int64)
    batch = pl.select(render.money_expr(pl.lit(pl.Series(cents)))).to_series().to_list()
    assert batch == [explain.money(int(c)) for c in cents]


def test_dates_of_a_few_rows_match_the_batch_formatter():
    days = np.array([-354285, -1, 0, 11016, 19797, 2932896], dtype=np.int32)
    assert render._iso_small(days) == render.iso_dates(pl.Series(days)).to_list()
    far = np.array([-354286, 0], dtype=np.int32)  # before the year 1000: polars words it
    assert render._iso_small(far) == render.iso_dates(pl.Series(far)).to_list()


def test_words_of_a_large_batch_equal_each_case_alone_with_and_without_cost_limits():
    """A batch past the few-row path, with and without rows limited by their allowable costs (the
    batch words the cost limit only when some row has one), residences and businesses: every row's
    explanation is the one the case gets alone."""
    from powts.law.batch import evaluate_rows

    base = {**ONE, "failure_conditions": "b", "applied_on": "2024-04-01"}
    rows = [{**base, "id": f"R{i}", "annual_family_income": str(30000 + 150 * i)} for i in range(40)]
    rows += [{**base, "id": f"B{i}", "applicant_type": "business", "annual_gross_revenue": "100000",
              "daily_flow_gpd": str(1000 + i)} for i in range(30)]
    for with_costs in (False, True):
        batch = [{**r, "allowable_cost": "3000" if with_costs and i % 3 == 0 else ""} for i, r in enumerate(rows)]
        words = render.grant_frame(evaluate_rows(batch), explain=True)["explanation"].to_list()
        assert len(batch) > render.SMALL
        assert words == [grants.decide_row(r).explanation for r in batch]
        assert any("limited by the allowable costs" in w for w in words) is with_costs


def test_a_few_rows_of_every_kind_get_the_words_a_large_batch_gives_them():
    """The few-row path (a frame built row by row, the words selected without a query plan) writes
    what the column-wise path writes, residences, businesses and rows not decided mixed, in order."""
    from powts.law.batch import evaluate_rows

    rows = [{**ONE, "id": f"R{i}", "annual_family_income": str(30000 + 4000 * i)} for i in range(4)]
    rows += [{**ONE, "id": f"B{i}", "applicant_type": "business", "annual_gross_revenue": "100000",
              "daily_flow_gpd": str(1000 + i)} for i in range(3)]
    rows.insert(2, {**ONE, "id": "X1", "applied_on": "2024-13-01"})
    copies = render.SMALL // len(rows) + 1
    for kwargs in ({"explain": True}, {"explain": False, "detail": True, "reason_list": False},
                   {"explain": True, "reason_text": True, "reason_list": False}):
        few = render.grant_frame(evaluate_rows(rows), **kwargs)
        many = render.grant_frame(evaluate_rows(rows * copies), **kwargs)
        assert len(rows) <= render.SMALL < len(rows) * copies
        assert few.equals(many.head(len(rows))), kwargs


def test_one_well_claim_is_worded_in_two_polars_queries():
    """A well claim through the web or the API (s. 281.75): its frame is built in Python, then its amounts
    and its words are two eager selects (there were 19-20 queries: each column added, list joined and frame
    sorted was a query of its own, ~0.4 ms each). A claim not decided is worded as before (four)."""
    with (Path(__file__).parent / "fixtures" / "wells_edge_in.csv").open(encoding="utf-8", newline="") as f:
        claims = list(csv.DictReader(f))[:60]
    decided = 0
    for raw in claims:
        r = wells.evaluate_rows([raw])
        wells.decisions(r)  # the words' expressions are built once per law version and process
        decided += int(r.decided[0])
        assert _polars_queries(lambda r=r: wells.decisions(r)) <= (2 if r.decided[0] else 4), raw
    assert decided >= 20
