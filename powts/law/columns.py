"""Vectorised reading of input columns (polars or numpy), falling back to fields.py value by value.

A column is a polars String Series (a CSV file read by polars), a numpy string array, or a sequence
of raw values (JSON values). Values in the usual form are converted a whole column at once (polars
with strict=False, so one bad value never aborts the file); any value the fast path cannot vouch for
is read by the reference parser in fields.py, so every path accepts and refuses the same values with
the same messages. Errors are kept per row: `errors[i]` holds the first error of row i.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import polars as pl

from . import fields as F

NAT = np.iinfo(np.int64).min  # "no date" in int64 day numbers
EPOCH = dt.date(1970, 1, 1)  # day number 0
MISSING = -1  # "no amount" in cents columns
FEW = 16  # up to this many values (one case from the web or the API) the reference parser reads each:
# numpy's string functions cost more to set up than fields.py costs per value


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


def _is_pl(values: Any) -> bool:
    return isinstance(values, pl.Series)


def distinct(values: pl.Series) -> tuple[pl.Series, np.ndarray | None]:
    """The distinct values of a column and each row's index among them, when there are few (dates,
    counts, yes/no, an absent column): a value is then checked once, not once per row, and every
    row takes its value's result. (values, None) when most values differ (money, ids)."""
    n = len(values)
    if n < 4096 or values.dtype != pl.String or values.null_count():
        return values, None
    if values.head(4096).n_unique() > 3700:  # nearly all different in the first rows: not worth it
        return values, None
    uniq = values.unique()
    if len(uniq) * 64 > n:  # many: the lookup would cost more than it saves
        return values, None
    return uniq, values.cast(pl.Enum(uniq)).to_physical().to_numpy()


