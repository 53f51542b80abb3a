"""Well contamination compensation, Wis. Stat. s. 281.75: who may claim, proof, income, award.

`evaluate` decides claims over columns (numpy): each test a boolean array, the award one vectorised
formula (`award`) whose intermediate arrays are kept as a trace; one claim is a batch of one.
The words of each decision are written from that trace, with the citations of the parameter file
(`test_citations`). `pay_in_order` applies (5)(f), the order of payment when the money is short.
Money is integer cents; each percentage is rounded half up to the cent.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import fields as F
from .batch import EPOCH, segments
from .engine import LawDateError, ParameterSet, default_parameters
from .explain import WELL_SENTENCES, FailedTests, Test, explanation, fill, money

PROGRAM = "well-compensation"
CLAIMANT_TYPES = {"landowner", "lessee", "spouse", "dependent", "heir", "assign", "legal_representative",
                  "state_agency", "municipality"}
SUPPLY_USES = {"residential", "livestock"}
WELL_KINDS = {"drilled", "driven", "bored", "dug"}


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
    completed_on: dt.date | None = None

    @property
    def explanation(self) -> str:
        if self.error:
            return f"Not decided: {self.error}"
        outcome = f"Eligible: award {money(self.award)}." if self.eligible else "Not eligible, so no award is paid ($0.00)."
        return explanation(self.tests, self.arithmetic, outcome)


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
        raise F.FieldError("completed_on", f"{completed_on.isoformat()} is before the claim was made ({claimed_on.isoformat()})")
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


@dataclass
class WellResults:
    claims: list[WellClaim]
    snaps: list[Any]
    tests: dict[str, np.ndarray]  # test -> passed, per claim
    trace: dict[str, np.ndarray]
    eligible: np.ndarray
    award: np.ndarray
    error: list[str | None]


def _bp(rate) -> int:
    return int(rate * 10000)


def evaluate(claims: list[WellClaim], params: ParameterSet | None = None) -> WellResults:
    """Decide parsed claims together; a claim dated where no version covers is that claim's error."""
    params = params or default_parameters()
    segs = segments(params, PROGRAM)
    n = len(claims)
    claimed = np.array([(c.claimed_on - EPOCH).days for c in claims], dtype=np.int64)
    seg = segs.of(claimed)
    error: list[str | None] = [None] * n
    snaps = []
    for i, c in enumerate(claims):
        snap = segs.snaps[seg[i]] if seg[i] >= 0 else None
        if snap is None:
            try:
                params.snapshot(PROGRAM, c.claimed_on)
            except LawDateError as e:
                error[i] = f"claimed_on {c.claimed_on.isoformat()}: {e}"
        snaps.append(snap)
    ok = np.array([e is None for e in error], dtype=bool)
    first = next((s for s in snaps if s is not None), None)
    if first is None:
        zeros = np.zeros(n, dtype=np.int64)
        return WellResults(claims, snaps, {}, {"award": zeros}, np.zeros(n, dtype=bool), zeros, error)
    # one version of s. 281.75 covers every claim: the parameters are scalars (a later version would
    # be a new segment, read per row like the grant rules)
    P = first
    kinds = np.array([c.claimant_type for c in claims], dtype=object)
    barred = np.isin(kinds, list(P["claimant_types_barred"]))
    allowed = np.isin(kinds, P["claimant_types_allowed"])
    residential = np.array([c.supply_use == "residential" for c in claims], dtype=bool)
    units = np.array([c.dwelling_units if c.dwelling_units is not None else 0 for c in claims], dtype=np.int64)
    well_ok = np.isin(np.array([c.well_kind for c in claims], dtype=object), P["well_kinds"])
    advisory = np.array([c.department_advisory for c in claims], dtype=bool)
    lab = np.array([c.lab_certified for c in claims], dtype=bool)
    counted = [[d for d in c.sample_dates if d <= c.claimed_on] for c in claims]
    samples = np.array([len(d) for d in counted], dtype=np.int64)
    span = np.array([(d[-1] - d[0]).days if len(d) >= 2 else 0 for d in counted], dtype=np.int64)
    enough = samples >= P["min_samples"]
    apart = span >= P["min_sample_interval_days"]
    income = np.array([c.annual_family_income for c in claims], dtype=np.int64)
    costs = np.array([sum(x for _, x in c.eligible_costs) for c in claims], dtype=np.int64)
    tests = {
        "claimant": allowed & ~barred,
        "private_water_supply": ~residential | (units <= P["residential_max_dwelling_units"]),
        "well_kind": well_ok,
        "contamination_proof": advisory | (enough & apart & lab),
        "income_limit": income <= int(P["income_limit"] * 100),
    }
    trace = award(costs, income, cap=int(P["eligible_cost_cap"] * 100), rate_bp=_bp(P["award_rate"]),
                  threshold=int(P["income_reduction_threshold"] * 100), reduction_bp=_bp(P["income_reduction_rate"]))
    trace.update(costs=costs, samples=samples, span=span, enough=enough, apart=apart, barred=barred)
    passed = np.logical_and.reduce(list(tests.values())) & ok
    return WellResults(claims, snaps, tests, trace, passed, np.where(passed, trace["award"], 0), error)


# -- words, from the trace --------------------------------------------------------------------------

