"""Well contamination compensation, Wis. Stat. s. 281.75: who may claim, proof, income, award.

`read_columns` reads a file's columns a whole column at a time (the bounded parsers of fields.py
for any value the fast path cannot vouch for, so both accept and refuse the same values with the
same messages); `evaluate` decides claims over columns (numpy): each test a boolean array, the award
one vectorised formula (`award`) whose intermediate arrays are kept as a trace; one claim is a batch
of one. The words are written from that trace column-wise (well_render.py), with the citations of
the parameter file (`test_citations`). `pay_in_order` applies (5)(f), the order of payment when the
money is short. Money is integer cents; each percentage is rounded half up to the cent.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from . import columns as C
from . import fields as F
from .batch import EPOCH, segments
from .engine import LawDateError, ParameterSet, default_parameters
from .explain import FailedTests, Test
from .well_choices import CLAIMANT_TYPES, CLAIMANTS, KINDS, SUPPLY_USES, USES, WELL_KINDS  # noqa: F401 (read from here too)

PROGRAM = "well-compensation"


@dataclass
class WellClaim:
    id: str
    claimant_type: str
    supply_use: str
    well_kind: str
    dwelling_units: int | None
    sample_dates: list[dt.date]
    lab_certified: bool
    department_advisory: bool
    annual_family_income: int
    eligible_costs: list[tuple[str | None, int]]  # (item, cents); item None when a total was given
    claimed_on: dt.date
    completed_on: dt.date | None = None  # (5)(c): the day the department had a complete claim


@dataclass
class WellDecision(FailedTests):
    id: str
    eligible: bool
    award: int
    tests: list[Test] = field(default_factory=list)
    arithmetic: str = ""
    error: str | None = None
    claimed_on: dt.date | None = None
    explanation: str = ""
    completed_on: dt.date | None = None


def item_name(raw: Any) -> str:
    """'New Well', 'new well', 'new-well' and 'new_well' name the same cost item."""
    return "_".join(str(raw).strip().lower().replace("-", " ").split())


def _costs(raw: Any, items: dict[str, str]) -> list[tuple[str | None, int]]:
    """A total (number), a JSON list of {item, amount}, or in CSV 'new_well:8000;pump:1500'."""
    if F.is_blank(raw):
        raise F.FieldError("eligible_costs", "is required (an amount, or items with amounts)")
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return [(None, F.parse_cents("eligible_costs", raw))]
    if isinstance(raw, str) and ":" not in raw:
        return [(None, F.parse_cents("eligible_costs", raw))]
    entries = raw if isinstance(raw, list) else [dict(zip(("item", "amount"), p.split(":", 1))) for p in F.parse_list("eligible_costs", raw)]
    out = []
    for e in entries:
        if not isinstance(e, dict) or "item" not in e or "amount" not in e:
            raise F.FieldError("eligible_costs", f"{e!r} is not an item with an amount")
        item = item_name(e["item"])
        if item not in items:
            raise F.FieldError("eligible_costs", f"{item!r} is not an eligible cost under s. 281.75(7)(c) ({', '.join(items)})")
        out.append((item, F.parse_cents("eligible_costs", e["amount"])))
    if not out:
        raise F.FieldError("eligible_costs", "is required (an amount, or items with amounts)")
    return out


def parse_claim(raw: dict[str, Any], params: ParameterSet | None = None) -> WellClaim:
    """One row, value by value: the reference the columnar reading (read_columns) agrees with."""
    params = params or default_parameters()
    if F.is_blank(raw.get("id")):
        raise F.FieldError("id", "is required")
    claimant = F.parse_choice("claimant_type", raw.get("claimant_type"), CLAIMANT_TYPES)
    use = F.parse_choice("supply_use", raw.get("supply_use"), SUPPLY_USES)
    kind = F.parse_choice("well_kind", raw.get("well_kind"), WELL_KINDS)
    units = None
    if use == "residential":
        units = F.parse_int("dwelling_units", raw.get("dwelling_units"), minimum=1)
    elif not F.is_blank(raw.get("dwelling_units")):
        units = F.parse_int("dwelling_units", raw.get("dwelling_units"), minimum=0)
    dates = [F.parse_date("sample_dates", d) for d in F.parse_list("sample_dates", raw.get("sample_dates"))]
    claimed_on = F.parse_date("claimed_on", raw.get("claimed_on"))
    completed_on = F.parse_date("completed_on", raw.get("completed_on"), required=False)
    if completed_on is not None and completed_on < claimed_on:
        raise F.FieldError("completed_on", _completed_before(completed_on, claimed_on))
    try:
        items = params.snapshot(PROGRAM, claimed_on)["eligible_cost_items"]
    except LawDateError:
        items = {}
    return WellClaim(
        id=str(raw["id"]).strip(), claimant_type=claimant, supply_use=use, well_kind=kind, dwelling_units=units,
        sample_dates=sorted(dates),
        lab_certified=F.parse_bool("lab_certified", raw.get("lab_certified")),
        department_advisory=F.parse_bool("department_advisory", raw.get("department_advisory")),
        annual_family_income=F.parse_cents("annual_family_income", raw.get("annual_family_income")),
        eligible_costs=_costs(raw.get("eligible_costs"), items) if items else [(None, 0)],
        claimed_on=claimed_on, completed_on=completed_on,
    )


# -- the computation, over columns -----------------------------------------------------------------

def award(costs: np.ndarray, income: np.ndarray, *, cap: int, rate_bp: int, threshold: int,
          reduction_bp: int) -> dict[str, np.ndarray]:
    """(7)(a)-(b): the rate (75%) of eligible costs up to the cap ($12,000), half up to the cent,
    less the reduction rate (30%) of the income above the threshold ($45,000), half up, not below
    zero. Returns every intermediate array (the trace the words are written from)."""
    counted = np.minimum(costs, cap)
    base = (counted * rate_bp + 5000) // 10000
    reduced = income > threshold
    cut = np.where(reduced, (np.maximum(income - threshold, 0) * reduction_bp + 5000) // 10000, 0)
    below_zero = base - cut < 0
    return {"counted": counted, "base": base, "reduced": reduced, "cut": cut, "below_zero": below_zero,
            "award": np.maximum(base - cut, 0)}



# -- reading whole columns ------------------------------------------------------------------------

TESTS = ["claimant", "private_water_supply", "well_kind", "contamination_proof", "income_limit"]
_DATES = r"^(\d{4}-\d{2}-\d{2}(;\d{4}-\d{2}-\d{2})*)?$"
_AMOUNT = r"\d{1,12}(\.\d{1,2})?"
_ITEMS = rf"^[A-Za-z][A-Za-z_ -]*:{_AMOUNT}(;[A-Za-z][A-Za-z_ -]*:{_AMOUNT})*$"


@dataclass
class WellColumns:
    n: int
    id: list[str] | pl.Series  # as written out: stripped where the row is read, as given where it is not
    errors: C.Errors
    claimant: np.ndarray  # int8: the claimant type's index in CLAIMANTS
    residential: np.ndarray
    kind: np.ndarray  # int8: the well kind's index in KINDS
    units: np.ndarray  # int64, 0 where not given
    claimed: np.ndarray  # int64 day numbers
    completed: np.ndarray  # int64 day numbers, NAT where not yet complete (or not given)
    lab: np.ndarray
    advisory: np.ndarray
    income: np.ndarray  # int64 cents
    samples: pl.DataFrame  # row, day (int32 day numbers), in the order given
    costs: pl.DataFrame  # row, pos, item (None where a total was given), cents


def _series(values) -> pl.Series | None:
    """A CSV column as polars strings (None for JSON values, which the reference parsers read)."""
    return values if isinstance(values, pl.Series) and values.dtype == pl.String else None


def _sample_dates(values, n: int, E: C.Errors) -> pl.DataFrame:
    """sample_dates: 'YYYY-MM-DD;YYYY-MM-DD' split and read column-wise; any other form row by row."""
    fast = np.zeros(n, dtype=bool)
    frames = []
    s = _series(values)
    if s is not None and n:
        fast = s.str.contains(_DATES).fill_null(False).to_numpy()
        rows = np.flatnonzero(fast)
        long = pl.DataFrame({"row": rows, "text": s.gather(rows)}).with_columns(pl.col("text").str.split(";")) \
            .explode("text").filter(pl.col("text") != "")
        # a batch's samples fall on a few thousand days: each day's text is read once
        texts, codes = C.distinct(long["text"])
        day = texts.str.strptime(pl.Date, "%Y-%m-%d", strict=False)
        good = (day.is_not_null() & (day.dt.year() >= 1)).fill_null(False)
        if codes is not None:
            day, good = day.gather(codes), good.gather(codes)
        bad_rows = long.filter(~good)["row"].unique().to_numpy()
        fast[bad_rows] = False  # a date that does not exist: the reference parser says which
        fast_rows = long["row"].to_numpy()
        keep = fast[fast_rows]
        frames.append(pl.DataFrame({"row": long["row"].filter(keep), "day": day.cast(pl.Int32).filter(keep)}))
    slow = np.flatnonzero(~fast)
    rows, days, bad, msgs = [], [], [], []
    for i, raw in zip(slow, C.take(values, slow)):
        try:
            for d in F.parse_list("sample_dates", raw):
                days.append((F.parse_date("sample_dates", d) - EPOCH).days)
                rows.append(int(i))
        except F.FieldError as e:
            bad.append(i)
            msgs.append(str(e))
    E.add(np.asarray(bad, dtype=np.int64), msgs)
    frames.append(pl.DataFrame({"row": pl.Series(rows, dtype=pl.Int64), "day": pl.Series(days, dtype=pl.Int32)}))
    return pl.concat([f.with_columns(pl.col("row").cast(pl.Int64)) for f in frames])


def _eligible_costs(values, n: int, E: C.Errors, where: np.ndarray, items: dict[str, str]) -> pl.DataFrame:
    """eligible_costs: a total, or 'item:amount;item:amount' with items in a person's words, read
    column-wise; any other form (JSON lists, amounts with $ or commas) row by row by `_costs`."""
    fast = np.zeros(n, dtype=bool)
    frames = []
    s = _series(values)
    if s is not None and n and where.any():
        total = s.str.contains(rf"^{_AMOUNT}$").fill_null(False).to_numpy() & where
        listed = s.str.contains(_ITEMS).fill_null(False).to_numpy() & where
        rows = np.flatnonzero(total)
        frames.append(pl.DataFrame({"row": rows, "pos": np.zeros(len(rows), dtype=np.int64),
                                    "item": pl.repeat(None, len(rows), dtype=pl.String, eager=True),
                                    "cents": _cents(s.gather(rows))}))
        rows = np.flatnonzero(listed)
        long = pl.DataFrame({"row": rows, "text": s.gather(rows)}).with_columns(pl.col("text").str.split(";")) \
            .explode("text").with_columns(parts=pl.col("text").str.split_exact(":", 1)).unnest("parts")
        exploded = long["row"].to_numpy()  # in row order: an entry's position is its distance from the row's first
        long = long.with_columns(pos=C.positions(exploded))
        # an item is named in a few ways ("New Well", "new_well"): each way is read once, as item_name reads it
        ways, codes = C.distinct(long["field_0"])
        name = (ways.str.to_lowercase().str.replace_all("-", " ", literal=True).str.strip_chars(" ")
                .str.replace_all(" +", "_"))
        known = name.replace_strict(list(items), [True] * len(items), default=False, return_dtype=pl.Boolean).to_numpy()
        if codes is not None:
            name, known = name.gather(codes), known[codes]
        item_rows = long["row"].to_numpy()
        unknown = np.unique(item_rows[~known])
        listed[unknown] = False  # not an eligible item: the reference parser names it
        keep = listed[item_rows]
        frames.append(pl.DataFrame({"row": long["row"].filter(keep), "pos": long["pos"].filter(keep).cast(pl.Int64),
                                    "item": name.filter(keep), "cents": _cents(long["field_1"].filter(keep))}))
        fast = total | listed
    slow = np.flatnonzero(where & ~fast)
    rows, pos, names, amounts, bad, msgs = [], [], [], [], [], []
    for i, raw in zip(slow, C.take(values, slow)):
        try:
            parsed = _costs(raw, items)
        except F.FieldError as e:
            bad.append(i)
            msgs.append(str(e))
            continue
        for k, (item, cents) in enumerate(parsed):
            rows.append(int(i))
            pos.append(k)
            names.append(item)
            amounts.append(cents)
    E.add(np.asarray(bad, dtype=np.int64), msgs)
    frames.append(pl.DataFrame({"row": pl.Series(rows, dtype=pl.Int64), "pos": pl.Series(pos, dtype=pl.Int64),
                                "item": pl.Series(names, dtype=pl.String), "cents": pl.Series(amounts, dtype=pl.Int64)}))
    return pl.concat([f.with_columns(pl.col("row").cast(pl.Int64)) for f in frames])


def _cents(s: pl.Series) -> pl.Series:
    """'8000' or '6400.5' (already matched by _AMOUNT) to integer cents, exactly."""
    return (s.cast(pl.Decimal(16, 2)) * 100).cast(pl.Int64)


def _day(number) -> dt.date:
    return EPOCH + dt.timedelta(days=int(number))


def _completed_before(completed: dt.date, claimed: dt.date) -> str:
    return f"{completed.isoformat()} is before the claim was made ({claimed.isoformat()})"


def _column(cols: dict, name: str, n: int):
    if name in cols:
        return cols[name]
    if any(isinstance(v, pl.Series) for v in cols.values()):
        return pl.repeat("", n, eager=True, dtype=pl.String)
    return [None] * n


def read_columns(cols: dict[str, Any], n: int, params: ParameterSet | None = None,
                 line_errors: dict[int, str] | None = None) -> WellColumns:
    """Raw input columns to typed ones; fields are read in parse_claim's order, so a row's error is
    the first one parse_claim would raise."""
    params = params or default_parameters()
    E = C.Errors(n)
    if line_errors:
        E.add(np.fromiter(line_errors, dtype=np.int64), list(line_errors.values()))
    def get(name):
        return _column(cols, name, n)
    raw_id = get("id")
    ids = C.texts(raw_id)
    E.add(np.flatnonzero(C.blank(ids)), ["id: is required"] * int(C.blank(ids).sum()))

    def choice(name, choices, order):  # each distinct value read once; small integers, not Python strings
        return C.memo(name, get(name), lambda f, v: order.index(F.parse_choice(f, v, choices)), E,
                      len(order) - 1, np.int8)

    claimant = choice("claimant_type", CLAIMANT_TYPES, CLAIMANTS)
    residential = choice("supply_use", SUPPLY_USES, USES) == USES.index("residential")
    kind = choice("well_kind", WELL_KINDS, KINDS)
    raw_units = get("dwelling_units")
    units = C.memo("dwelling_units", raw_units, lambda f, v: F.parse_int(f, v, minimum=1), E, 0, np.int64,
                   where=residential)
    given = ~C.blank(C.texts(raw_units)) if isinstance(raw_units, pl.Series) else \
        np.array([not F.is_blank(v) for v in raw_units], dtype=bool)
    other = C.memo("dwelling_units", raw_units, lambda f, v: F.parse_int(f, v, minimum=0) if not F.is_blank(v) else 0,
                   E, 0, np.int64, where=~residential & given)
    units = np.where(residential, units, np.where(given, other, 0))
    samples = _sample_dates(get("sample_dates"), n, E)
    claimed = C.dates("claimed_on", get("claimed_on"), E)
    completed = C.dates("completed_on", get("completed_on"), E, required=False)
    early = np.flatnonzero((completed != C.NAT) & (claimed != C.NAT) & (completed < claimed))
    E.add(early, [f"completed_on: {_completed_before(_day(completed[i]), _day(claimed[i]))}" for i in early])
    segs = segments(params, PROGRAM)
    seg = segs.of(np.where(claimed == C.NAT, -(10**9), claimed))
    snaps = [s for s in segs.snaps if s is not None]
    covered = (seg >= 0) & np.array([segs.snaps[k] is not None for k in range(len(segs.snaps))] + [False])[seg]
    lab = C.bools("lab_certified", get("lab_certified"), E)
    advisory = C.bools("department_advisory", get("department_advisory"), E)
    income = C.cents("annual_family_income", get("annual_family_income"), E)
    # one version of s. 281.75 covers every claim (a later version would be a new segment)
    items = snaps[0]["eligible_cost_items"] if snaps else {}
    costs = _eligible_costs(get("eligible_costs"), n, E, covered & ~E.any, items)
    if isinstance(raw_id, pl.Series):
        out_id = pl.Series("id", np.where(E.any, raw_id.fill_null("").to_numpy(), ids.to_numpy()), dtype=pl.String) \
            if E.any.any() else ids
    else:
        out_id = [str(raw or "") if bad else str(raw).strip() for raw, bad in zip(raw_id, E.any)]
    return WellColumns(n, out_id, E, claimant, residential, kind, units, claimed, completed, lab, advisory, income,
                       samples, costs)


# -- the computation, over columns -----------------------------------------------------------------

@dataclass
class WellResults:
    cols: WellColumns
    snap: Any  # the version in force (one covers every claim), None when no claim is covered
    decided: np.ndarray
    tests: dict[str, np.ndarray]  # test -> passed, per claim
    trace: dict[str, Any]
    eligible: np.ndarray
    award: np.ndarray
    error: np.ndarray  # object: the row's error or None


def evaluate(cols: WellColumns, params: ParameterSet | None = None) -> WellResults:
    """Decide claims together; a claim dated where no version covers is that claim's error."""
    params = params or default_parameters()
    segs = segments(params, PROGRAM)
    n = cols.n
    error = cols.errors.msg.copy()
    ok = ~cols.errors.any
    seg = segs.of(np.where(ok, cols.claimed, 0))
    covered = (seg >= 0) & np.array([s is not None for s in segs.snaps] + [False])[seg]
    for i in np.flatnonzero(ok & ~covered):
        day = EPOCH + dt.timedelta(days=int(cols.claimed[i]))
        try:
            params.snapshot(PROGRAM, day)
        except LawDateError as e:
            error[i] = f"claimed_on {day.isoformat()}: {e}"
    decided = ok & covered
    P = next((s for s in segs.snaps if s is not None), None)
    if P is None or not decided.any():
        zeros = np.zeros(n, dtype=np.int64)
        return WellResults(cols, P, decided, {}, {"award": zeros}, np.zeros(n, dtype=bool), zeros, error)
    barred = np.array([k in P["claimant_types_barred"] for k in CLAIMANTS])[cols.claimant]
    allowed = np.array([k in P["claimant_types_allowed"] for k in CLAIMANTS])[cols.claimant]
    well_ok = np.array([k in P["well_kinds"] for k in KINDS])[cols.kind]
    rows, day = cols.samples["row"].to_numpy(), cols.samples["day"].to_numpy().astype(np.int64)
    counted = day <= cols.claimed[rows]  # samples dated after the claim are not counted
    count = np.bincount(rows[counted], minlength=n)
    later = np.bincount(rows, minlength=n) - count
    first = np.full(n, np.iinfo(np.int64).max)
    last = np.full(n, np.iinfo(np.int64).min)
    np.minimum.at(first, rows[counted], day[counted])
    np.maximum.at(last, rows[counted], day[counted])
    span = np.where(count >= 2, last - first, 0)
    enough = count >= P["min_samples"]
    apart = span >= P["min_sample_interval_days"]
    costs = np.zeros(n, dtype=np.int64)
    np.add.at(costs, cols.costs["row"].to_numpy(), cols.costs["cents"].to_numpy())  # exact: int64, no floats
    income = cols.income
    tests = {
        "claimant": allowed & ~barred,
        "private_water_supply": ~cols.residential | (cols.units <= P["residential_max_dwelling_units"]),
        "well_kind": well_ok,
        "contamination_proof": cols.advisory | (enough & apart & cols.lab),
        "income_limit": income <= int(P["income_limit"] * 100),
    }
    trace = award(costs, income, cap=int(P["eligible_cost_cap"] * 100), rate_bp=_bp(P["award_rate"]),
                  threshold=int(P["income_reduction_threshold"] * 100), reduction_bp=_bp(P["income_reduction_rate"]))
    trace.update(costs=costs, count=count, later=later, span=span, enough=enough, apart=apart, barred=barred)
    passed = np.logical_and.reduce(list(tests.values())) & decided
    return WellResults(cols, P, decided, tests, trace, passed, np.where(passed, trace["award"], 0), error)


