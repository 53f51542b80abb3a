"""`--columns id,eligible,amount` builds only the columns it writes (speed): the same values as
the full decision frame's, without making a category or version column to drop."""
import pytest

from powts.law import render
from powts.law.batch import evaluate_rows

ROWS = [
    {"id": "A1", "applicant_type": "residence", "failure_conditions": "a;d", "failure_determined_on": "2024-03-15",
     "applied_on": "2024-04-01", "system_installed_on": "1970-05-01", "annual_family_income": "38000",
     "funding_table_amount": "5200"},
    {"id": "A2", "applicant_type": "residence", "failure_conditions": "e", "failure_determined_on": "2024-03-15",
     "applied_on": "2024-04-01", "system_installed_on": "1990-05-01", "annual_family_income": "38000",
     "funding_table_amount": "5200"},
    {"id": "A3", "applicant_type": "residence", "applied_on": "not a date"},
]


@pytest.mark.parametrize("columns", [("id", "eligible", "amount"), ("version", "id"), ("category",),
                                     ("id", "eligible", "amount", "category", "version")])
def test_the_columns_asked_for_hold_the_full_frames_values(columns):
    r = evaluate_rows(ROWS)
    assert render.decision_frame(r, columns).equals(render.decision_frame(r).select(columns))


def test_id_eligible_amount_do_not_read_the_category_or_the_version():
    r = evaluate_rows(ROWS)
    expected = render.decision_frame(r).select("id", "eligible", "amount")
    r.category = r.seg = r.decided = None  # (old code: built category and version columns from these)
    assert render.decision_frame(r, ("id", "eligible", "amount")).equals(expected)
    assert expected["eligible"].to_list() == [True, False, False]