def decision(r: WellResults, i: int) -> WellDecision:
    c = r.claims[i]
    if r.error[i]:
        return WellDecision(c.id, False, 0, error=r.error[i], claimed_on=c.claimed_on, completed_on=c.completed_on)
    snap = r.snaps[i]
    cites = snap["test_citations"]
    T, t = r.tests, r.trace
    words = c.claimant_type.replace("_", " ")
    ok = bool(T["claimant"][i])
    cite = snap["claimant_types_barred"][c.claimant_type] if t["barred"][i] else cites["claimant"]
    tests = [Test("claimant", cite, ok, fill(WELL_SENTENCES, "claimant", ok, {"claimant": words}))]
    max_units = snap["residential_max_dwelling_units"]
    ok = bool(T["private_water_supply"][i])
    if c.supply_use == "residential":
        tests.append(Test("private_water_supply", cites["private_water_supply"], ok, fill(
            WELL_SENTENCES, "residential_supply", ok, {"units": c.dwelling_units, "max_units": max_units})))
    else:
        tests.append(Test("private_water_supply", cites["livestock"], True, WELL_SENTENCES["livestock_supply"][0]))
    ok = bool(T["well_kind"][i])
    tests.append(Test("well_kind", cites["well_kind"], ok, fill(WELL_SENTENCES, "well_kind", ok, {"kind": c.well_kind})))
    tests.append(_proof(r, i, cites))
    limit = int(snap["income_limit"] * 100)
    ok = bool(T["income_limit"][i])
    tests.append(Test("income_limit", cites["income_limit"], ok, fill(WELL_SENTENCES, "income_limit", ok, {
        "income": money(c.annual_family_income), "income_limit": money(limit)})))
    return WellDecision(c.id, bool(r.eligible[i]), int(r.award[i]), tests, _arithmetic(r, i, snap),
                        claimed_on=c.claimed_on, completed_on=c.completed_on)


def _proof(r: WellResults, i: int, cites) -> Test:
    """(1)(b), (6)(a): 2 samples at least 2 weeks apart, certified laboratory; or the department's advisory."""
    c, t, snap = r.claims[i], r.trace, r.snaps[i]
    if c.department_advisory:
        return Test("contamination_proof", cites["advisory"], True, WELL_SENTENCES["advisory"][0])
    need, gap = snap["min_samples"], snap["min_sample_interval_days"]
    dates = [d for d in c.sample_dates if d <= c.claimed_on]
    later = len(c.sample_dates) - len(dates)
    note = f" ({later} sample(s) dated after the claim not counted)" if later else ""
    span = int(t["span"][i])
    shown = ", ".join(d.isoformat() for d in dates) or "none"
    problems = []
    if not t["enough"][i]:
        problems.append(f"{len(dates)} sample(s) exceeding a standard ({shown}){note}, fewer than {need}")
    elif not t["apart"][i]:
        problems.append(f"samples of {shown} are {span} days apart, less than 2 weeks ({gap} days)")
    if not c.lab_certified:
        problems.append("the samples were not tested by a laboratory certified under s. 299.11")
    if problems:
        return Test("contamination_proof", cites["contamination_proof"], False,
                    "Contamination is not established: " + "; ".join(problems) + ".")
    return Test("contamination_proof", cites["contamination_proof"], True,
                (f"Samples of {shown}{note}, {span} days apart (at least {gap}), tested by a certified laboratory, "
                 "establish contamination."))


def _arithmetic(r: WellResults, i: int, snap) -> str:
    """The award's arithmetic in words, from the trace of `award`."""
    c, t = r.claims[i], r.trace
    items = snap["eligible_cost_items"]
    total = int(t["costs"][i])
    parts = []
    if any(item for item, _ in c.eligible_costs):
        listed = " + ".join(f"{item.replace('_', ' ')} {money(x)} ({items[item]})" for item, x in c.eligible_costs)
        parts.append(f"Eligible costs: {listed} = {money(total)}.")
    cap = int(snap["eligible_cost_cap"] * 100)
    pct = int(snap["award_rate"] * 100)
    steps = [(f"Award: {pct}% of the lesser of eligible costs {money(total)} and {money(cap)} = {pct}% of "
              f"{money(int(t['counted'][i]))} = {money(int(t['base'][i]))}")]
    if t["reduced"][i]:
        steps.append(f"less {int(snap['income_reduction_rate'] * 100)}% of ({money(c.annual_family_income)} - "
                     f"{money(int(snap['income_reduction_threshold'] * 100))}) = {money(int(t['cut'][i]))}")
        if t["below_zero"][i]:
            steps.append("not less than zero")
    steps.append(f"award {money(int(t['award'][i]))}")
    parts.append("; ".join(steps) + f" ({snap['test_citations']['award']}; rounded half up to the cent).")
    return " ".join(parts)


def decide(claim: WellClaim, params: ParameterSet | None = None) -> WellDecision:
    """One claim: a batch of one."""
    return decision(evaluate([claim], params), 0)


def decide_rows(rows: list[dict[str, Any]], params: ParameterSet | None = None,
                errors: dict[int, str] | None = None) -> list[WellDecision]:
    """Parse and decide many rows together; a bad row is that row's error, naming the field."""
    params = params or default_parameters()
    parsed: list[WellClaim] = []
    where: list[int] = []
    out: list[WellDecision | None] = [None] * len(rows)
    for i, raw in enumerate(rows):
        if errors and i in errors:
            out[i] = WellDecision(str(raw.get("id") or ""), False, 0, error=errors[i])
            continue
        try:
            parsed.append(parse_claim(raw, params))
            where.append(i)
        except F.FieldError as e:
            out[i] = WellDecision(str(raw.get("id") or ""), False, 0, error=str(e))
    if parsed:
        r = evaluate(parsed, params)
        for j, i in enumerate(where):
            out[i] = decision(r, j)
    return out  # type: ignore[return-value]


def decide_row(raw: dict[str, Any], params: ParameterSet | None = None) -> WellDecision:
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
