"""s. 145.246(6)(a)-(b): grant funding is determined on the allowable costs, so the recorded allowable
costs cap the grant; (6)(c)-(d) stay ceilings of their own; (3)(a)1. tests the grant so capped."""
import pytest

from powts.law.batch import evaluate_rows
from powts.law.grants import decide_row

BASE = dict(id="A1", applicant_type="residence", failure_conditions="b", failure_determined_on="2026-03-02",
            applied_on="2026-04-01", system_installed_on="1970-01-01", annual_family_income="30000",
            funding_table_amount="5200")


def grant(**kw):
    return decide_row({**BASE, **kw})


@pytest.mark.parametrize("allowable, amount, capped", [
    ("5199.99", 519_999, True),   # a cent under the table amount: the costs are the grant
    ("5200.00", 520_000, False),  # equal: the table amount, as without costs
    ("5200.01", 520_000, False),  # above: (6)(c) limits it
    ("", 520_000, False),         # none recorded: (6)(c)-(d) alone
])
def test_allowable_costs_cap_the_grant(allowable, amount, capped):
    d = grant(allowable_cost=allowable)
    assert d.eligible and d.amount == amount
    assert ("limited by the allowable costs: 100% of $5,199.99 = $5,199.99 (Wis. Stat. s. 145.246(6)(a)-(b))"
            in d.explanation) is capped


def test_the_cost_cap_applies_after_the_income_reduction():
    """(6)(d) limits the grant to the (c) amount less 30% of income over $32,000; the allowable costs are a
    separate ceiling: $5,200 - 30% x ($40,000 - $32,000) = $2,800, under costs of $3,000 (not $3,000 - $2,400)."""
    assert grant(annual_family_income="40000", allowable_cost="3000").amount == 280_000
    assert grant(annual_family_income="40000", allowable_cost="2799.99").amount == 279_999


@pytest.mark.parametrize("allowable, eligible", [("100.00", True), ("99.99", False)])
def test_a_grant_capped_under_the_minimum_fails_it(allowable, eligible):
    """(3)(a)1.: the grant determined under sub. (6) must be at least $100."""
    d = grant(allowable_cost=allowable)
    assert d.eligible is eligible and d.state_share == int(float(allowable) * 100)
    assert ("minimum_grant" in [t.key for t in d.tests if not t.passed]) is not eligible


def test_before_act_19_the_same_rule_cites_145_245():
    """s. 145.245(7)(a)-(b): the same allowable-cost limit in the version before 2023 Wisconsin Act 19."""
    d = grant(failure_determined_on="2019-03-02", applied_on="2019-04-01", allowable_cost="1000")
    assert d.amount == 100_000 and "(Wis. Stat. s. 145.245(7)(a)-(b))" in d.explanation


def test_a_bad_allowable_cost_is_the_rows_error_and_batch_equals_one():
    assert "allowable_cost" in (grant(allowable_cost="lots").error or "")
    rows = [{**BASE, "id": str(i), "allowable_cost": c} for i, c in enumerate(["", "3000", "9000", "50"])]
    r = evaluate_rows(rows)
    assert r.amount.tolist() == [grant(**row).amount for row in rows] == [520_000, 300_000, 520_000, 0]
