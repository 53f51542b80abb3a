"""Well contamination compensation, Wis. Stat. s. 281.75: who may claim, proof, income, award.

One claim at a time (claims are few: a state's year is thousands, not millions), each test cited
and explained; `pay_in_order` applies (5)(f), the order of payment when the appropriation is short.
Money is integer cents; each percentage is rounded half up to the cent.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from . import fields as F
from .engine import LawDateError, ParameterSet, default_parameters
from .explain import WELL_SENTENCES, FailedTests, Test, explanation, fill, money

PROGRAM = "well-compensation"
CLAIMANT_TYPES = {"landowner", "lessee", "spouse", "dependent", "heir", "assign", "legal_representative",
                  "state_agency", "municipality"}
SUPPLY_USES = {"residential", "livestock"}
WELL_KINDS = {"drilled", "driven", "bored", "dug"}
CITE = {
    "claimant": "Wis. Stat. s. 281.75(4)(a)",
    "private_water_supply": "Wis. Stat. s. 281.75(1)(f)-(g), (3)(a)",
    "livestock": "Wis. Stat. s. 281.75(1)(e)-(f), (3)(a)",
    "well_kind": "Wis. Stat. s. 281.75(1)(h)",
    "contamination_proof": "Wis. Stat. s. 281.75(1)(b), (6)(a)",
    "advisory": "Wis. Stat. s. 281.75(1)(b)3.",
    "income_limit": "Wis. Stat. s. 281.75(4m)(a)",
    "award": "Wis. Stat. s. 281.75(7)(a)-(b)",
    "costs": "Wis. Stat. s. 281.75(7)(c)",
    "order": "Wis. Stat. s. 281.75(5)(f)",
}


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


@dataclass
class WellDecision(FailedTests):
    id: str
    eligible: bool
    award: int
    tests: list[Test] = field(default_factory=list)
    arithmetic: str = ""
    error: str | None = None
    claimed_on: dt.date | None = None

    @property
    def explanation(self) -> str:
        if self.error:
            return f"Not decided: {self.error}"
        outcome = f"Eligible: award {money(self.award)}." if self.eligible else "Not eligible, so no award is paid ($0.00)."
        return explanation(self.tests, self.arithmetic, outcome)


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
        item = str(e["item"]).strip()
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
        claimed_on=claimed_on,
    )


def _pct(amount: int, rate) -> int:
    return (amount * int(rate * 10000) + 5000) // 10000


def decide(claim: WellClaim, params: ParameterSet | None = None) -> WellDecision:
    params = params or default_parameters()
    try:
        snap = params.snapshot(PROGRAM, claim.claimed_on)
    except LawDateError as e:
        return WellDecision(claim.id, False, 0, error=f"claimed_on {claim.claimed_on.isoformat()}: {e}", claimed_on=claim.claimed_on)
    tests: list[Test] = []
    words = claim.claimant_type.replace("_", " ")
    barred = snap["claimant_types_barred"]
    if claim.claimant_type in barred:
        tests.append(Test("claimant", barred[claim.claimant_type], False, fill(WELL_SENTENCES, "claimant", False, {"claimant": words})))
    else:
        ok = claim.claimant_type in snap["claimant_types_allowed"]
        tests.append(Test("claimant", CITE["claimant"], ok, fill(WELL_SENTENCES, "claimant", ok, {"claimant": words})))

    max_units = snap["residential_max_dwelling_units"]
    if claim.supply_use == "residential":
        ok = claim.dwelling_units <= max_units
        sentence = (f"A residential water supply connected to {claim.dwelling_units} dwelling units ({max_units} or fewer) is a private water supply."
                    if ok else f"A well connected to {claim.dwelling_units} dwelling units (more than {max_units}) is not a residential water supply.")
        tests.append(Test("private_water_supply", CITE["private_water_supply"], ok, sentence))
    else:
        tests.append(Test("private_water_supply", CITE["livestock"], True,
                          "A well used as a source of potable water only for livestock is a livestock water supply, a private water supply."))
    ok = claim.well_kind in snap["well_kinds"]
    tests.append(Test("well_kind", CITE["well_kind"], ok, fill(WELL_SENTENCES, "well_kind", ok, {"kind": claim.well_kind})))
    tests.append(_proof(claim, snap))
    limit = int(snap["income_limit"] * 100)
    ok = claim.annual_family_income <= limit
    tests.append(Test("income_limit", CITE["income_limit"], ok, fill(WELL_SENTENCES, "income_limit", ok, {
        "income": money(claim.annual_family_income), "income_limit": money(limit)})))

    award, arithmetic = _award(claim, snap)
    eligible = all(t.passed for t in tests)
    return WellDecision(claim.id, eligible, award if eligible else 0, tests, arithmetic, claimed_on=claim.claimed_on)


def _proof(claim: WellClaim, snap) -> Test:
    """(1)(b), (6)(a): 2 samples at least 2 weeks apart, certified laboratory; or the department's advisory."""
    if claim.department_advisory:
        return Test("contamination_proof", CITE["advisory"], True,
                    "The department has issued a written advisory opinion recommending that this well not be used.")
    need, gap = snap["min_samples"], snap["min_sample_interval_days"]
    dates = [d for d in claim.sample_dates if d <= claim.claimed_on]
    later = len(claim.sample_dates) - len(dates)
    note = f" ({later} sample(s) dated after the claim not counted)" if later else ""
    span = (dates[-1] - dates[0]).days if len(dates) >= 2 else 0
    shown = ", ".join(d.isoformat() for d in dates) or "none"
    problems = []
    if len(dates) < need:
        problems.append(f"{len(dates)} sample(s) exceeding a standard ({shown}){note}, fewer than {need}")
    elif span < gap:
        problems.append(f"samples of {shown} are {span} days apart, less than 2 weeks ({gap} days)")
    if not claim.lab_certified:
        problems.append("the samples were not tested by a laboratory certified under s. 299.11")
    if problems:
        return Test("contamination_proof", CITE["contamination_proof"], False,
                    "Contamination is not established: " + "; ".join(problems) + ".")
    return Test("contamination_proof", CITE["contamination_proof"], True,
                f"Samples of {shown}{note}, {span} days apart (at least {gap}), tested by a certified laboratory, establish contamination.")


