"""Well claims without explanations, s. 281.75: the reasons column of a CSV (each failed test's sentence
and citation) is written for the claims that failed a test, and a batch without explanations is worded
in larger chunks; neither changes a byte of the file."""
from __future__ import annotations

import csv
from pathlib import Path

import polars as pl
import pytest

from powts.cli import main
from powts.law import io, well_render, wells

FIXTURES = Path(__file__).parent / "fixtures"


def _results():
    table = io.read_table(str(FIXTURES / "wells_edge_in.csv"))
    return wells.evaluate(wells.read_columns(table.columns, table.n, line_errors=table.line_errors))


def _from_reason_list(r) -> list[str]:
    """The reasons as the JSON Lines path lists them (a separate query), joined as the CSV writes them."""
    frame = well_render.well_frame(r, explain=False, reason_list=True)
    return ["; ".join(x["text"] if x["test"] == "input" else f"{x['text']} ({x['citation']})" for x in reasons)
            for reasons in frame["reasons"].to_list()]


@pytest.mark.parametrize("sparse", [set(), set(wells.TESTS), {"claimant", "contamination_proof"}, {"income_limit"}])
def test_reasons_are_the_same_whether_a_test_is_worded_for_its_failures_or_for_every_claim(sparse):
    """Whichever tests are worded only for the claims that failed them (a gather puts them in place),
    each claim's reasons are those of the reason list, in the order of the tests, chunk by chunk.
    (Fails on the code before: _reason_texts did not exist, every sentence was written for every claim.)"""
    r = _results()
    _, failed = well_render._plan(r.snap, False, False, False, True)
    base = well_render._base_frame(r, items_words=False)
    frame = base.lazy().with_columns(well_render.prelude(base))
    got = []
    for lo in range(0, r.cols.n, 37):
        n = min(37, r.cols.n - lo)
        got += well_render._reason_texts(frame.slice(lo, 37), failed, sparse, lo, n, pl.QueryOptFlags()).to_list()
    assert len(got) == r.cols.n
    assert [x or "" for x in got] == _from_reason_list(r)
    assert any(x and "; " in x for x in got) and any(x == "" for x in got)  # several reasons, and none


def test_a_batch_without_explanations_is_worded_in_chunks_of_its_own(tmp_path, well_chunks):
    """Without explanations, claims are worded CHUNK_REASONS at a time (their words are a fifth as long),
    with explanations CHUNK at a time; the file is the saved one either way.
    (Fails on the code before: there was one chunk size, CHUNK.)"""
    sizes = well_chunks(7, 30)
    for extra, expected, chunks in (([], "wells_edge_out.csv", [7] * 57 + [1]),
                                    (["--no-explanation"], "wells_edge_out_noexpl.csv", [30] * 13 + [10])):
        sizes.clear()
        out = tmp_path / "out.csv"
        assert main(["rules", "evaluate", "well-compensation", *extra, "--input",
                     str(FIXTURES / "wells_edge_in.csv"), "--output", str(out)]) == 0
        assert sizes == chunks
        assert out.read_bytes() == (FIXTURES / expected).read_bytes()


def test_sample_dates_are_quoted_where_the_proof_fails_without_explanations():
    """s. 281.75(6)(a): without explanations only a failed proof of contamination quotes the samples,
    so they are worded for those claims alone; the reasons quote them as the explanation's words do."""
    r = _results()
    failing = ~r.tests["contamination_proof"] & r.decided
    assert failing.any() and (~failing & r.decided).any()
    alone = well_render._base_frame(r, items_words=False)["shown"]
    full = well_render._base_frame(r, items_words=True)["shown"]
    assert alone.filter(pl.Series(failing)).to_list() == full.filter(pl.Series(failing)).to_list()
    with (FIXTURES / "wells_edge_out_noexpl.csv").open(encoding="utf-8", newline="") as f:
        saved = [row["reasons"] for row in csv.DictReader(f)]
    assert saved == _from_reason_list(r)
