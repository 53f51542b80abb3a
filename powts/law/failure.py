"""Failing systems: the conditions (a)-(e) and the category they put a system in.

One module for the whole project: the grant rules (one case or a million), and permits' failure
determinations and orders, all read the conditions and categories here. The categories themselves
are parameters (`category_of_condition`, cited to s. 145.246(2) / s. 145.245(4m) by date); where
several conditions apply, the lowest category number (the most serious) governs.
"""
from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from . import fields as F
from .engine import LawDateError, ParameterSet, default_parameters

LETTERS = "abcde"
PROGRAM = "wisconsin-fund-grant"  # the program whose parameters hold category_of_condition
NONE = 9  # "no category" in category lookup tables (no condition given)


def parse_conditions(field: str, raw: Any) -> list[str]:
    """Letters a-e from a JSON list or 'a;d'; sorted, each once. FieldError names the field."""
    letters = [str(x).strip().lower() for x in F.parse_list(field, raw)]
    if not letters:
        raise F.FieldError(field, "is required (letters a-e of the failure conditions, e.g. a;d)")
    for letter in letters:
        if letter not in LETTERS or len(letter) != 1:
            raise F.FieldError(field, f"{letter!r} is not a failure condition (a-e)")
    return sorted(set(letters))


def mask_of(letters: list[str]) -> int:
    """Bit 0 = (a) ... bit 4 = (e)."""
    m = 0
    for x in letters:
        m |= 1 << LETTERS.index(x)
    return m


def parse_mask(field: str, raw: Any) -> int:
    return mask_of(parse_conditions(field, raw))


def letters_of(mask: int) -> list[str]:
    return [L for b, L in enumerate(LETTERS) if mask & (1 << b)]


def category_table(category_of_condition: dict[str, int]) -> np.ndarray:
    """Category of each of the 32 sets of conditions (index = mask); NONE for the empty set."""
    return np.array([min([category_of_condition[L] for L in letters_of(m)] or [NONE]) for m in range(32)],
                    dtype=np.int8)


def category(letters: list[str], category_of_condition: dict[str, int]) -> int:
    return int(category_table(category_of_condition)[mask_of(letters)])


def _snapshot_on(on: dt.date, params: ParameterSet | None):
    """The grant law's parameters in force on `on`, or, where no program was in force, the next version's."""
    params = params or default_parameters()
    try:
        return params.snapshot(PROGRAM, on)
    except LawDateError:
        later = [p for p in params.periods[PROGRAM] if p.version and p.effective_from > on]
        if not later:
            raise
        return params.snapshot(PROGRAM, later[0].effective_from)


def category_on(letters: list[str], on: dt.date, params: ParameterSet | None = None) -> int:
    """The category under the grant law in force on `on`. Where no grant program was in force (or
    before the first one covered), the next version's categories apply: 1 = (a)-(c), 2 = (d),
    3 = (e) in every version (see README, "Where the texts are silent")."""
    return category(letters, _snapshot_on(on, params)["category_of_condition"])


def citation_on(on: dt.date, params: ParameterSet | None = None) -> str:
    """Where the categories are written, for the date (the parameter's own citation)."""
    return _snapshot_on(on, params).cite("category_of_condition")


CONDITION_WORDS = [", ".join(f"({L})" for L in letters_of(m)) for m in range(32)]
