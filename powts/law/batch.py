"""Wisconsin Fund grant decisions (s. 145.245 / s. 145.246): the one computation, over columns.

Each test is a boolean array, the amount an int64 array of cents; one application is a batch of
one (grants.py). Law versions are chosen per row by the date received: the dates where any
parameter changes cut the timeline into segments, each with constant parameters, and every row
takes its segment's values (or its segment's "no program in force" / "not covered" error).
`evaluate` keeps a trace of its intermediate arrays (cap, base, income reduction, last day of the
window...); render.py writes the words from that trace, never from a second copy of the arithmetic.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from . import columns as C
from . import failure
from . import fields as F
from . import grant_formula
from .engine import LawDateError, ParameterSet, Snapshot, default_parameters
from .explain import Test
from .funding_tables import table_amount_cents
from .columns import EPOCH
from .grant_tests import BIT, TESTS

PROGRAM = "wisconsin-fund-grant"
APPLICANT_TYPES = {"residence", "business"}


def _day(d: int) -> dt.date:
    return EPOCH + dt.timedelta(days=int(d))


@dataclass
class GrantColumns:
    n: int
    id: np.ndarray
    errors: C.Errors
    business: np.ndarray
    cond_mask: np.ndarray
    determined: np.ndarray
    applied: np.ndarray
    installed: np.ndarray
    work: np.ndarray
    sewer: np.ndarray
    principal: np.ndarray
    units: np.ndarray
    experimental: np.ndarray
    prior: np.ndarray
    intentional: np.ndarray
    lien: np.ndarray
    agreement: np.ndarray
    gu: np.ndarray
    gu_received: np.ndarray
    income: np.ndarray
    revenue: np.ndarray
    flow: np.ndarray
    table: np.ndarray
    components: np.ndarray  # object: ';'-joined component names where the table is computed
    design_flow: np.ndarray
    allowable: np.ndarray | None = None  # int64 cents of the recorded allowable costs (MISSING: none recorded)


def _column(cols: dict[str, Sequence[Any]], name: str, n: int, polars_columns: bool) -> Sequence[Any]:
    # a column the file does not have reads as blank in every row (vectorised, like a blank CSV column)
    if name in cols:
        return cols[name]
    if polars_columns:
        return pl.repeat("", n, eager=True, dtype=pl.String)
    return np.full(n, "", dtype="U1")


def read_columns(cols: dict[str, Sequence[Any]], n: int) -> GrantColumns:
    """Raw input columns to typed arrays; fields are read in the one-case path's order."""
    E = C.Errors(n)
    polars_columns = any(isinstance(v, pl.Series) for v in cols.values())

    def get(name):
        return _column(cols, name, n, polars_columns)
    ids = C.texts(get("id"))
    missing_id = C.blank(ids)
    E.add(np.flatnonzero(missing_id), ["id: is required"] * int(missing_id.sum()))

    # applicant_type
    business = C.memo("applicant_type", get("applicant_type"),
                      lambda f, v: F.parse_choice(f, v, APPLICANT_TYPES) == "business", E, False, bool)

    cond_mask = _conditions(get("failure_conditions"), E)
    determined = C.dates("failure_determined_on", get("failure_determined_on"), E)
    applied = C.dates("applied_on", get("applied_on"), E)
    installed = C.dates("system_installed_on", get("system_installed_on"), E)
    work = C.dates("work_started_on", get("work_started_on"), E, required=False)
    sewer = C.bools("sewer_available", get("sewer_available"), E)
    principal = C.bools("principal_residence", get("principal_residence"), E, default=True)
    units = C.ints("units_served", get("units_served"), E, default=1, minimum=1)
    experimental = C.bools("experimental", get("experimental"), E)
    prior = C.bools("prior_grant", get("prior_grant"), E)
    intentional = C.bools("intentionally_caused", get("intentionally_caused"), E)
    lien = C.bools("on_support_lien_docket", get("on_support_lien_docket"), E)
    agreement = C.bools("has_payment_agreement", get("has_payment_agreement"), E)
    gu = C.texts(get("governmental_unit"))
    gu_received = C.dates("gu_application_received_on", cols["gu_application_received_on"], E, required=False) \
        if "gu_application_received_on" in cols else np.full(n, C.NAT, dtype=np.int64)  # absent: blank, optional
    residence = ~business
    income = C.cents("annual_family_income", get("annual_family_income"), E, where=residence)
    revenue = C.cents("annual_gross_revenue", get("annual_gross_revenue"), E, where=business)
    flow = C.numbers("daily_flow_gpd", get("daily_flow_gpd"), E, where=business)
    table = C.cents("funding_table_amount", get("funding_table_amount"), E, required=False)
    allowable = C.cents("allowable_cost", cols["allowable_cost"], E, required=False) if "allowable_cost" in cols else None
    if allowable is not None and not (allowable != C.MISSING).any():
        allowable = None  # none recorded (the usual file): the kernel reads one value, not a column of them
    need = table == C.MISSING
    comp_raw = get("components")
    components = np.full(n, None, dtype=object)
    design_flow = np.full(n, np.nan)
    if need.any():
        idx = np.flatnonzero(need)
        bad, msgs = [], []
        for i, raw in zip(idx, C.take(comp_raw, idx)):
            try:
                names = [str(c).strip() for c in F.parse_list("components", raw)]
            except F.FieldError as e:
                bad.append(i)
                msgs.append(str(e))
                continue
            if not names:
                bad.append(i)
                msgs.append("funding_table_amount: is required (or give components and design_flow_gpd)")
            else:
                components[i] = ";".join(names)
        E.add(np.asarray(bad, dtype=np.int64), msgs)
        sub = C.take(get("design_flow_gpd"), idx)
        design_flow[idx] = C.numbers("design_flow_gpd", sub, _Sub(E, idx), positive=True)
    return GrantColumns(n, ids, E, business, cond_mask, determined, applied, installed, work, sewer, principal,
                        units, experimental, prior, intentional, lien, agreement, gu, gu_received, income,
                        revenue, flow, table, components, design_flow, allowable)


