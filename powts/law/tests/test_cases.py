"""The readable case files (cases/*.yaml), run through the one-case path and the batch path."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from powts.law import grants, wells
from powts.law.batch import evaluate_rows

CASES = Path(__file__).parent / "cases"


def _load(name):
    doc = yaml.safe_load((CASES / name).read_text())
    out = []
    for i, case in enumerate(doc["cases"]):
        row = dict(doc["base"], id=f"case-{i}")
        for k, v in (case.get("given") or {}).items():
            if v is None:
                row.pop(k, None)
            else:
                row[k] = v
        out.append(pytest.param(row, case, id=f"{case['subsection']} | {case['name']}"))
    return out


def _check(decision, expect, amount_field):
    if "error" in expect:
        assert decision.error and expect["error"] in decision.error, decision.explanation
        return
    assert decision.error is None, decision.error
    assert decision.eligible == expect["eligible"], decision.explanation
    if "amount" in expect or "award" in expect:
        cents = getattr(decision, amount_field)
        assert f"{cents // 100}.{cents % 100:02d}" == expect.get("amount", expect.get("award")), decision.explanation
    if "category" in expect:
        assert decision.category == expect["category"]
    if "version" in expect:
        assert decision.version == expect["version"]
    failed = [r["test"] for r in decision.reasons]
    assert sorted(failed) == sorted(expect.get("failed", [])), decision.explanation


@pytest.mark.parametrize("row,case", _load("grants.yaml"))
def test_grant_case(row, case):
    d = grants.decide_row(row)
    _check(d, case["expect"], "amount")
    # every decision explains itself with citations
    if not d.error:
        assert "Wis. Stat. s. 145.24" in d.explanation
        assert "grant $" in d.explanation


@pytest.mark.parametrize("row,case", _load("grants.yaml"))
def test_grant_case_batch_agrees(row, case):
    one = grants.decide_row(row)
    r = evaluate_rows([row])
    reasons, explanation = r.render(0)
    assert bool(r.eligible[0]) == one.eligible
    assert int(r.amount[0]) == one.amount
    assert (int(r.category[0]) or None) == one.category
    assert r.version(0) == one.version
    assert reasons == one.reasons
    assert explanation == one.explanation


@pytest.mark.parametrize("row,case", _load("wells.yaml"))
def test_well_case(row, case):
    d = wells.decide_row(row)
    _check(d, case["expect"], "award")
    if not d.error:
        assert "Wis. Stat. s. 281.75" in d.explanation