def _bp(rate) -> int:
    return int(rate * 10000)


def evaluate_rows(rows: list[dict[str, Any]], params: ParameterSet | None = None,
                  errors: dict[int, str] | None = None) -> WellResults:
    """A list of row dicts (as from JSON Lines) through the column path."""
    keys: dict[str, None] = {}
    for r in rows:
        keys.update(dict.fromkeys(r))
    cols = {k: [r.get(k) for r in rows] for k in keys}
    return evaluate(read_columns(cols, len(rows), params, errors), params)


def decisions(r: WellResults, words: bool = True) -> list[WellDecision]:
    """Each claim as a decision with its tests and words (for one claim, the API); words=False
    leaves them out (allocation needs the awards and dates only)."""
    from .well_render import well_frame

    if words:
        rows = well_frame(r, detail=True, reason_list=False).iter_rows(named=True)
    else:
        ids = r.cols.id.to_list() if isinstance(r.cols.id, pl.Series) else r.cols.id
        rows = ({"id": x} for x in ids)
    out = []
    for i, row in enumerate(rows):
        # as the per-row path had it: the date of a claim that was read (allocation cites by it)
        claimed = None if r.cols.errors.any[i] else _day(r.cols.claimed[i])
        done = r.cols.completed[i]
        completed = None if r.cols.errors.any[i] or done == C.NAT else _day(done)
        if not words:
            out.append(WellDecision(row["id"], bool(r.eligible[i]), int(r.award[i]),
                                    error=None if r.decided[i] else str(r.error[i]), claimed_on=claimed,
                                    completed_on=completed))
            continue
        if not r.decided[i]:
            out.append(WellDecision(row["id"], False, 0, error=str(r.error[i]), claimed_on=claimed,
                                    explanation=row["explanation"], completed_on=completed))
            continue
        tests = [Test(k, row[f"cite_{k}"], row[f"pass_{k}"], row[f"sentence_{k}"]) for k in TESTS]
        words = " ".join([*(t.line() for t in tests), row["arithmetic"], row["outcome"]])  # as the bulk path joins them
        out.append(WellDecision(row["id"], bool(r.eligible[i]), int(r.award[i]), tests, row["arithmetic"],
                                claimed_on=claimed, explanation=words, completed_on=completed))
    return out