class _Sub:
    """Errors of a subset of rows, reported into the whole batch's Errors."""

    def __init__(self, errors: C.Errors, idx: np.ndarray):
        self.errors, self.idx = errors, idx

    def add(self, rows, messages, where=None):
        self.errors.add(self.idx[np.asarray(rows, dtype=np.int64)], messages)


def _conditions(values: Sequence[Any], E: C.Errors) -> np.ndarray:
    return C.memo("failure_conditions", values, failure.parse_mask, E, 0, np.uint8)


# -- segments of constant law ---------------------------------------------------------------------

@dataclass
class Segments:
    starts: np.ndarray  # int64 day numbers
    snaps: list[Snapshot | None]
    messages: list[str]  # error message where snaps[i] is None
    law: tuple | None = None  # the kernel's arrays of parameters (_law_arrays), built on first use

    def of(self, days: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.starts, days, side="right") - 1  # -1 = before coverage

    def array(self, fn, dtype, fill=0) -> np.ndarray:
        """One value per segment (fill where no program), index with seg + 1 (slot 0 = uncovered)."""
        return np.array([fill] + [fn(s) if s else fill for s in self.snaps], dtype=dtype)


_SEGMENTS: dict[tuple[int, str], tuple[ParameterSet, Segments]] = {}


def segments(params: ParameterSet, program: str = PROGRAM) -> Segments:
    """The program's segments of constant law (computed once per parameter set)."""
    hit = _SEGMENTS.get((id(params), program))
    if hit and hit[0] is params:
        return hit[1]
    segs = _segments(params, program)
    _SEGMENTS[(id(params), program)] = (params, segs)
    return segs


