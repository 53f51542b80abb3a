"""Wisconsin Fund grant decisions for many applications at once (numpy).

The same rules as grants.py, written over columns: each test is a boolean array, the amount an
int64 array of cents. Law versions are chosen per row by the date received: the dates where any
parameter changes cut the timeline into segments, each with constant parameters, and every row
takes its segment's values (or its segment's "no program in force" / "not covered" error).
Reasons come as a bitmask of failed tests per row; the words are rendered from the same templates
as the one-case path (for all rows with `reasons()`, or one row with `explanation(i)`).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from . import columns as C
from . import fields as F
from .engine import LawDateError, ParameterSet, Snapshot, default_parameters
from .explain import Test, money
from .funding_tables import table_amount_cents
from .grants import APPLICANT_TYPES, LETTERS, PROGRAM

TESTS = ["category", "installed_before", "principal_residence", "small_commercial", "income_limit",
         "revenue_limit", "not_sewered", "determined_before_work", "application_window", "one_grant",
         "not_intentional", "support_lien", "minimum_grant"]
BIT = {k: 1 << i for i, k in enumerate(TESTS)}
RESIDENCE_TESTS = [k for k in TESTS if k not in ("small_commercial", "revenue_limit")]
BUSINESS_TESTS = [k for k in TESTS if k not in ("principal_residence", "income_limit", "minimum_grant")]
EPOCH = dt.date(1970, 1, 1)


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


def _column(cols: dict[str, Sequence[Any]], name: str, n: int) -> Sequence[Any]:
    # a column the file does not have reads as blank in every row (vectorised, like a blank CSV column)
    return cols[name] if name in cols else np.full(n, "", dtype="U1")


def read_columns(cols: dict[str, Sequence[Any]], n: int) -> GrantColumns:
    """Raw input columns to typed arrays; fields are read in the one-case path's order."""
    E = C.Errors(n)
    get = lambda name: _column(cols, name, n)  # noqa: E731
    ids = C.texts(get("id"))
    missing_id = np.equal(ids, None).astype(bool)
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
    gu_received = C.dates("gu_application_received_on", get("gu_application_received_on"), E, required=False)
    residence = ~business
    income = C.cents("annual_family_income", get("annual_family_income"), E, where=residence)
    revenue = C.cents("annual_gross_revenue", get("annual_gross_revenue"), E, where=business)
    flow = C.numbers("daily_flow_gpd", get("daily_flow_gpd"), E, where=business)
    table = C.cents("funding_table_amount", get("funding_table_amount"), E, required=False)
    need = table == C.MISSING
    comp_raw = get("components")
    components = np.full(n, None, dtype=object)
    design_flow = np.full(n, np.nan)
    if need.any():
        idx = np.flatnonzero(need)
        bad, msgs = [], []
        for i in idx:
            try:
                names = [str(c).strip() for c in F.parse_list("components", comp_raw[i])]
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
        dfl = get("design_flow_gpd")
        sub = [dfl[i] for i in idx]
        design_flow[idx] = C.numbers("design_flow_gpd", sub, _Sub(E, idx), positive=True)
    return GrantColumns(n, ids, E, business, cond_mask, determined, applied, installed, work, sewer, principal,
                        units, experimental, prior, intentional, lien, agreement, gu, gu_received, income,
                        revenue, flow, table, components, design_flow)


class _Sub:
    """Errors of a subset of rows, reported into the whole batch's Errors."""

    def __init__(self, errors: C.Errors, idx: np.ndarray):
        self.errors, self.idx = errors, idx

    def add(self, rows, messages, where=None):
        self.errors.add(self.idx[np.asarray(rows, dtype=np.int64)], messages)


