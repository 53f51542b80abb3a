"""Allocating a fiscal year's Wisconsin Fund money: s. 145.246(11)-(12) and (8)(g) (s. 145.245 likewise).

From the funds available and the eligible applications of all participating governmental units:
- experimental systems get at most 10% of the funds ((11)(d)); they need not be prorated ((12)(d)),
  so they are funded whole in the order received until the 10% is spent (a chosen reading);
- small commercial establishments get at most 10% ((11)(c)); if they ask for more, their grants are
  prorated within the 10%;
- if the rest covers all category 1, category 1 is funded and category 2 prorated ((12)(b));
  otherwise category 1 is prorated and category 2 denied ((12)(c));
- each unit's allocation is the total of its applications' awards ((11)(b)); a county that receives
  less than its total prorates on the same basis ((8)(g)), which gives the same awards.
A unit's application counts only if received before February 1 of the previous fiscal year ((7)(a)).
Prorating is exact in cents: each award is rounded down and the leftover cents go to the largest
remainders (ties by input order), so the awards never add up to more than the money.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np

from .batch import GrantResults
from .columns import EPOCH
from .engine import ParameterSet, default_parameters
from .explain import money
from .grants import PROGRAM


@dataclass
class Allocation:
    ids: list[str]
    category: np.ndarray
    requested: np.ndarray  # cents
    award: np.ndarray  # cents
    unit: list[str | None]
    status: list[str]
    note: list[str]
    funds: int
    summary: list[dict]


def prorate(amounts: np.ndarray, pool: int) -> np.ndarray:
    """Share `pool` cents in proportion to `amounts`, never more than asked, exactly `pool` in total."""
    amounts = amounts.astype(np.int64)
    total = int(amounts.sum())
    if total <= pool:
        return amounts.copy()
    if pool <= 0 or total == 0:
        return np.zeros_like(amounts)
    if int(amounts.max()) <= (2**62) // pool:
        # every amount x pool fits in int64: the same sums column-wise
        exact = amounts * pool
        floor, rem = exact // total, exact % total
    else:  # Python ints: amount x pool can exceed int64
        exact = [int(a) * pool for a in amounts]
        floor = np.array([e // total for e in exact], dtype=np.int64)
        rem = np.array([e % total for e in exact], dtype=np.int64)  # each remainder is below total, an int64
    left = pool - int(floor.sum())
    if left:
        # the cents left over go one each to the largest remainders, ties to the earlier row
        order = np.lexsort((np.arange(len(amounts)), -rem))[:left]
        floor[order] += 1
    return floor


def fiscal_year_start(label: str) -> dt.date:
    """'2025-26' or '2025' (the calendar year it starts in) -> July 1, 2025."""
    try:
        return dt.date(int(label.split("-")[0]), 7, 1)
    except ValueError:
        raise ValueError(f"fiscal year {label!r} is not like 2025-26") from None


def allocate(results: GrantResults, funds_cents: int, fiscal_year: str | None = None,
             params: ParameterSet | None = None) -> Allocation:
    params = params or default_parameters()
    cols = results.cols
    n = cols.n
    if fiscal_year:
        start = fiscal_year_start(fiscal_year)
        snap = params.snapshot(PROGRAM, start)
    else:
        days = cols.applied[results.decided]
        on = EPOCH + dt.timedelta(days=int(days.max())) if days.size else dt.date.today()
        snap = params.snapshot(PROGRAM, on)
    cites = snap["test_citations"]
    status = ["not eligible"] * n
    note = [""] * n
    for i in np.flatnonzero(~results.decided):
        status[i], note[i] = "error", str(results.error[i])
    counted = results.eligible.copy()
    unit = list(cols.gu)
    for i in np.flatnonzero(counted & np.array([u is None for u in unit], dtype=bool)):
        counted[i], status[i], note[i] = False, "error", "governmental_unit: is required for allocation"
    if fiscal_year:
        m, d = snap["gu_application_deadline"]
        deadline = dt.date(start.year, m, d)
        dl = (deadline - EPOCH).days
        late = counted & ((cols.gu_received == np.iinfo(np.int64).min) | (cols.gu_received >= dl))
        for i in np.flatnonzero(late):
            counted[i], status[i] = False, "not counted"
            note[i] = (f"the governmental unit's application was not received before {deadline:%B} {deadline.day}, {deadline.year}, "
                       f"as funds for fiscal year {start.year}-{(start.year + 1) % 100:02d} require ({cites['gu_deadline']})")
    requested = np.where(counted, results.share, 0).astype(np.int64)
    award = np.zeros(n, dtype=np.int64)
    exp = counted & cols.experimental
    biz = counted & cols.business
    exp_cap = (funds_cents * int(snap["experimental_allocation_cap"] * 10000)) // 10000
    com_cap = (funds_cents * int(snap["commercial_allocation_cap"] * 10000)) // 10000

    # experimental: whole grants in the order received, up to 10% of the funds
    used, com_used = 0, 0
    order = sorted(np.flatnonzero(exp), key=lambda i: (cols.applied[i], i))
    blocked = False
    for i in order:
        ask = int(requested[i])
        fits = not blocked and used + ask <= min(exp_cap, funds_cents) and (not biz[i] or com_used + ask <= com_cap)
        if fits:
            award[i], used = ask, used + ask
            com_used += ask if biz[i] else 0
            status[i] = "funded"
            note[i] = f"experimental system funded whole in order received ({cites['allocation']})"
        else:
            blocked = True
            status[i] = "not funded"
            note[i] = f"the 10% of funds for experimental systems ({money(exp_cap)}) is spent ({cites['allocation']})"
    rest = funds_cents - used
    com_left = com_cap - com_used

    def demand(cat: int, com_room: int) -> tuple[np.ndarray, np.ndarray, str]:
        """Each application's claim on the money; businesses prorated within the 10% cap."""
        rows = np.flatnonzero(counted & ~exp & (results.category == cat))
        ask = requested[rows].copy()
        b = biz[rows]
        capped = ""
        if ask[b].sum() > com_room:
            ask[b] = prorate(ask[b], max(com_room, 0))
            capped = f"small commercial establishments prorated within 10% of funds ({money(com_cap)})"
        return rows, ask, capped

    rows1, ask1, capped1 = demand(1, com_left)
    if ask1.sum() <= rest:
        award[rows1] = ask1
        _mark(status, note, rows1, requested, award, capped1, cites, "category 1 funded in full")
        rest2 = rest - int(ask1.sum())
        com2 = com_left - int(ask1[biz[rows1]].sum())
        rows2, ask2, capped2 = demand(2, com2)
        award[rows2] = prorate(ask2, rest2)
        msg = "category 2 funded in full" if ask2.sum() <= rest2 else "category 1 funded in full; category 2 prorated proportionally"
        _mark(status, note, rows2, requested, award, capped2, cites, msg)
    else:
        award[rows1] = prorate(ask1, rest)
        _mark(status, note, rows1, requested, award, capped1, cites, "funds do not cover category 1: category 1 prorated proportionally")
        rows2 = np.flatnonzero(counted & ~exp & (results.category == 2))
        for i in rows2:
            status[i] = "denied"
            note[i] = f"funds do not cover all category 1 systems, so category 2 applications are denied ({cites['allocation']})"
    ids = [str(x) if x is not None else "" for x in cols.id]
    category = results.category.copy()
    return Allocation(ids, category, requested, award, unit, status, note, funds_cents,
                      _summary(unit, category, requested, award, funds_cents, counted))