def _segments(params: ParameterSet, program: str) -> Segments:
    starts, snaps, messages = [], [], []
    for day in params.breakpoints(program):
        starts.append((day - EPOCH).days)
        try:
            snaps.append(params.snapshot(program, day))
            messages.append("")
        except LawDateError as e:
            snaps.append(None)
            messages.append(str(e))
    return Segments(np.array(starts, dtype=np.int64), snaps, messages)


# -- evaluation -------------------------------------------------------------------------------------

@dataclass
class GrantResults:
    cols: GrantColumns
    segs: Segments
    seg: np.ndarray  # segment index + 1 (0 = not covered)
    decided: np.ndarray  # bool: parsed and a version in force
    eligible: np.ndarray
    amount: np.ndarray  # int64 cents
    share: np.ndarray
    table: np.ndarray
    category: np.ndarray  # int8, 0 = none
    failed: np.ndarray  # uint16 bitmask of failed tests
    error: np.ndarray  # object: row error or None
    trace: dict[str, Any]  # the intermediate values of the computation, for the words

    def version(self, i: int) -> str | None:
        if not self.decided[i]:
            return None
        return self.segs.snaps[self.seg[i] - 1].version

    def versions(self) -> np.ndarray:
        names = np.array([None] + [s.version if s else None for s in self.segs.snaps], dtype=object)
        out = names[self.seg]
        out[~self.decided] = None
        return out

    def reason_table(self) -> tuple[list[Sequence[tuple[str, str]]], np.ndarray]:
        """Failed tests of every row as (test, citation): row i's are table[index[i]].

        A row's key (its index) is its failed tests and law segment, or one slot for the rows not
        decided (they point at [("input", "")]; their words are in `error`); with one segment and
        every row decided, the failed tests alone. The reasons are built once per key present, so a
        million rows cost one count of their keys; a key no row has gets an empty tuple."""
        tests, width = 1 << len(TESTS), len(self.segs.snaps) + 1
        if self.cols.n and not self.seg.strides[0] and self.decided.all():
            key, size, seg = self.failed, tests, int(self.seg[0])  # (no key array: no pass to build it)
        else:
            # int32 keys (fewer bytes to write and read than int64; (1 << 13) * width is far below 2**31)
            key = self.failed.astype(np.int32)
            key *= np.int32(width)
            key += self.seg.astype(np.int32) if self.seg.strides[0] else self.seg[:1].astype(np.int32)  # ([:1]: 0 rows)
            if not self.decided.all():
                key[~self.decided] = tests * width  # one slot for "not decided"
            size, seg = tests * width + 1, None
        pairs = [[(t, s["test_citations"][t]) for t in TESTS] if s else None for s in self.segs.snaps]
        bits = [BIT[t] for t in TESTS]
        table: list[Sequence[tuple[str, str]]] = [()] * size
        for k in np.flatnonzero(_counts(key, size)).tolist():
            mask, at = (k, seg) if seg is not None else divmod(k, width)
            cited = pairs[at - 1] if at and mask < tests else None
            table[k] = [p for p, b in zip(cited, bits) if mask & b] if cited else [("input", "")]
        return table, key

    def words(self, rows=None):
        """The words of the given rows (all by default) as a polars frame: see render.grant_frame."""
        from .render import grant_frame

        return grant_frame(self, rows, explain=False, detail=True, reason_list=False)

    def tests(self, i: int) -> list[Test]:
        from .render import case_words

        return [Test(*t) for t in case_words(self.words([i]).row(0, named=True))[0]]

    def reasons(self, i: int) -> list[dict]:
        return self.render(i)[0]

    def explanation(self, i: int) -> str:
        return self.render(i)[1]

    def render(self, i: int) -> tuple[list[dict], str]:
        """(reasons, explanation) of row i."""
        from .render import case_words

        _, _, _, reasons, text = case_words(self.words([i]).row(0, named=True))
        return reasons, text


