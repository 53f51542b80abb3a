"""Vectorised reading of input columns (numpy), falling back to fields.py value by value.

A column is a sequence of raw values (CSV strings, or JSON values). When every value is a plain
string in the usual form, numpy converts the whole column at once; any value it cannot vouch for
is read by the reference parser in fields.py, so both paths accept and refuse the same values with
the same messages. Errors are kept per row: `errors[i]` holds the first error of row i.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from . import fields as F

NAT = np.iinfo(np.int64).min  # "no date" in int64 day numbers
MISSING = -1  # "no amount" in cents columns


class Errors:
    """First error per row, in the order fields are read (the same order as the one-case path)."""

    def __init__(self, n: int):
        self.msg = np.full(n, None, dtype=object)
        self.any = np.zeros(n, dtype=bool)

    def add(self, rows: np.ndarray, messages: Sequence[str], where: np.ndarray | None = None) -> None:
        for i, m in zip(rows, messages):
            if not self.any[i] and (where is None or where[i]):
                self.msg[i] = m
                self.any[i] = True


def _all_str(values: Sequence[Any]) -> bool:
    if isinstance(values, np.ndarray):
        return values.dtype.kind == "U"
    return set(map(type, values)) == {str}


def _as_str_array(values: Sequence[Any]) -> np.ndarray:
    return np.strings.strip(np.asarray(values, dtype=np.str_))


def _fallback(name: str, values: Sequence[Any], rows: np.ndarray, parse: Callable, out: np.ndarray,
              errors: Errors, where: np.ndarray | None, convert: Callable = lambda v: v) -> None:
    rows = np.asarray(rows, dtype=np.int64)
    if where is not None:
        rows = rows[where[rows]]  # a field that does not apply to a row is not read for it
    bad_rows, bad_msgs = [], []
    for i in rows:
        try:
            v = parse(name, values[i])
            out[i] = convert(v)
        except F.FieldError as e:
            bad_rows.append(i)
            bad_msgs.append(str(e))
    errors.add(np.asarray(bad_rows, dtype=np.int64), bad_msgs, where)


def dates(name: str, values: Sequence[Any], errors: Errors, required: bool = True,
          where: np.ndarray | None = None) -> np.ndarray:
    """int64 day numbers since 1970-01-01; NAT where blank and optional."""
    n = len(values)
    out = np.full(n, NAT, dtype=np.int64)
    todo = np.arange(n)
    if n and _all_str(values):
        s = _as_str_array(values)
        days, good = iso_days(s)
        out[good] = days[good]
        done = good | ((s == "") & (not required))
        todo = np.flatnonzero(~done)
    parse = (lambda f, v: F.parse_date(f, v, required))
    _fallback(name, values, todo, parse, out, errors, where,
              lambda d: NAT if d is None else (np.datetime64(d, "D").astype(np.int64)))
    return out


_MONTH_DAYS = np.array([0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31], dtype=np.int64)


def iso_days(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """'YYYY-MM-DD' strings to day numbers since 1970-01-01, from their code points (no per-value
    parsing); `good` is False for anything else, which the reference parser then reads."""
    n = len(s)
    if s.dtype.kind != "U" or n == 0:
        return np.zeros(n, dtype=np.int64), np.zeros(n, dtype=bool)
    width = s.dtype.itemsize // 4
    if width < 10:
        return np.zeros(n, dtype=np.int64), np.zeros(n, dtype=bool)
    v = np.ascontiguousarray(s).view(np.uint32).reshape(n, width)
    d = v[:, [0, 1, 2, 3, 5, 6, 8, 9]].astype(np.int64) - 48
    good = ((d >= 0) & (d <= 9)).all(axis=1) & (v[:, 4] == 45) & (v[:, 7] == 45)
    if width > 10:
        good &= (v[:, 10:] == 0).all(axis=1)
    y = d[:, 0] * 1000 + d[:, 1] * 100 + d[:, 2] * 10 + d[:, 3]
    m = d[:, 4] * 10 + d[:, 5]
    day = d[:, 6] * 10 + d[:, 7]
    good &= (y >= 1) & (m >= 1) & (m <= 12) & (day >= 1)
    leap = (y % 4 == 0) & ((y % 100 != 0) | (y % 400 == 0))
    good &= day <= _MONTH_DAYS[np.clip(m, 0, 12)] + ((m == 2) & leap)
    # days from the civil date (H. Hinnant's algorithm), proleptic Gregorian like datetime.date
    yy = y - (m <= 2)
    era = yy // 400
    yoe = yy - era * 400
    doy = (153 * ((m + 9) % 12) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468, good


def cents(name: str, values: Sequence[Any], errors: Errors, required: bool = True,
          where: np.ndarray | None = None) -> np.ndarray:
    n = len(values)
    out = np.full(n, MISSING, dtype=np.int64)
    todo = np.arange(n)
    if n and _all_str(values):
        s = _as_str_array(values)
        whole, _, frac = np.strings.partition(s, ".")
        wl = np.strings.str_len(whole)
        good = (wl > 0) & (wl <= 12) & np.strings.isdigit(whole) & (np.strings.str_len(frac) <= 2)
        good &= np.strings.isdigit(frac) | (frac == "")
        # "38000." (a dot with nothing after) is refused by the reference parser: let it decide
        good &= ~((frac == "") & np.strings.endswith(s, "."))
        if good.any():
            out[good] = whole[good].astype(np.int64) * 100 + np.strings.ljust(frac[good], 2, "0").astype(np.int64)
        todo = np.flatnonzero(~(good | ((s == "") & (not required))))
    _fallback(name, values, todo, lambda f, v: F.parse_cents(f, v, required), out, errors, where,
              lambda c: MISSING if c is None else c)
    return out


_TRUE = np.array(sorted(F.TRUE))
_FALSE = np.array(sorted(F.FALSE))


def bools(name: str, values: Sequence[Any], errors: Errors, default: bool = False,
          where: np.ndarray | None = None) -> np.ndarray:
    n = len(values)
    out = np.full(n, default, dtype=bool)
    todo = np.arange(n)
    if n and _all_str(values):
        s = np.strings.lower(_as_str_array(values))
        t, f = np.isin(s, _TRUE), np.isin(s, _FALSE)
        blank = s == ""
        out[t] = True
        out[f & ~blank] = False
        todo = np.flatnonzero(~(t | f))
    _fallback(name, values, todo, lambda fld, v: F.parse_bool(fld, v, default), out, errors, where)
    return out


def ints(name: str, values: Sequence[Any], errors: Errors, default: int, minimum: int,
         where: np.ndarray | None = None) -> np.ndarray:
    n = len(values)
    out = np.full(n, default, dtype=np.int64)
    todo = np.arange(n)
    if n and _all_str(values):
        s = _as_str_array(values)
        sl = np.strings.str_len(s)
        digits = np.strings.isdigit(s) & (sl > 0) & (sl <= 15)
        if digits.any():
            out[digits] = s[digits].astype(np.int64)
        good = (digits & (out >= minimum)) | (s == "")
        todo = np.flatnonzero(~good)
    _fallback(name, values, todo, lambda f, v: F.parse_int(f, v, default, minimum), out, errors, where)
    return out


def numbers(name: str, values: Sequence[Any], errors: Errors, required: bool = True, positive: bool = False,
            where: np.ndarray | None = None) -> np.ndarray:
    n = len(values)
    out = np.full(n, np.nan)
    todo = np.arange(n)
    if n and _all_str(values):
        s = _as_str_array(values)
        whole, _, frac = np.strings.partition(s, ".")
        good = (np.strings.str_len(whole) > 0) & np.strings.isdigit(whole) & (np.strings.isdigit(frac) | (frac == ""))
        good &= np.strings.str_len(s) <= 15
        if good.any():
            out[good] = s[good].astype(np.float64)
        if positive:
            good &= out > 0
        todo = np.flatnonzero(~(good | ((s == "") & (not required))))
    _fallback(name, values, todo, lambda f, v: F.parse_number(f, v, required, positive), out, errors, where,
              lambda v: np.nan if v is None else v)
    return out


def texts(values: Sequence[Any]) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    if len(values) and _all_str(values):
        s = _as_str_array(values)
        out[:] = s.tolist()
        out[s == ""] = None
        return out
    out[:] = [None if F.is_blank(v) else str(v).strip() for v in values]
    return out
