"""Wisconsin Fund grant decision for one application: s. 145.245 (before Act 19) or s. 145.246.

One application is a batch of one: `decide` and `decide_row` run batch.evaluate on columns of
length 1 and take the words from render.grant_frame, so a case decided alone and the same case in a
file of a million get the same answer and the same words by construction. Money is integer cents;
the one rounding (30% of the income above the threshold) is half up to the cent.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import columns as C
from . import failure
from . import fields as F
from .batch import APPLICANT_TYPES, PROGRAM, GrantColumns, GrantResults, evaluate, evaluate_rows
from .engine import ParameterSet
from .explain import FailedTests, Test
from .render import case_words

__all__ = ["APPLICANT_TYPES", "PROGRAM", "GrantApplication", "GrantDecision", "decide", "decide_row",
           "parse_application"]


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
    allowable_cost: int | None = None  # cents: the recorded allowable costs, (6)(a)-(b)


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
    explanation: str = ""


def parse_application(raw: dict[str, Any]) -> GrantApplication:
    """One input row (JSON values or CSV strings) to an application; FieldError names the field."""
    app_id = raw.get("id")
    if F.is_blank(app_id):
        raise F.FieldError("id", "is required")
    kind = F.parse_choice("applicant_type", raw.get("applicant_type"), APPLICANT_TYPES)
    app = GrantApplication(
        id=str(app_id).strip(),
        applicant_type=kind,
        failure_conditions=failure.parse_conditions("failure_conditions", raw.get("failure_conditions")),
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
        gu_application_received_on=F.parse_date("gu_application_received_on", raw.get("gu_application_received_on"),
                                                required=False),
    )
    if kind == "residence":
        app.annual_family_income = F.parse_cents("annual_family_income", raw.get("annual_family_income"))
    else:
        app.annual_gross_revenue = F.parse_cents("annual_gross_revenue", raw.get("annual_gross_revenue"))
        app.daily_flow_gpd = F.parse_number("daily_flow_gpd", raw.get("daily_flow_gpd"))
    app.funding_table_amount = F.parse_cents("funding_table_amount", raw.get("funding_table_amount"), required=False)
    app.allowable_cost = F.parse_cents("allowable_cost", raw.get("allowable_cost"), required=False)
    if app.funding_table_amount is None:
        app.components = [str(c).strip() for c in F.parse_list("components", raw.get("components"))]
        if not app.components:
            raise F.FieldError("funding_table_amount", "is required (or give components and design_flow_gpd)")
        app.design_flow_gpd = F.parse_number("design_flow_gpd", raw.get("design_flow_gpd"), positive=True)
    return app


def _columns(app: GrantApplication) -> GrantColumns:
    """A parsed application as typed columns of length 1."""
    def day(d):
        return np.array([C.NAT if d is None else (d - C.EPOCH).days], dtype=np.int64)

    def flag(b):
        return np.array([bool(b)])

    def cents(c):
        return np.array([C.MISSING if c is None else c], dtype=np.int64)

    return GrantColumns(
        n=1, id=np.array([app.id], dtype=object), errors=C.Errors(1), business=flag(app.applicant_type == "business"),
        cond_mask=np.array([failure.mask_of(app.failure_conditions)], dtype=np.uint8),
        determined=day(app.failure_determined_on), applied=day(app.applied_on), installed=day(app.system_installed_on),
        work=day(app.work_started_on), sewer=flag(app.sewer_available), principal=flag(app.principal_residence),
        units=np.array([app.units_served], dtype=np.int64), experimental=flag(app.experimental),
        prior=flag(app.prior_grant), intentional=flag(app.intentionally_caused), lien=flag(app.on_support_lien_docket),
        agreement=flag(app.has_payment_agreement), gu=np.array([app.governmental_unit], dtype=object),
        gu_received=day(app.gu_application_received_on), income=cents(app.annual_family_income),
        revenue=cents(app.annual_gross_revenue),
        flow=np.array([np.nan if app.daily_flow_gpd is None else app.daily_flow_gpd]),
        table=cents(app.funding_table_amount),
        components=np.array([";".join(app.components) if app.funding_table_amount is None else None], dtype=object),
        design_flow=np.array([np.nan if app.design_flow_gpd is None else app.design_flow_gpd]),
        allowable=cents(app.allowable_cost))


def decision(r: GrantResults, i: int = 0) -> GrantDecision:
    """Row i of a batch's results as a decision with its tests and words."""
    row = r.words([i]).row(0, named=True)
    tests, arithmetic, _, _, text = case_words(row)
    if not r.decided[i]:
        return GrantDecision(row["id"], False, 0, 0, None, None, error=str(r.error[i]), explanation=text)
    return GrantDecision(row["id"], bool(r.eligible[i]), int(r.amount[i]), int(r.share[i]), row["category"],
                         row["version"], [Test(*t) for t in tests], arithmetic, explanation=text)


def decide(app: GrantApplication, params: ParameterSet | None = None) -> GrantDecision:
    """Decide one application under the version in force on the date it was received."""
    return decision(evaluate(_columns(app), params))


def decide_row(raw: dict[str, Any], params: ParameterSet | None = None) -> GrantDecision:
    """Parse and decide one input row; a bad row becomes that row's error, naming the field."""
    return decision(evaluate_rows([raw], params))