def _condition_mask(field: str, v: Any) -> int:
    """Bitmask of failure conditions (bit 0 = a ... bit 4 = e), as the one-case path reads them."""
    letters = [str(x).strip().lower() for x in F.parse_list(field, v)]
    if not letters:
        raise F.FieldError(field, "is required (letters a-e of the failure conditions, e.g. a;d)")
    m = 0
    for x in letters:
        if x not in LETTERS or len(x) != 1:
            raise F.FieldError(field, f"{x!r} is not a failure condition (a-e)")
        m |= 1 << LETTERS.index(x)
    return m


def _conditions(values: Sequence[Any], E: C.Errors) -> np.ndarray:
    return C.memo("failure_conditions", values, _condition_mask, E, 0, np.uint8)


# -- segments of constant law ---------------------------------------------------------------------

@dataclass
class Segments:
    starts: np.ndarray  # int64 day numbers
    snaps: list[Snapshot | None]
    messages: list[str]  # error message where snaps[i] is None

    def of(self, days: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.starts, days, side="right") - 1  # -1 = before coverage

    def array(self, fn, dtype, fill=0) -> np.ndarray:
        """One value per segment (fill where no program), index with seg + 1 (slot 0 = uncovered)."""
        return np.array([fill] + [fn(s) if s else fill for s in self.snaps], dtype=dtype)


def segments(params: ParameterSet, program: str = PROGRAM) -> Segments:
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

    def version(self, i: int) -> str | None:
        if not self.decided[i]:
            return None
        return self.segs.snaps[self.seg[i] - 1].version

    def versions(self) -> np.ndarray:
        names = np.array([None] + [s.version if s else None for s in self.segs.snaps], dtype=object)
        out = names[self.seg]
        out[~self.decided] = None
        return out

    def reason_table(self) -> tuple[list[list[tuple[str, str]]], np.ndarray]:
        """Failed tests of every row as (test, citation): row i's are table[index[i]].

        Built once per distinct (failed tests, law segment) pair, so a million rows cost one pass;
        rows that were not decided point at [("input", "")] (their words are in `error`)."""
        width = len(self.segs.snaps) + 1
        key = self.failed.astype(np.int64) * width + self.seg
        key[~self.decided] = (1 << len(TESTS)) * width  # one slot for "not decided"
        present = np.zeros((1 << len(TESTS)) * width + 1, dtype=bool)
        present[key] = True
        uniq = np.flatnonzero(present)
        remap = np.cumsum(present) - 1
        table = []
        for k in uniq:
            mask, seg = divmod(int(k), width)
            snap = self.segs.snaps[seg - 1] if seg and mask < (1 << len(TESTS)) else None
            table.append([(t, snap["test_citations"][t]) for t in TESTS if mask & BIT[t]] if snap else [("input", "")])
        return table, remap[key]

    def reason_codes(self) -> list[list[tuple[str, str]]]:
        """reason_table as one list per row."""
        table, index = self.reason_table()
        return [table[j] for j in index.tolist()]

    def tests(self, i: int) -> list[Test]:
        return _row_tests(self, i)

    def reasons(self, i: int) -> list[dict]:
        if not self.decided[i]:
            return [{"test": "input", "citation": "", "text": self.error[i]}]
        return [t.reason() for t in self.tests(i) if not t.passed]

    def explanation(self, i: int) -> str:
        return self.render(i)[1]

    def render(self, i: int) -> tuple[list[dict], str]:
        """(reasons, explanation) of row i, building its tests once."""
        if not self.decided[i]:
            return [{"test": "input", "citation": "", "text": self.error[i]}], f"Not decided: {self.error[i]}"
        from .render import explanation_text

        tests, arithmetic, outcome = _row_words(self, i)
        reasons = [{"test": k, "citation": cite, "text": sentence} for k, cite, passed, sentence in tests if not passed]
        return reasons, explanation_text(tests, arithmetic, outcome)


