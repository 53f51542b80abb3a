"""Well claims in bulk, s. 281.75: the command line words and writes a file a chunk of claims at a time
(bounded memory, as the grants' command line does), and a claim's words do not depend on the chunk it
falls in nor on the other claims of its file; cost items read column-wise are read as one claim's are."""
from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from powts.cli import main
from powts.law import columns as C
from powts.law import wells
from powts.law.engine import default_parameters

FIXTURES = Path(__file__).parent / "fixtures"


def _amount(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


@pytest.fixture
def small_chunks(well_chunks):
    """Chunks of 7 claims (with explanations or without), counted."""
    return well_chunks(7, 7)


@pytest.mark.parametrize("expected,extra", [("wells_edge_out.csv", []), ("wells_edge_out.jsonl", []),
                                            ("wells_edge_out_noexpl.csv", ["--no-explanation"])])
def test_a_file_written_in_chunks_is_the_file_written_at_once(tmp_path, small_chunks, expected, extra):
    """(Fails on the code before chunks: well_render had no CHUNK, and wrote the file as one frame.)"""
    out = tmp_path / ("out" + Path(expected).suffix)
    assert main(["rules", "evaluate", "well-compensation", *extra, "--input", str(FIXTURES / "wells_edge_in.csv"),
                 "--output", str(out)]) == 0
    assert small_chunks == [7] * 57 + [1]  # 400 claims
    assert out.read_bytes() == (FIXTURES / expected).read_bytes()


def test_each_claim_of_a_chunked_batch_is_worded_as_it_is_alone(tmp_path, small_chunks):
    with (FIXTURES / "wells_edge_in.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    out = tmp_path / "out.jsonl"
    assert main(["rules", "evaluate", "well-compensation", "--input", str(FIXTURES / "wells_edge_in.csv"),
                 "--output", str(out)]) == 0
    bulk = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert len(small_chunks) > 1 and len(bulk) == len(rows)
    for raw, got in zip(rows, bulk):
        one = wells.decide_row(raw)
        assert got == {"id": one.id, "eligible": one.eligible, "award": _amount(one.award), "reasons": one.reasons,
                       "explanation": one.explanation}, raw


def test_an_empty_file_is_a_header_alone(tmp_path, small_chunks):
    src, out = tmp_path / "in.csv", tmp_path / "out.csv"
    src.write_text("id,claimant_type\n", encoding="utf-8")
    assert main(["rules", "evaluate", "well-compensation", "--input", str(src), "--output", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == "id,eligible,award,reasons,explanation\n"


WORDINGS = ["New Well:8000", "new well:8000.5;PUMP:15", "new-well:1;Pump:2;abandonment:3", "NEW_WELL:9",
            "New  Well:7", "Reconstruct Well:3000", "new well:1;bogus item:5", "9000.00", "pump:12.34"]


def test_cost_items_in_a_large_file_are_read_as_one_claim_reads_them():
    """s. 281.75(7)(c): an item named in a person's words ("New Well", "new-well", "NEW_WELL") in a
    file large enough to be read by distinct wordings is the item item_name reads, with the same
    amounts, and an item not listed is that claim's error. (Guards the reading by distinct wordings;
    the code before it read every entry and passes too.)"""
    n = 9000
    texts = np.array(WORDINGS)[np.arange(n) % len(WORDINGS)]
    cols = {"id": pl.Series([f"W{i}" for i in range(n)]), "eligible_costs": pl.Series(texts.tolist()),
            "claimant_type": pl.Series(["landowner"] * n), "supply_use": pl.Series(["residential"] * n),
            "well_kind": pl.Series(["drilled"] * n), "dwelling_units": pl.Series(["1"] * n),
            "sample_dates": pl.Series(["2024-01-01;2024-01-20"] * n), "lab_certified": pl.Series(["true"] * n),
            "department_advisory": pl.Series(["false"] * n), "annual_family_income": pl.Series(["1000"] * n),
            "claimed_on": pl.Series(["2024-03-01"] * n)}
    got = wells.read_columns(cols, n)
    items = default_parameters().snapshot(wells.PROGRAM, dt.date(2024, 3, 1))["eligible_cost_items"]
    by_row: dict[int, list] = {}
    for row, _pos, item, cents in sorted(zip(*(got.costs[k].to_list() for k in ("row", "pos", "item", "cents"))),
                                         key=lambda e: e[:2]):
        by_row.setdefault(row, []).append((item, cents))
    for i in range(len(WORDINGS)):  # each wording once: every row of a wording is read alike
        for j in (i, i + len(WORDINGS) * 500):
            try:
                expected = wells._costs(texts[j], items)
            except wells.F.FieldError as e:
                assert got.errors.any[j] and got.errors.msg[j] == str(e)
                continue
            assert not got.errors.any[j]
            assert by_row[j] == expected, texts[j]


def test_entry_positions_within_rows():
    rows = np.repeat(np.arange(500), np.random.default_rng(3).integers(1, 5, 500))
    assert (C.positions(rows) == np.arange(len(rows)) - np.searchsorted(rows, rows, side="left")).all()
    assert C.positions(np.array([], dtype=np.int64)).tolist() == []


SAMPLES = ["2024-01-01;2024-01-20", "2024-02-30;2024-03-01", "2023-12-31", "0000-01-01;2024-01-05",
           "2024-01-05;2023-11-30;2024-02-29", "2024-1-05", ""]


def test_sample_dates_in_a_large_file_are_read_as_one_claim_reads_them():
    """s. 281.75(6)(a): sample dates in a file large enough to be read by distinct days are the days
    parse_claim reads, and a date that does not exist is that claim's error naming the field.
    (Guards the reading by distinct days; the code before it read every date and passes too.)"""
    n = 7000
    texts = np.array(SAMPLES)[np.arange(n) % len(SAMPLES)]
    cols = {"id": pl.Series([f"W{i}" for i in range(n)]), "sample_dates": pl.Series(texts.tolist()),
            "claimant_type": pl.Series(["landowner"] * n), "supply_use": pl.Series(["residential"] * n),
            "well_kind": pl.Series(["drilled"] * n), "dwelling_units": pl.Series(["1"] * n),
            "eligible_costs": pl.Series(["100"] * n), "lab_certified": pl.Series(["true"] * n),
            "department_advisory": pl.Series(["false"] * n), "annual_family_income": pl.Series(["1000"] * n),
            "claimed_on": pl.Series(["2024-03-01"] * n)}
    got = wells.read_columns(cols, n)
    days: dict[int, list] = {}
    for row, day in zip(got.samples["row"].to_list(), got.samples["day"].to_list()):
        days.setdefault(row, []).append(wells.EPOCH + dt.timedelta(days=day))
    for j in range(len(SAMPLES) * 2):
        raw = {k: v[j] for k, v in cols.items()}
        try:
            claim = wells.parse_claim(raw)
        except wells.F.FieldError as e:
            assert got.errors.msg[j] == str(e), texts[j]
            continue
        assert not got.errors.any[j]
        assert sorted(days.get(j, [])) == claim.sample_dates, texts[j]


@pytest.mark.parametrize("kwargs", [{"detail": True, "reason_list": False}, {"explain": True, "reason_list": True},
                                    {"explain": True, "reason_list": False, "reason_text": True},
                                    {"explain": False, "reason_list": True},
                                    {"explain": False, "reason_list": False, "reason_text": True}])
def test_a_few_claims_get_the_words_a_large_batch_gives_them(kwargs):
    """The few-claims path (a frame built in Python row by row, the words selected eagerly) writes what
    the column-wise path writes for the same claims, in every output: the edge cases' samples dated
    after the claim, totals and cost items in a person's words, claims not decided."""
    from powts.law import well_render

    with (FIXTURES / "wells_edge_in.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    size = well_render.SMALL - 1
    assert len(rows) > well_render.SMALL
    many = well_render.well_frame(wells.evaluate_rows(rows), **kwargs)
    few = pl.concat([well_render.well_frame(wells.evaluate_rows(rows[lo:lo + size]), **kwargs)
                     for lo in range(0, len(rows), size)])
    assert few.equals(many)


def test_a_few_claims_written_in_chunks_are_each_written_once():
    """Ten claims, chunks of seven: the few-claims path writes each chunk's claims, not the whole frame
    each time."""
    from powts.law import well_render

    with (FIXTURES / "wells_edge_in.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))[:10]
    r = wells.evaluate_rows(rows)
    chunks = list(well_render.well_frames(r, chunk=7))
    assert [len(c) for c in chunks] == [7, 3]
    assert pl.concat(chunks).equals(well_render.well_frame(r))