def _award(claim: WellClaim, snap) -> tuple[int, str]:
    """(7)(a)-(b): 75% of eligible costs up to $12,000, less 30% of income above $45,000, not below 0."""
    items = snap["eligible_cost_items"]
    total = sum(c for _, c in claim.eligible_costs)
    parts = []
    if any(item for item, _ in claim.eligible_costs):
        listed = " + ".join(f"{item.replace('_', ' ')} {money(c)} ({items[item]})" for item, c in claim.eligible_costs)
        parts.append(f"Eligible costs: {listed} = {money(total)}.")
    cap = int(snap["eligible_cost_cap"] * 100)
    rate = snap["award_rate"]
    counted = min(total, cap)
    base = _pct(counted, rate)
    steps = [f"Award: {int(rate * 100)}% of the lesser of eligible costs {money(total)} and {money(cap)} = {int(rate * 100)}% of {money(counted)} = {money(base)}"]
    award = base
    threshold = int(snap["income_reduction_threshold"] * 100)
    if claim.annual_family_income > threshold:
        r = snap["income_reduction_rate"]
        cut = _pct(claim.annual_family_income - threshold, r)
        steps.append(f"less {int(r * 100)}% of ({money(claim.annual_family_income)} - {money(threshold)}) = {money(cut)}")
        award = base - cut
        if award < 0:
            steps.append("not less than zero")
            award = 0
    steps.append(f"award {money(award)}")
    parts.append("; ".join(steps) + f" ({CITE['award']}; rounded half up to the cent).")
    return award, " ".join(parts)


def decide_row(raw: dict[str, Any], params: ParameterSet | None = None) -> WellDecision:
    try:
        claim = parse_claim(raw, params)
    except F.FieldError as e:
        return WellDecision(str(raw.get("id") or ""), False, 0, error=str(e))
    return decide(claim, params)


@dataclass
class Payment:
    id: str
    award: int
    paid: int
    status: str  # paid | conditionally approved | not eligible
    position: int | None


def pay_in_order(decisions: list[WellDecision], funds_cents: int) -> list[Payment]:
    """(5)(f): money goes to completed claims in the order received; a claim the appropriation cannot
    pay in full is conditionally approved and paid as soon as funds become available."""
    order = sorted((d for d in decisions if d.eligible and d.award > 0), key=lambda d: (d.claimed_on, d.id))
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