def evaluate(cols: GrantColumns, params: ParameterSet | None = None) -> GrantResults:
    params = params or default_parameters()
    segs = segments(params)
    n = cols.n
    ok = ~cols.errors.any
    all_ok = bool(ok.all())
    applied = cols.applied if all_ok else np.where(ok, cols.applied, 0)
    seg = None
    if n and all_ok:
        # all rows in one segment (the usual batch): no per-row search
        lo, hi = segs.of(np.array([applied.min(), applied.max()]))
        if lo == hi:
            seg = np.full(n, lo + 1, dtype=np.int64)
    if seg is None:
        seg = segs.of(applied) + 1  # 0 = before coverage
    in_force_seg = segs.array(lambda s: True, bool, False)
    if all_ok and n and int(seg[0]) == int(seg[-1]) and (seg == seg[0]).all():
        in_force = np.full(n, bool(in_force_seg[seg[0]]))
    else:
        in_force = in_force_seg[seg] & ok
    error = cols.errors.msg.copy() if not in_force.all() or cols.components.any() else cols.errors.msg
    # rows whose date falls outside every version, or in "no program in force"
    for i in np.flatnonzero(ok & ~in_force):
        s = seg[i] - 1
        msg = segs.messages[s] if s >= 0 else _uncovered(params, cols.applied[i])
        error[i] = f"applied_on {_day(cols.applied[i]).isoformat()}: {msg}"
    decided = ok & in_force
    # one segment for every row (the usual case): parameters are scalars, no per-row gathers
    single = n > 0 and int(seg.min()) == int(seg.max())

    def P(fn, dtype=np.int64, fill=0):
        per_segment = segs.array(fn, dtype, fill)
        return per_segment[seg[0]] if single else per_segment[seg]
    residence = ~cols.business

    # table amount: given, or from SPS 387.30 components per distinct (components, flow band, segment)
    table = cols.table.copy()
    need = decided & (table == C.MISSING)
    if need.any():
        idx = np.flatnonzero(need)
        bounds = segs.snaps[seg[idx[0]] - 1]["flow_band_upper_gpd"]
        band = np.searchsorted(np.asarray(bounds, dtype=np.float64), cols.design_flow[idx], side="left")
        keys = np.array([f"{c}|{b}|{s}" for c, b, s in zip(cols.components[idx], band, seg[idx])], dtype=object)
        uniq, inv = np.unique(keys, return_inverse=True)
        amounts = np.empty(len(uniq), dtype=np.int64)
        bad_key = np.zeros(len(uniq), dtype=bool)
        msgs = {}
        for j, k in enumerate(uniq):
            comp, b, s = k.split("|")
            snap = segs.snaps[int(s) - 1]
            flow = float(bounds[int(b)]) if int(b) < len(bounds) else float(bounds[-1]) + 1
            try:
                amounts[j] = table_amount_cents(snap, comp.split(";"), flow)[0]
            except F.FieldError as e:
                bad_key[j], msgs[j] = True, str(e)
        table[idx] = amounts[inv]
        for pos in np.flatnonzero(bad_key[inv]):
            i = idx[pos]
            error[i] = msgs[inv[pos]]
            decided[i] = False

    # category: the lowest category number among the conditions present
    # category of each of the 32 possible sets of conditions, per segment: one lookup per row
    def category_table(snap):
        cat_of = snap["category_of_condition"]
        return [min([cat_of[L] for b, L in enumerate(LETTERS) if m & (1 << b)] or [9]) for m in range(32)]
    cat_lut = np.array([[9] * 32] + [category_table(x) if x else [9] * 32 for x in segs.snaps], dtype=np.int8)
    ok_lut = np.array([[False] * 32] + [[c in x["eligible_categories"] for c in category_table(x)] if x else [False] * 32
                                        for x in segs.snaps], dtype=bool)
    mask = cols.cond_mask & 31
    if single:
        category, eligible_cat = cat_lut[seg[0]][mask], ok_lut[seg[0]][mask]
    else:
        category, eligible_cat = cat_lut[seg, mask], ok_lut[seg, mask]

    failed = np.zeros(n, dtype=np.uint16)

    def fail(key: str, passed: np.ndarray, applies: np.ndarray | None = None) -> None:
        bad = np.logical_not(passed)
        if applies is not None:
            bad &= applies
        np.bitwise_or(failed, np.uint16(BIT[key]), out=failed, where=bad)

    fail("category", eligible_cat)
    cutoff = P(lambda s: (s["installed_before"] - EPOCH).days)
    fail("installed_before", cols.installed < cutoff)
    fail("principal_residence", cols.principal, residence)
    flow_limit = P(lambda s: s["small_commercial_flow_below_gpd"], np.float64)
    fail("small_commercial", cols.flow < flow_limit, cols.business)
    fail("income_limit", cols.income <= P(lambda s: _c(s["residence_income_limit"])), residence)
    fail("revenue_limit", cols.revenue <= P(lambda s: _c(s["business_revenue_limit"])), cols.business)
    fail("not_sewered", ~cols.sewer)
    fail("determined_before_work", (cols.work == C.NAT) | (cols.determined < cols.work))
    last_day = add_years_lut(cols.determined, P(lambda s: s["application_window_years"]))
    fail("application_window", (cols.determined <= cols.applied) & (cols.applied <= last_day))
    fail("one_grant", ~cols.prior)
    fail("not_intentional", ~cols.intentional)
    fail("support_lien", ~(cols.lien & ~cols.agreement))

    share = state_share(cols, P, table, residence)
    fail("minimum_grant", share >= P(lambda s: _c(s["minimum_grant_residence"])), residence)

    failed[~decided] = 0
    share[~decided] = 0
    eligible = decided & (failed == 0)
    amount = np.where(eligible, share, 0)
    category[(~decided) | (category == 9)] = 0
    return GrantResults(cols, segs, seg, decided, eligible, amount, share, table, category, failed, error)