def _spread(codes: np.ndarray | None, *arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """Each distinct value's result given to every row holding it (as is when not by distinct values)."""
    return arrays if codes is None else tuple(a[codes] for a in arrays)


def take(values: Sequence[Any], rows: np.ndarray) -> list[Any]:
    """The raw values of some rows, as Python values (for the reference parsers)."""
    rows = np.asarray(rows, dtype=np.int64)
    if _is_pl(values):
        return values.gather(rows).to_list() if rows.size else []
    return [values[i] for i in rows]


def _fallback(name: str, values: Sequence[Any], rows: np.ndarray, parse: Callable, out: np.ndarray,
              errors: Errors, where: np.ndarray | None, convert: Callable = lambda v: v) -> None:
    rows = np.asarray(rows, dtype=np.int64)
    if where is not None:
        rows = rows[where[rows]]  # a field that does not apply to a row is not read for it
    bad_rows, bad_msgs = [], []
    raws = take(values, rows)
    for i, raw in zip(rows, raws):
        try:
            v = parse(name, str(raw) if isinstance(raw, np.str_) else raw)
            out[i] = convert(v)
        except F.FieldError as e:
            bad_rows.append(i)
            bad_msgs.append(str(e))
    errors.add(np.asarray(bad_rows, dtype=np.int64), bad_msgs, where)


def dates(name: str, values: Sequence[Any], errors: Errors, required: bool = True,
          where: np.ndarray | None = None) -> np.ndarray:
    """int64 day numbers since 1970-01-01; NAT where blank and optional."""
    n = len(values)
    if n and _is_pl(values):
        # not stripped: a value with spaces around it is rare, and the reference parser reads it
        s, codes = distinct(values)
        parsed = s.str.strptime(pl.Date, "%Y-%m-%d", strict=False)
        good = (s.str.contains(r"^\d{4}-\d{2}-\d{2}$") & parsed.is_not_null() & (parsed.dt.year() >= 1)).fill_null(False)
        good_np = good.to_numpy()
        # nulls filled before leaving polars: a column with nulls would come out as floats (a copy)
        days = np.where(good_np, parsed.cast(pl.Int64).fill_null(NAT).to_numpy(), NAT)
        done = good_np | ((s == "").to_numpy() & (not required))
        out, done = _spread(codes, days, done)  # (fresh arrays: no column of NAT filled to be overwritten)
        todo = np.flatnonzero(~done)
    elif n > FEW and _all_str(values):
        out = np.full(n, NAT, dtype=np.int64)
        s = _as_str_array(values)
        days, good = iso_days(s)
        out[good] = days[good]
        done = good | ((s == "") & (not required))
        todo = np.flatnonzero(~done)
    else:  # few values, or not all strings: each by the reference parser
        out, todo = np.full(n, NAT, dtype=np.int64), np.arange(n)

    def parse(f, v):
        return (F.parse_date(f, v, required))
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
    if n and _is_pl(values):
        s = values  # not stripped: the reference parser reads the rare value with spaces around it
        good = s.str.contains(r"^\d{1,12}(\.\d{1,2})?$").fill_null(False)
        # exact: a decimal of scale 2 from the digits (never a float), then whole cents
        as_cents = (s.cast(pl.Decimal(16, 2), strict=False) * 100).cast(pl.Int64, strict=False)
        good_np = good.to_numpy()
        out[:] = as_cents.fill_null(MISSING).to_numpy()
        out[~good_np] = MISSING
        todo = np.flatnonzero(~(good_np | ((s == "").to_numpy() & (not required))))
    elif n > FEW and _all_str(values):
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
    else:  # (an index of every row, made only when needed: 8 MB a million)
        todo = np.arange(n)
    _fallback(name, values, todo, lambda f, v: F.parse_cents(f, v, required), out, errors, where,
              lambda c: MISSING if c is None else c)
    return out


def memo(name: str, values: Sequence[Any], parse: Callable, errors: Errors, fill: Any, dtype,
         where: np.ndarray | None = None) -> np.ndarray:
    """For columns with few distinct values (yes/no, a type, a set of letters): the reference parser
    runs once per distinct value, every row is a dictionary lookup."""
    n = len(values)
    out = np.empty(n, dtype=dtype)
    rows = range(n)
    if n and _is_pl(values) and values.dtype == pl.String:
        uniq = values.unique(maintain_order=True)
        if len(uniq) <= 10_000:
            parsed, bad = [], []
            for k, v in enumerate(uniq.to_list()):
                try:
                    parsed.append(parse(name, v))
                except F.FieldError as e:
                    parsed.append(fill)
                    bad.append((k, str(e)))
            if len(uniq) <= 8 and dtype is bool and not bad and not values.null_count():
                # yes/no columns, all values readable: one pass marks the rows whose value reads as true
                # (an equality per true value: is_in over a list costs 4x one equality)
                trues = [values == v for v, p in zip(uniq.to_list(), parsed) if p]
                out[:] = False if not trues else trues[0].to_numpy() if len(trues) == 1 \
                    else np.logical_or.reduce([t.to_numpy() for t in trues])
                return out
            if len(uniq) <= 8:
                # kind columns: one comparison per distinct value beats a dictionary lookup
                for k, v in enumerate(uniq.to_list()):
                    same = (values == v).to_numpy() if v is not None else values.is_null().to_numpy()
                    out[same] = parsed[k]
                    if any(b == k for b, _ in bad):
                        hit = np.flatnonzero(same)
                        errors.add(hit, [dict(bad)[k]] * len(hit), where)
                return out
            if values.null_count():
                codes = values.replace_strict(uniq, pl.int_range(len(uniq), eager=True), return_dtype=pl.Int32).to_numpy()
            else:  # an enum of the distinct values: each row's position among them, 7x cheaper than replace_strict
                codes = values.cast(pl.Enum(uniq)).to_physical().to_numpy()
            out[:] = np.asarray(parsed, dtype=dtype)[codes]
            for k, msg in bad:
                hit = np.flatnonzero(codes == k)
                errors.add(hit, [msg] * len(hit), where)
            return out
        values = values.to_list()
    if isinstance(values, np.ndarray) and values.dtype.kind == "U" and n:
        # string column: one vectorised comparison per distinct value (up to 40), then a loop for the rest
        todo = np.ones(n, dtype=bool)
        for _ in range(40):
            first = int(np.argmax(todo))
            if not todo[first]:
                break
            v = values[first]
            same = values == v
            try:
                out[same] = parse(name, str(v))
            except F.FieldError as e:
                out[same] = fill
                hit = np.flatnonzero(same)
                errors.add(hit, [str(e)] * len(hit), where)
            todo &= ~same
        rows = np.flatnonzero(todo).tolist()
    seq = values
    cache: dict[Any, tuple[Any, str | None]] = {}
    bad_rows, bad_msgs = [], []
    for i in rows:
        v = seq[i]
        if isinstance(v, np.str_):
            v = str(v)
        try:
            hit = cache[v]
        except (KeyError, TypeError):
            try:
                hit = (parse(name, v), None)
            except F.FieldError as e:
                hit = (fill, str(e))
            try:
                cache[v] = hit
            except TypeError:  # unhashable (a JSON list): not cached
                pass
        out[i] = hit[0]
        if hit[1] is not None:
            bad_rows.append(i)
            bad_msgs.append(hit[1])
    errors.add(np.asarray(bad_rows, dtype=np.int64), bad_msgs, where)
    return out


def bools(name: str, values: Sequence[Any], errors: Errors, default: bool = False,
          where: np.ndarray | None = None) -> np.ndarray:
    if _is_pl(values) and len(values) > FEW and values.dtype == pl.String and not values.null_count():
        # the usual file writes only "true" and "false": two comparisons settle every row, where
        # finding the distinct values first (memo) costs a hash of every row (about 11 -> 6 ms a million)
        yes = values == "true"
        if (yes | (values == "false")).all() and F.parse_bool(name, "true") and not F.parse_bool(name, "false"):
            return yes.to_numpy()
    return memo(name, values, lambda f, v: F.parse_bool(f, v, default), errors, default, bool, where)


def ints(name: str, values: Sequence[Any], errors: Errors, default: int, minimum: int,
         where: np.ndarray | None = None) -> np.ndarray:
    n = len(values)
    if n and _is_pl(values):
        s, codes = distinct(values)
        s = s.str.strip_chars()
        digits = s.str.contains(r"^\d{1,15}$").fill_null(False)
        d = digits.to_numpy()
        value = np.full(len(s), default, dtype=np.int64)
        value[d] = s.filter(digits).cast(pl.Int64).to_numpy()
        out, done = _spread(codes, value, (d & (value >= minimum)) | (s == "").to_numpy())
        todo = np.flatnonzero(~done)
    elif n > FEW and _all_str(values):
        out = np.full(n, default, dtype=np.int64)
        s = _as_str_array(values)
        sl = np.strings.str_len(s)
        digits = np.strings.isdigit(s) & (sl > 0) & (sl <= 15)
        if digits.any():
            out[digits] = s[digits].astype(np.int64)
        good = (digits & (out >= minimum)) | (s == "")
        todo = np.flatnonzero(~good)
    else:
        out, todo = np.full(n, default, dtype=np.int64), np.arange(n)
    _fallback(name, values, todo, lambda f, v: F.parse_int(f, v, default, minimum), out, errors, where)
    return out


def numbers(name: str, values: Sequence[Any], errors: Errors, required: bool = True, positive: bool = False,
            where: np.ndarray | None = None) -> np.ndarray:
    n = len(values)
    if n and _is_pl(values):
        s, codes = distinct(values)
        s = s.str.strip_chars()
        good = s.str.contains(r"^\d+(\.\d*)?$").fill_null(False) & (s.str.len_chars() <= 15)
        g = good.to_numpy()
        value = np.full(len(s), np.nan)
        value[g] = s.filter(good).cast(pl.Float64).to_numpy()
        if positive:
            g &= value > 0
        out, done = _spread(codes, value, g | ((s == "").to_numpy() & (not required)))
        todo = np.flatnonzero(~done)
    elif n > FEW and _all_str(values):
        out = np.full(n, np.nan)
        s = _as_str_array(values)
        whole, _, frac = np.strings.partition(s, ".")
        good = (np.strings.str_len(whole) > 0) & np.strings.isdigit(whole) & (np.strings.isdigit(frac) | (frac == ""))
        good &= np.strings.str_len(s) <= 15
        if good.any():
            out[good] = s[good].astype(np.float64)
        if positive:
            good &= out > 0
        todo = np.flatnonzero(~(good | ((s == "") & (not required))))
    else:
        out, todo = np.full(n, np.nan), np.arange(n)
    _fallback(name, values, todo, lambda f, v: F.parse_number(f, v, required, positive), out, errors, where,
              lambda v: np.nan if v is None else v)
    return out


def texts(values: Sequence[Any]) -> np.ndarray | pl.Series:
    """Free text (ids, names), stripped; blank is None (a polars column keeps "" for blank)."""
    if _is_pl(values):
        return values.str.strip_chars().fill_null("")
    out = np.empty(len(values), dtype=object)
    if len(values) > FEW and _all_str(values):
        s = _as_str_array(values)
        out[:] = s.tolist()
        out[s == ""] = None
        return out
    out[:] = [None if F.is_blank(v) else str(v).strip() for v in values]
    return out


def blank(values: np.ndarray | pl.Series) -> np.ndarray:
    """Where a texts() column is blank."""
    if _is_pl(values):
        return (values == "").to_numpy()
    return np.equal(values, None).astype(bool)


def objects(values: np.ndarray | pl.Series) -> np.ndarray:
    """A texts() column as Python values, None where blank (for the few-row paths)."""
    if _is_pl(values):
        out = np.empty(len(values), dtype=object)
        out[:] = [v or None for v in values.to_list()]
        return out
    return values


def series(values: np.ndarray | pl.Series, name: str) -> pl.Series:
    """A texts() column as a polars String Series, "" where blank (for writing)."""
    if _is_pl(values):
        return values.alias(name)
    return pl.Series(name, [v or "" for v in values.tolist()], dtype=pl.String)


def positions(rows: np.ndarray) -> np.ndarray:
    """Each entry's position within its row, for entries sorted by row (0, 1, 2, 0, 1, 0...): one pass,
    where a search of every entry among all would cost n log n."""
    n = len(rows)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    first = np.empty(n, dtype=bool)
    first[0] = True
    np.not_equal(rows[1:], rows[:-1], out=first[1:])
    starts = np.flatnonzero(first)
    return np.arange(n, dtype=np.int64) - np.repeat(starts, np.diff(np.append(starts, n)))


def add_years(days: np.ndarray, years: np.ndarray) -> np.ndarray:
    """Same month and day `years` later (Feb 29 -> Feb 28), on int64 day numbers."""
    d = np.where(days == NAT, 0, days).astype("datetime64[D]")
    month_start = d.astype("datetime64[M]")
    day = (d - month_start.astype("datetime64[D]")).astype(np.int64)  # 0-based
    month_index = month_start.astype(np.int64) + 12 * years
    y = month_index // 12 + 1970
    leap = (y % 4 == 0) & ((y % 100 != 0) | (y % 400 == 0))
    feb29 = ((month_index % 12) == 1) & (day == 28) & ~leap
    target = month_index.astype("datetime64[M]").astype("datetime64[D]").astype(np.int64) + day
    return np.where(feb29, target - 1, target)