def decide_rows(rows: list[dict[str, Any]], params: ParameterSet | None = None,
                errors: dict[int, str] | None = None) -> list[WellDecision]:
    """Parse and decide many rows together; a bad row is that row's error, naming the field."""
    return decisions(evaluate_rows(rows, params, errors)) if rows else []


def decide_row(raw: dict[str, Any], params: ParameterSet | None = None) -> WellDecision:
    """One claim: a batch of one."""
    return decide_rows([raw], params)[0]


@dataclass
class Payment:
    id: str
    award: int
    paid: int
    status: str  # paid | conditionally approved | not eligible
    position: int | None


def pay_in_order(decisions: list[WellDecision], funds_cents: int, *, waiting: frozenset[str] | set[str] = frozenset()) -> list[Payment]:
    """(5)(f): "allocate money for the payment of claims according to the order in which completed claims
    are received": the order is the day each claim became complete (`completed_on`; where a file gives
    none, the claim was complete when made, its `claimed_on`), then the order the claims were received
    (claim date, then their order in `decisions`), not the claim date alone. A claim the appropriation
    cannot pay in full is conditionally approved and "paid as soon as funds become available": the ids
    in `waiting` (conditionally approved by an earlier run) are paid first, in the same order."""
    position = {id(d): n for n, d in enumerate(decisions)}

    def key(d: WellDecision):
        return (d.id not in waiting, d.completed_on or d.claimed_on, d.claimed_on, position[id(d)])

    order = sorted((d for d in decisions if d.eligible and d.award > 0), key=key)
    out, left = {}, funds_cents
    for pos, d in enumerate(order, start=1):
        if d.award <= left:
            out[id(d)] = Payment(d.id, d.award, d.award, "paid", pos)
            left -= d.award
        else:
            # strict order: once one claim waits, later claims wait behind it
            out[id(d)] = Payment(d.id, d.award, 0, "conditionally approved", pos)
            left = 0
    return [out.get(id(d)) or Payment(d.id, d.award, 0, "not eligible" if not d.eligible else "no award", None) for d in decisions]