def state_share(cols: GrantColumns, P, table: np.ndarray, residence: np.ndarray) -> np.ndarray:
    """(6)(c)-(d): lesser of $7,000 per unit and the table amount, less 30% of income over $32,000."""
    exp = cols.experimental
    any_exp = bool(exp.any())
    per_unit = P(lambda s: _c(s["max_share_per_unit"]))
    if any_exp:
        per_unit = np.where(exp, P(lambda s: _c(s["experimental_max_share_per_unit"])), per_unit)
    base = per_unit * cols.units
    np.minimum(base, table, out=base)
    reduce = residence
    if any_exp:
        reduce = residence & np.where(exp, P(lambda s: bool(s["experimental_income_reduction"]), bool, False), True)
    threshold = P(lambda s: _c(s["income_reduction_threshold"]))
    bp = P(lambda s: int(s["income_reduction_rate"] * 10000))
    # 30% of the income above the threshold, half up to the cent; zero at or below the threshold
    cut = cols.income - threshold
    np.maximum(cut, 0, out=cut)
    cut *= bp
    cut += 5000
    cut //= 10000
    cut *= reduce
    base -= cut
    return np.maximum(base, 0, out=base)


def add_years(days: np.ndarray, years: np.ndarray) -> np.ndarray:
    """Same month and day `years` later (Feb 29 -> Feb 28), on int64 day numbers."""
    d = np.where(days == C.NAT, 0, days).astype("datetime64[D]")
    month_start = d.astype("datetime64[M]")
    day = (d - month_start.astype("datetime64[D]")).astype(np.int64)  # 0-based
    month_index = month_start.astype(np.int64) + 12 * years
    y = month_index // 12 + 1970
    leap = (y % 4 == 0) & ((y % 100 != 0) | (y % 400 == 0))
    feb29 = ((month_index % 12) == 1) & (day == 28) & ~leap
    target = month_index.astype("datetime64[M]").astype("datetime64[D]").astype(np.int64) + day
    return np.where(feb29, target - 1, target)