def _counts(key: np.ndarray, size: int, block: int = 1 << 16) -> np.ndarray:
    """np.bincount(key, minlength=size), a block of rows at a time: bincount converts its input to
    intp, and a million keys at once are 8 MB of fresh memory (3.2 -> 1.9 ms a million here)."""
    counts = np.zeros(size, dtype=np.int64)
    for a in range(0, key.shape[0], block):
        counts += np.bincount(key[a:a + block], minlength=size)
    return counts


def evaluate(cols: GrantColumns, params: ParameterSet | None = None) -> GrantResults:
    params = params or default_parameters()
    segs = segments(params)
    n = cols.n
    ok = ~cols.errors.any
    all_ok = bool(ok.all())
    applied = cols.applied if all_ok else np.where(ok, cols.applied, 0)
    seg = None
    if n and all_ok:
        # all rows in one segment (the usual batch): one value for every row, no per-row search
        lo, hi = segs.of(np.array([applied.min(), applied.max()]))
        if lo == hi:
            seg = np.array([lo + 1], dtype=np.int64)
    if seg is None:
        seg = segs.of(applied) + 1  # 0 = before coverage
    in_force_seg = segs.array(lambda s: True, bool, False)
    if len(seg) == 1 and in_force_seg[seg[0]]:
        decided, late = ok, np.empty(0, dtype=np.int64)  # one segment, in force: every row read is decided
    else:
        in_force = in_force_seg[seg] & ok if len(seg) > 1 else np.zeros(n, dtype=bool)
        late = np.flatnonzero(ok & ~in_force)
        decided = ok & in_force
    missing_table = cols.table == C.MISSING
    any_missing = bool(missing_table.any())
    error = cols.errors.msg.copy() if late.size or any_missing else cols.errors.msg
    # rows whose date falls outside every version, or in "no program in force"
    for i in late:
        s = seg[i if len(seg) > 1 else 0] - 1
        msg = segs.messages[s] if s >= 0 else _uncovered(params, cols.applied[i])
        error[i] = f"applied_on {_day(cols.applied[i]).isoformat()}: {msg}"
    trace: dict[str, Any] = {}
    row_seg = np.broadcast_to(seg, (n,))  # a view: one value for every row when seg has one

    # table amount: given, or from SPS 387.30 components per distinct (components, design flow, segment)
    table = cols.table
    need = decided & missing_table if any_missing else None
    if need is not None and need.any():
        table = table.copy()
        idx = np.flatnonzero(need)
        keys = np.array([f"{c}|{f!r}|{s}" for c, f, s in zip(cols.components[idx], cols.design_flow[idx].tolist(),
                                                               row_seg[idx])], dtype=object)
        uniq, inv = np.unique(keys, return_inverse=True)
        amounts = np.empty(len(uniq), dtype=np.int64)
        words = np.empty(len(uniq), dtype=object)
        bad_key = np.zeros(len(uniq), dtype=bool)
        msgs = {}
        for j, k in enumerate(uniq):
            comp, flow, s = k.split("|")
            try:
                amounts[j], words[j] = table_amount_cents(segs.snaps[int(s) - 1], comp.split(";"), float(flow))
            except F.FieldError as e:
                bad_key[j], msgs[j] = True, str(e)
        table[idx] = amounts[inv]
        for pos in np.flatnonzero(bad_key[inv]):
            i = idx[pos]
            error[i] = msgs[inv[pos]]
            decided[i] = False
        good = ~bad_key[inv]
        trace["table_words"] = (idx[good], words[inv[good]])  # rows whose table amount was computed

    allowable = np.array([C.MISSING], dtype=np.int64) if cols.allowable is None else cols.allowable
    years, law = _law_arrays(segs)
    ld_lut, ld_row, ld_lo = _window_table(cols.determined, decided, years)
    out = grant_formula.decide(
        seg, decided, cols.business, cols.cond_mask, cols.installed, cols.determined, cols.applied, cols.work,
        cols.sewer, cols.principal, cols.units, cols.experimental, cols.prior, cols.intentional, cols.lien,
        cols.agreement, cols.income, cols.revenue, cols.flow, table, allowable, ld_lut, ld_row, ld_lo, *law)
    category, failed, share, eligible, amount = (out.pop(k) for k in ("category", "failed", "share", "eligible",
                                                                      "amount"))
    trace.update(out, cost_limit=np.broadcast_to(out["cost_limit"], (n,)),
                 cost_capped=np.broadcast_to(out["cost_capped"], (n,)))
    return GrantResults(cols, segs, row_seg, decided, eligible, amount, share, table, category, failed, error, trace)


