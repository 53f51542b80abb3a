"""Wisconsin Fund grant decision for one application: s. 145.245 (before Act 19) or s. 145.246.

This is the one-case path, written to be read beside the statute: every test is named, cited and
explained. batch.py computes the same thing for a million rows with numpy; the property tests
check the two agree. Money is integer cents; the one rounding (30% of the income above $32,000)
is half up to the cent.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from . import fields as F
from .engine import LawDateError, ParameterSet, Snapshot, default_parameters
from .explain import GRANT_SENTENCES, LIEN_PASS_AGREEMENT, LIEN_PASS_NONE, FailedTests, Test, explanation, fill, money
from .funding_tables import table_amount_cents

PROGRAM = "wisconsin-fund-grant"
APPLICANT_TYPES = {"residence", "business"}
LETTERS = "abcde"


@dataclass
class GrantApplication:
    id: str
    applicant_type: str
    failure_conditions: list[str]
    failure_determined_on: dt.date
    applied_on: dt.date
    system_installed_on: dt.date
    work_started_on: dt.date | None = None
    sewer_available: bool = False
    principal_residence: bool = True
    annual_family_income: int | None = None  # cents
    annual_gross_revenue: int | None = None  # cents
    daily_flow_gpd: float | None = None
    units_served: int = 1
    funding_table_amount: int | None = None  # cents
    components: list[str] = field(default_factory=list)
    design_flow_gpd: float | None = None
    experimental: bool = False
    prior_grant: bool = False
    intentionally_caused: bool = False
    on_support_lien_docket: bool = False
    has_payment_agreement: bool = False
    governmental_unit: str | None = None
    gu_application_received_on: dt.date | None = None


@dataclass
class GrantDecision(FailedTests):
    id: str
    eligible: bool
    amount: int  # cents paid if eligible, else 0
    state_share: int  # cents computed under (6)(c)-(d) whether or not eligible
    category: int | None
    version: str | None
    tests: list[Test] = field(default_factory=list)
    arithmetic: str = ""
    error: str | None = None
    applicant_type: str | None = None
    experimental: bool = False
    governmental_unit: str | None = None

    @property
    def explanation(self) -> str:
        if self.error:
            return f"Not decided: {self.error}"
        outcome = (f"Eligible: grant {money(self.amount)}." if self.eligible
                   else "Not eligible, so no grant is paid ($0.00).")
        return explanation(self.tests, self.arithmetic, outcome)


def parse_application(raw: dict[str, Any]) -> GrantApplication:
    """One input row (JSON values or CSV strings) to an application; FieldError names the field."""
    app_id = raw.get("id")
    if F.is_blank(app_id):
        raise F.FieldError("id", "is required")
    kind = F.parse_choice("applicant_type", raw.get("applicant_type"), APPLICANT_TYPES)
    letters = [str(x).strip().lower() for x in F.parse_list("failure_conditions", raw.get("failure_conditions"))]
    if not letters:
        raise F.FieldError("failure_conditions", "is required (letters a-e of the failure conditions, e.g. a;d)")
    for letter in letters:
        if letter not in LETTERS or len(letter) != 1:
            raise F.FieldError("failure_conditions", f"{letter!r} is not a failure condition (a-e)")
    app = GrantApplication(
        id=str(app_id).strip(),
        applicant_type=kind,
        failure_conditions=sorted(set(letters)),
        failure_determined_on=F.parse_date("failure_determined_on", raw.get("failure_determined_on")),
        applied_on=F.parse_date("applied_on", raw.get("applied_on")),
        system_installed_on=F.parse_date("system_installed_on", raw.get("system_installed_on")),
        work_started_on=F.parse_date("work_started_on", raw.get("work_started_on"), required=False),
        sewer_available=F.parse_bool("sewer_available", raw.get("sewer_available")),
        principal_residence=F.parse_bool("principal_residence", raw.get("principal_residence"), default=True),
        units_served=F.parse_int("units_served", raw.get("units_served"), default=1, minimum=1),
        experimental=F.parse_bool("experimental", raw.get("experimental")),
        prior_grant=F.parse_bool("prior_grant", raw.get("prior_grant")),
        intentionally_caused=F.parse_bool("intentionally_caused", raw.get("intentionally_caused")),
        on_support_lien_docket=F.parse_bool("on_support_lien_docket", raw.get("on_support_lien_docket")),
        has_payment_agreement=F.parse_bool("has_payment_agreement", raw.get("has_payment_agreement")),
        governmental_unit=None if F.is_blank(raw.get("governmental_unit")) else str(raw["governmental_unit"]).strip(),
        gu_application_received_on=F.parse_date("gu_application_received_on", raw.get("gu_application_received_on"), required=False),
    )
    if kind == "residence":
        app.annual_family_income = F.parse_cents("annual_family_income", raw.get("annual_family_income"))
    else:
        app.annual_gross_revenue = F.parse_cents("annual_gross_revenue", raw.get("annual_gross_revenue"))
        app.daily_flow_gpd = F.parse_number("daily_flow_gpd", raw.get("daily_flow_gpd"))
    app.funding_table_amount = F.parse_cents("funding_table_amount", raw.get("funding_table_amount"), required=False)
    if app.funding_table_amount is None:
        app.components = [str(c).strip() for c in F.parse_list("components", raw.get("components"))]
        if not app.components:
            raise F.FieldError("funding_table_amount", "is required (or give components and design_flow_gpd)")
        app.design_flow_gpd = F.parse_number("design_flow_gpd", raw.get("design_flow_gpd"), positive=True)
    return app


def category_of(snap: Snapshot, letters: list[str]) -> int:
    """Where several conditions apply, the lowest category number (the most serious) governs."""
    return min(snap["category_of_condition"][x] for x in letters)


def reduction_cents(excess_cents: int, rate) -> int:
    """rate x excess, half up to the cent (rate is a Decimal such as 0.30)."""
    bp = int(rate * 10000)
    return (excess_cents * bp + 5000) // 10000


def state_share(app: GrantApplication, snap: Snapshot, table_cents: int) -> tuple[int, str]:
    """Amount under (6)(c)-(d) [145.246] / (7)(c)-(d) [145.245], and the arithmetic in words."""
    cites = snap["test_citations"]
    units = app.units_served
    if app.experimental:
        per_unit = int(snap["experimental_max_share_per_unit"] * 100)
        cap = per_unit * units
        base = min(cap, table_cents)
        reduce = app.applicant_type == "residence" and snap["experimental_income_reduction"]
        cite = cites["experimental"]
        head = f"Experimental system: lesser of {_cap_words(cap, units, per_unit)} and the department-approved amount {money(table_cents)} = {money(base)}"
    else:
        per_unit = int(snap["max_share_per_unit"] * 100)
        cap = per_unit * units
        base = min(cap, table_cents)
        reduce = app.applicant_type == "residence"
        cite = cites["amount"]
        head = f"State share: lesser of {_cap_words(cap, units, per_unit)} and table amount {money(table_cents)} = {money(base)}"
    parts = [head]
    share = base
    threshold = int(snap["income_reduction_threshold"] * 100)
    if reduce and app.annual_family_income is not None and app.annual_family_income > threshold:
        rate = snap["income_reduction_rate"]
        cut = reduction_cents(app.annual_family_income - threshold, rate)
        parts.append(f"less {int(rate * 100)}% of ({money(app.annual_family_income)} - {money(threshold)}) = {money(cut)}")
        share = base - cut
        if share < 0:
            parts.append("not less than zero")
            share = 0
    elif not reduce and app.applicant_type == "residence":
        parts.append("no income reduction for an experimental system")
    parts.append(f"grant {money(share)}")
    return share, "; ".join(parts) + f" ({cite}; rounded half up to the cent)."


def _cap_words(cap: int, units: int, per_unit: int) -> str:
    return money(cap) if units == 1 else f"{money(cap)} ({units} x {money(per_unit)})"


def decide(app: GrantApplication, params: ParameterSet | None = None) -> GrantDecision:
    """Decide one application under the version in force on the date it was received."""
    params = params or default_parameters()
    try:
        snap = params.snapshot(PROGRAM, app.applied_on)
    except LawDateError as e:
        return GrantDecision(app.id, False, 0, 0, None, None, error=f"applied_on {app.applied_on.isoformat()}: {e}",
                             applicant_type=app.applicant_type, experimental=app.experimental,
                             governmental_unit=app.governmental_unit)
    cites = snap["test_citations"]
    tests: list[Test] = []

    def check(key: str, passed: bool, **values) -> None:
        tests.append(Test(key, cites[key], bool(passed), fill(GRANT_SENTENCES, key, bool(passed), values)))

    category = category_of(snap, app.failure_conditions)
    check("category", category in snap["eligible_categories"],
          conditions=", ".join(f"({x})" for x in app.failure_conditions), category=category)
    cutoff = snap["installed_before"]
    check("installed_before", app.system_installed_on < cutoff, installed=app.system_installed_on.isoformat(),
          cutoff=_long_date(cutoff))
    residence = app.applicant_type == "residence"
    if residence:
        check("principal_residence", app.principal_residence, occupancy=f"{int(snap['principal_residence_occupancy'] * 100)}%")
        limit = int(snap["residence_income_limit"] * 100)
        check("income_limit", app.annual_family_income <= limit, income=money(app.annual_family_income), income_limit=money(limit))
    else:
        flow_limit = snap["small_commercial_flow_below_gpd"]
        check("small_commercial", app.daily_flow_gpd < flow_limit, flow=f"{app.daily_flow_gpd:,g}", flow_limit=f"{flow_limit:,} gallons per day")
        limit = int(snap["business_revenue_limit"] * 100)
        check("revenue_limit", app.annual_gross_revenue <= limit, revenue=money(app.annual_gross_revenue), revenue_limit=money(limit))
    check("not_sewered", not app.sewer_available)
    work = f" on {app.work_started_on.isoformat()}" if app.work_started_on else " (no work has started)"
    check("determined_before_work", app.work_started_on is None or app.failure_determined_on < app.work_started_on,
          determined=app.failure_determined_on.isoformat(), work=work)
    years = snap["application_window_years"]
    last_day = F.add_years(app.failure_determined_on, years)
    check("application_window", app.failure_determined_on <= app.applied_on <= last_day, applied=app.applied_on.isoformat(),
          years=years, determined=app.failure_determined_on.isoformat(), last_day=last_day.isoformat())
    check("one_grant", not app.prior_grant)
    check("not_intentional", not app.intentionally_caused)
    check("support_lien", not (app.on_support_lien_docket and not app.has_payment_agreement),
          lien_pass=LIEN_PASS_AGREEMENT if app.on_support_lien_docket else LIEN_PASS_NONE)

    table_words = ""
    if app.funding_table_amount is not None:
        table = app.funding_table_amount
    else:
        try:
            table, table_words = table_amount_cents(snap, app.components, app.design_flow_gpd)
        except F.FieldError as e:
            return GrantDecision(app.id, False, 0, 0, None, None, error=str(e), applicant_type=app.applicant_type,
                                 experimental=app.experimental, governmental_unit=app.governmental_unit)
    share, arithmetic = state_share(app, snap, table)
    if table_words:
        arithmetic = f"{table_words} {arithmetic}"
    if residence:
        minimum = int(snap["minimum_grant_residence"] * 100)
        check("minimum_grant", share >= minimum, share=money(share), minimum=money(minimum))
    eligible = all(t.passed for t in tests)
    return GrantDecision(app.id, eligible, share if eligible else 0, share, category, snap.version, tests, arithmetic,
                         applicant_type=app.applicant_type, experimental=app.experimental,
                         governmental_unit=app.governmental_unit)


def decide_row(raw: dict[str, Any], params: ParameterSet | None = None) -> GrantDecision:
    """Parse and decide one input row; a bad row becomes that row's error, naming the field."""
    try:
        app = parse_application(raw)
    except F.FieldError as e:
        return GrantDecision(str(raw.get("id") or ""), False, 0, 0, None, None, error=str(e))
    return decide(app, params)


def _long_date(day: dt.date) -> str:
    return f"{day:%B} {day.day}, {day.year}"