def _mark(status, note, rows, requested, award, capped, cites, message) -> None:
    full_note = f"{message} ({cites['allocation']})"
    part_note = "; ".join(x for x in (message, capped) if x) + f" ({cites['allocation']})"
    for i, full in zip(rows.tolist(), (award[rows] == requested[rows]).tolist()):
        status[i] = "funded" if full else "prorated"
        note[i] = full_note if full else part_note


def _summary(unit, category, requested, award, funds, counted) -> list[dict]:
    """Applications, requested and awarded per unit and category, per unit, per category and in all
    (grouped column-wise: a state's caseload is 100,000 rows)."""
    rows_in = np.flatnonzero(counted)
    units, u_code = np.unique(np.array([unit[i] for i in rows_in.tolist()], dtype=object).astype(str),
                              return_inverse=True)
    cats, c_code = np.unique(category[rows_in].astype(np.int64), return_inverse=True)
    req, aw = requested[rows_in].astype(np.int64), award[rows_in].astype(np.int64)
    groups: dict[tuple[str, str], list[int]] = {}

    def add(keys: list[tuple[str, str]], code: np.ndarray, size: int) -> None:
        count = np.bincount(code, minlength=size)
        # sums of int64 cents by integer arithmetic (bincount's weights would be floats)
        order = np.argsort(code, kind="stable")
        starts = np.concatenate([[0], np.cumsum(count)[:-1]])
        for k in np.flatnonzero(count).tolist():
            sl = order[starts[k]:starts[k] + count[k]]
            groups[keys[k]] = [int(count[k]), int(req[sl].sum()), int(aw[sl].sum())]

    cat_names = [str(c) for c in cats.tolist()]
    add([(u, c) for u in units.tolist() for c in cat_names], u_code * len(cats) + c_code, len(units) * len(cats))
    add([(u, "all") for u in units.tolist()], u_code, len(units))
    add([("ALL", c) for c in cat_names], c_code, len(cats))
    if rows_in.size:
        groups[("ALL", "all")] = [int(rows_in.size), int(req.sum()), int(aw.sum())]
    rows = []
    for (u, c), (count, r, a) in sorted(groups.items(), key=lambda kv: (kv[0][0] == "ALL", kv[0][0], kv[0][1] == "all", kv[0][1])):
        rows.append({"governmental_unit": u, "category": c, "applications": count,
                     "requested": _cents(r), "award": _cents(a)})
    total = int(aw.sum())
    rows.append({"governmental_unit": "ALL", "category": "funds available", "applications": "",
                 "requested": _cents(funds), "award": _cents(total)})
    rows.append({"governmental_unit": "ALL", "category": "unallocated", "applications": "",
                 "requested": "", "award": _cents(funds - total)})
    return rows


def _cents(c: int) -> str:
    return f"{c // 100}.{c % 100:02d}" if c >= 0 else f"-{(-c) // 100}.{(-c) % 100:02d}"