def _law_arrays(segs: Segments) -> tuple[np.ndarray, tuple]:
    """The parameters of every segment as the kernel's arrays (built once per parameter set: one
    application pays only its own row): window years, then the law arguments of grant_formula.decide."""
    hit = segs.law
    if hit is not None:
        return hit

    def per_segment(fn, dtype=np.int64):
        return segs.array(fn, dtype, 0)

    # category: the lowest category number among the conditions present, one lookup per row
    cat_lut = np.array([[failure.NONE] * 32] + [failure.category_table(x["category_of_condition"]) if x
                                                 else [failure.NONE] * 32 for x in segs.snaps], dtype=np.int8)
    ok_lut = np.array([[False] * 32] + [np.isin(cat_lut[k + 1], x["eligible_categories"]) if x else [False] * 32
                                        for k, x in enumerate(segs.snaps)], dtype=bool)
    law = (
        per_segment(lambda s: (s["installed_before"] - EPOCH).days),
        per_segment(lambda s: s["small_commercial_flow_below_gpd"], np.float64),
        per_segment(lambda s: _c(s["residence_income_limit"])), per_segment(lambda s: _c(s["business_revenue_limit"])),
        per_segment(lambda s: _c(s["max_share_per_unit"])),
        per_segment(lambda s: _c(s["experimental_max_share_per_unit"])),
        per_segment(lambda s: bool(s["experimental_income_reduction"]), bool),
        per_segment(lambda s: _c(s["income_reduction_threshold"])),
        per_segment(lambda s: int(s["income_reduction_rate"] * 10000)),
        per_segment(lambda s: int(s["allowable_cost_share"] * 10000)),
        per_segment(lambda s: _c(s["minimum_grant_residence"])), cat_lut, ok_lut, failure.NONE)
    segs.law = (per_segment(lambda s: s["application_window_years"]), law)
    return segs.law


def _window_table(determined: np.ndarray, decided: np.ndarray, years: np.ndarray):
    """add_years(day, years) for every day in the span of the decided rows' determination dates,
    one row per distinct window length: (table, row of each segment's length, first day)."""
    lengths, row = np.unique(years, return_inverse=True)
    if not decided.any():
        return np.zeros((len(lengths), 1), dtype=np.int64), row.astype(np.int64), 0
    if decided.all():  # (a plain minimum and maximum: with where= each costs a masked pass)
        lo, hi = int(determined.min()), int(determined.max())
    else:
        lo = int(np.min(determined, where=decided, initial=np.iinfo(np.int64).max))
        hi = int(np.max(determined, where=decided, initial=C.NAT))
    span = np.arange(lo, hi + 1, dtype=np.int64)
    table = np.stack([C.add_years(span, np.full(span.shape, k)) for k in lengths.tolist()])
    return table, row.astype(np.int64), lo


def _c(amount) -> int:
    return int(amount * 100)


def _uncovered(params: ParameterSet, day: int) -> str:
    try:
        params.period(PROGRAM, _day(day))
    except LawDateError as e:
        return str(e)
    return "not covered"  # pragma: no cover


def evaluate_rows(rows: list[dict[str, Any]], params: ParameterSet | None = None) -> GrantResults:
    """Convenience: a list of row dicts (as from JSON Lines) through the batch path."""
    keys: dict[str, None] = {}
    for r in rows:
        keys.update(dict.fromkeys(r))
    cols = {k: [r.get(k) for r in rows] for k in keys}
    return evaluate(read_columns(cols, len(rows)), params)
