"""The columnar command line and the one-case path (`decide_row`, a batch of one) decide and word
every row alike: a few hundred generated rows (tests/fixtures, seeded) with both sides of each
threshold and bad values in every field, decided in one file and then one row at a time."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from powts.cli import main
from powts.law import grants, wells

FIXTURES = Path(__file__).parent / "fixtures"


def _rows(name: str) -> list[dict]:
    with (FIXTURES / name).open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _bulk(tmp_path, program: str, source: str) -> list[dict]:
    out = tmp_path / "out.jsonl"
    assert main(["rules", "evaluate", program, "--input", str(FIXTURES / source), "--output", str(out)]) == 0
    return [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]


def _amount(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


@pytest.mark.parametrize("source", ["wells_in.csv", "wells_edge_in.csv"])
def test_well_claims_in_bulk_as_one_by_one(tmp_path, source):
    """s. 281.75 (4)(a), (1)(f)-(h), (1)(b)/(6)(a), (4m)(a), (7)(a)-(c): the file's rows decided
    together are decided and worded as each is alone, bad rows with the same error."""
    rows = _rows(source)
    bulk = _bulk(tmp_path, "well-compensation", source)
    assert len(bulk) == len(rows) > 250
    kinds = set()
    for raw, got in zip(rows, bulk):
        one = wells.decide_row(raw)
        assert got == {"id": one.id, "eligible": one.eligible, "award": _amount(one.award), "reasons": one.reasons,
                       "explanation": one.explanation}, raw
        kinds.add("error" if one.error else ("eligible" if one.eligible else "refused"))
    assert kinds == {"error", "eligible", "refused"}


def test_grant_applications_in_bulk_as_one_by_one(tmp_path):
    """s. 145.245 / 145.246: the file's rows decided together are decided and worded as each is alone."""
    rows = _rows("grants_in.csv")
    bulk = _bulk(tmp_path, "wisconsin-fund-grant", "grants_in.csv")
    assert len(bulk) == len(rows) > 250
    kinds = set()
    for raw, got in zip(rows, bulk):
        one = grants.decide_row(raw)
        assert got == {"id": one.id, "eligible": one.eligible, "amount": _amount(one.amount), "category": one.category,
                       "version": one.version, "reasons": one.reasons, "explanation": one.explanation}, raw
        kinds.add("error" if one.error else ("eligible" if one.eligible else "refused"))
    assert kinds == {"error", "eligible", "refused"}