def add_years_lut(days: np.ndarray, years) -> np.ndarray:
    """add_years through a lookup table over the span of dates present (a few thousand days)."""
    if np.ndim(years) or days.size == 0:
        return add_years(days, np.broadcast_to(years, days.shape))
    real = days != C.NAT
    if not real.any():
        return add_years(days, np.full(days.shape, years))
    lo, hi = int(days[real].min()), int(days[real].max())
    if hi - lo > 200_000:  # dates spread over centuries: compute directly
        return add_years(days, np.full(days.shape, years))
    span = np.arange(lo, hi + 1, dtype=np.int64)
    lut = add_years(span, np.full(span.shape, years))
    # NAT rows clip to the first entry; callers only read rows with a date
    return np.take(lut, days - lo, mode="clip")


def _c(amount) -> int:
    return int(amount * 100)


def _uncovered(params: ParameterSet, day: int) -> str:
    try:
        params.period(PROGRAM, _day(day))
    except LawDateError as e:
        return str(e)
    return "not covered"  # pragma: no cover


# -- words for one row (render.py writes them; the same code fills templates for many rows) ---------

def _row_words(r: GrantResults, i: int):
    from .render import Shape, grant_words

    c = r.cols
    snap = r.segs.snaps[r.seg[i] - 1]
    units, table, business = int(c.units[i]), int(r.table[i]), bool(c.business[i])
    exp = bool(c.experimental[i])
    per_unit = _c(snap["experimental_max_share_per_unit"] if exp else snap["max_share_per_unit"])
    cap = per_unit * units
    base = min(cap, table)
    threshold = _c(snap["income_reduction_threshold"])
    income = int(c.income[i])
    reduce_applies = (not business) and (snap["experimental_income_reduction"] if exp else True)
    reduced = bool(reduce_applies and income > threshold)
    cut = ((income - threshold) * int(snap["income_reduction_rate"] * 10000) + 5000) // 10000 if reduced else 0
    has_work = c.work[i] != C.NAT
    determined = _day(c.determined[i])
    v = {
        "conditions": ", ".join(f"({L})" for b, L in enumerate(LETTERS) if c.cond_mask[i] & (1 << b)),
        "category": str(int(r.category[i])), "installed": _day(c.installed[i]).isoformat(),
        "flow": f"{float(c.flow[i]):,g}", "income": money(max(income, 0)), "revenue": money(max(int(c.revenue[i]), 0)),
        "determined": determined.isoformat(), "work": _day(c.work[i]).isoformat() if has_work else "",
        "applied": _day(c.applied[i]).isoformat(),
        "last_day": F.add_years(determined, snap["application_window_years"]).isoformat(),
        "share": money(int(r.share[i])), "cap": money(cap), "units": str(units), "table": money(table),
        "base": money(base), "cut": money(cut),
    }
    if c.table[i] == C.MISSING:
        v["table_words"] = table_amount_cents(snap, c.components[i].split(";"), float(c.design_flow[i]))[1] + " "
    shape = Shape(business, int(r.failed[i]), exp, units > 1, reduced, reduced and base - cut < 0, bool(has_work),
                  bool(c.lien[i]), bool(r.eligible[i]))
    return grant_words(snap, shape, v)


def _row_tests(r: GrantResults, i: int) -> list[Test]:
    tests, _, _ = _row_words(r, i)
    return [Test(k, cite, passed, sentence) for k, cite, passed, sentence in tests]


def evaluate_rows(rows: list[dict[str, Any]], params: ParameterSet | None = None) -> GrantResults:
    """Convenience: a list of row dicts (as from JSON Lines) through the batch path."""
    keys = set()
    for r in rows:
        keys.update(r)
    cols = {k: [r.get(k) for r in rows] for k in keys}
    return evaluate(read_columns(cols, len(rows)), params)
