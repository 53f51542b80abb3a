"""Allocation and prorating for a fiscal year: s. 145.246(11)-(12), (8)(g), (7)(a)."""
from __future__ import annotations

import numpy as np

from powts.law.allocation import allocate, prorate
from powts.law.batch import evaluate_rows


def app(i, category_letter="a", kind="residence", table="5000", gu="Dane", experimental=False, received="2024-01-15"):
    row = {"id": f"A{i}", "applicant_type": kind, "failure_conditions": category_letter,
           "failure_determined_on": "2024-08-01", "applied_on": "2024-09-01", "system_installed_on": "1970-01-01",
           "funding_table_amount": table, "governmental_unit": gu, "experimental": experimental,
           "gu_application_received_on": received}
    if kind == "residence":
        row["annual_family_income"] = "20000"
    else:
        row.update(annual_gross_revenue="100000", daily_flow_gpd="1000")
    return row


def run(rows, funds_dollars, fy=None):
    return allocate(evaluate_rows(rows), funds_dollars * 100, fy)


def awards(a):
    return {i: int(x) // 100 for i, x in zip(a.ids, a.award)}


def test_enough_money_funds_everything():
    a = run([app(1), app(2, "d")], 100_000)
    assert awards(a) == {"A1": 5000, "A2": 5000}


def test_category_1_funded_category_2_prorated():
    """(12)(b): funds cover category 1 but not category 2."""
    a = run([app(1), app(2, "d", table="4000"), app(3, "d", table="2000")], 8000)
    assert awards(a) == {"A1": 5000, "A2": 2000, "A3": 1000}
    assert a.status == ["funded", "prorated", "prorated"]


def test_category_1_prorated_category_2_denied():
    """(12)(c): funds do not cover category 1."""
    a = run([app(1, table="6000"), app(2, table="2000"), app(3, "d")], 4000)
    assert awards(a) == {"A1": 3000, "A2": 1000, "A3": 0}
    assert a.status[2] == "denied"


def test_small_commercial_at_most_10_percent():
    """(11)(c)."""
    a = run([app(1, kind="business", table="7000"), app(2, table="5000")], 20_000)
    assert awards(a) == {"A1": 2000, "A2": 5000}


def test_experimental_at_most_10_percent_whole_in_order():
    """(11)(d), (12)(d): experimental systems are not prorated (chosen: whole, in order received)."""
    rows = [app(1, experimental=True, table="1500"), app(2, experimental=True, table="1000"), app(3)]
    a = run(rows, 20_000)
    assert awards(a) == {"A1": 1500, "A2": 0, "A3": 5000}


def test_units_allocated_by_total_state_share():
    """(11)(b), (8)(g): each unit's total is the sum of its applications' awards."""
    rows = [app(1, gu="Dane"), app(2, "d", gu="Dane"), app(3, "d", gu="Lincoln")]
    a = run(rows, 9000)
    by_unit = {(s["governmental_unit"], s["category"]): s["award"] for s in a.summary}
    assert by_unit[("Dane", "all")] == "7000.00" and by_unit[("Lincoln", "all")] == "2000.00"
    assert by_unit[("ALL", "all")] == "9000.00"


def test_unit_application_deadline_february_1_of_previous_fiscal_year():
    """(7)(a): for fiscal year 2025-26 the unit's application must arrive before Feb 1, 2025."""
    rows = [app(1, received="2025-01-31"), app(2, received="2025-02-01")]
    a = run(rows, 100_000, "2025-26")
    assert awards(a) == {"A1": 5000, "A2": 0}
    assert a.status[1] == "not counted" and "February 1, 2025" in a.note[1]


def test_ineligible_applications_get_nothing():
    a = run([app(1, "e")], 100_000)
    assert awards(a) == {"A1": 0} and a.status == ["not eligible"]


def test_prorate_exact_in_cents():
    out = prorate(np.array([100, 100, 100]), 200)
    assert out.sum() == 200 and sorted(out.tolist()) == [66, 67, 67]
    assert prorate(np.array([5, 5]), 100).tolist() == [5, 5]


def test_prorate_leftover_cents_go_to_the_largest_remainders_earlier_row_first():
    """(12)(b) "proportionally", in whole cents: each award is its exact share rounded down, and the cents left
    over go one each to the largest remainders (ties to the earlier application); the same when amount x funds
    exceeds 64 bits (the column-wise path would overflow there, so Python integers are used)."""
    # 92 asked, 61 to share: floors 6, 20, 13, 20 (59) with remainders 58, 51, 24, 51 (in 92nds): the two cents
    # left go to the first row (58) and, of the two rows tied at 51, the earlier one
    assert prorate(np.array([10, 31, 20, 31]), 61).tolist() == [7, 21, 13, 20]
    b = 2**40  # amount x funds is about 2**80: floors b/2, 0, b/2 with remainders b/2, b + 1, b/2; one cent left
    assert prorate(np.array([b, 1, b]), b + 1).tolist() == [b // 2, 1, b // 2]
