"""Wis. Stat. s. 281.75(5)(f): money goes to completed claims in the order they were RECEIVED
COMPLETE, not in the order of the claim date; a claim the appropriation cannot pay is conditionally
approved and paid first when funds come."""
from __future__ import annotations

import pytest

from powts.law import fields as F
from powts.law import wells


def _row(id_, claimed, completed=None, costs="8000", **kw):
    row = {"id": id_, "claimant_type": "landowner", "supply_use": "residential", "well_kind": "drilled",
           "dwelling_units": 1, "sample_dates": "2024-01-01;2024-01-15", "lab_certified": True,
           "annual_family_income": "30000", "eligible_costs": costs, "claimed_on": claimed, **kw}
    if completed:
        row["completed_on"] = completed
    return row


def _pay(rows, funds, **kw):
    return {p.id: p for p in wells.pay_in_order(wells.decide_rows(rows), funds, **kw)}


def test_5f_claim_made_first_but_completed_later_is_paid_after():
    """(5)(f): A claimed 2024-02-01 but complete only 2024-05-01; B claimed 2024-03-01, complete 2024-03-01.
    $6,000 award each, $6,000 available: B (completed first) is paid, A waits (conditionally approved)."""
    rows = [_row("A", "2024-02-01", "2024-05-01"), _row("B", "2024-03-01", "2024-03-01")]
    out = _pay(rows, 600000)
    assert (out["B"].status, out["B"].paid, out["B"].position) == ("paid", 600000, 1)
    assert (out["A"].status, out["A"].paid, out["A"].position) == ("conditionally approved", 0, 2)


def test_5f_completed_the_same_day_received_order_decides():
    """(5)(f), both sides of the day: completed the same day -> the earlier claim first; A completed one
    day after B -> B first."""
    same = _pay([_row("A", "2024-02-01", "2024-04-01"), _row("B", "2024-03-01", "2024-04-01")], 600000)
    assert same["A"].status == "paid" and same["B"].status == "conditionally approved"
    later = _pay([_row("A", "2024-02-01", "2024-04-02"), _row("B", "2024-03-01", "2024-04-01")], 600000)
    assert later["B"].status == "paid" and later["A"].status == "conditionally approved"


def test_5f_same_dates_file_order_is_received_order():
    """(5)(f): same claim and completion dates: the order received is the order given."""
    out = _pay([_row("Z", "2024-02-01"), _row("Y", "2024-02-01")], 600000)
    assert out["Z"].status == "paid" and out["Y"].status == "conditionally approved"


def test_5f_conditionally_approved_claims_are_paid_first_when_funds_come():
    """(5)(f) "as soon as funds become available": a claim waiting from an earlier run is paid before
    a claim completed earlier but not yet approved."""
    rows = [_row("NEW", "2024-01-20", "2024-01-22"), _row("WAIT", "2024-02-01", "2024-02-02")]
    out = _pay(rows, 600000, waiting={"WAIT"})
    assert out["WAIT"].status == "paid" and out["NEW"].status == "conditionally approved"
    assert _pay(rows, 600000)["NEW"].status == "paid"


def test_5f_funds_exactly_the_award_or_one_cent_short():
    """(5)(f): $6,000.00 pays a $6,000.00 award; $5,999.99 conditionally approves it."""
    assert _pay([_row("A", "2024-02-01")], 600000)["A"].status == "paid"
    assert _pay([_row("A", "2024-02-01")], 599999)["A"].status == "conditionally approved"


def test_5c_completed_before_the_claim_is_refused():
    """(5)(c): a claim is complete on or after the day it was made; the field is named."""
    with pytest.raises(F.FieldError, match="completed_on"):
        wells.parse_claim(_row("A", "2024-02-01", "2024-01-31"))
    assert wells.parse_claim(_row("A", "2024-02-01", "2024-02-01")).completed_on.isoformat() == "2024-02-01"
