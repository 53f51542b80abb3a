"""A yes/no column of a large file is read in one comparison per value that reads as true (speed),
and reads every value as the reference parser does, defaults and errors included."""
import numpy as np
import polars as pl
import pytest

from powts.law import columns as C
from powts.law import fields as F

VALUES = ["true", "false", "", "Yes", "NO", " true "]


def _reference(values, default):
    return np.array([F.parse_bool("x", v, default) for v in values])


@pytest.mark.parametrize("default", [False, True])
def test_each_value_reads_as_the_reference_parser_reads_it(default):
    values = [VALUES[i % len(VALUES)] for i in range(5000)]
    errors = C.Errors(len(values))
    out = C.bools("x", pl.Series(values, dtype=pl.String), errors, default=default)
    assert np.array_equal(out, _reference(values, default)) and not errors.any.any()


def test_a_bad_value_is_that_rows_error_naming_the_field():
    values = ["true", "maybe", "false"] * 2000
    errors = C.Errors(len(values))
    out = C.bools("sewer_available", pl.Series(values, dtype=pl.String), errors)
    assert errors.any.tolist() == [v == "maybe" for v in values]
    assert errors.msg[1].startswith("sewer_available") and out[0] and not out[2]


def test_a_true_false_column_costs_two_comparisons_and_no_search_for_its_distinct_values(monkeypatch):
    """The usual file writes only "true" and "false": two comparisons read every row; finding the
    distinct values first (a hash of every row) cost more than both, measured."""
    compared, searched = [], []
    real_eq, real_unique = pl.Series.__eq__, pl.Series.unique

    def eq(self, other):
        compared.append(other)
        return real_eq(self, other)

    def unique(self, *args, **kwargs):
        searched.append(self.name)
        return real_unique(self, *args, **kwargs)
    values = pl.Series(["true", "false"] * 5000, dtype=pl.String)
    monkeypatch.setattr(pl.Series, "__eq__", eq)
    monkeypatch.setattr(pl.Series, "unique", unique)
    out = C.bools("x", values, C.Errors(len(values)))
    monkeypatch.undo()
    assert out.tolist() == [True, False] * 5000
    assert compared == ["true", "false"] and searched == []  # old: the distinct values, then one comparison
