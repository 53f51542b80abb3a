"""An application as a person types it (web form or API JSON) to the services' keyword arguments.

Every number, date and text goes through the project's bounded parser (powts.core.fields); a bad
one is a FieldError (a Refused) naming the field. Money is typed in dollars and stored in cents.
Who may give which fields: an owner states their household's facts; the county's staff also
record what the county established (sewer service, intentional damage, the support lien docket,
allowable costs).
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from powts.core import fields
from powts.grants import choices as c
from powts.grants.errors import GrantRefused

MAX_DOLLARS = Decimal("10000000")
STAFF_ONLY = ("sewer_available", "intentionally_caused", "on_support_lien_docket", "has_payment_agreement",
              "allowable_cost", "meets_code_minimum", "least_costly_method", "cost_benchmark", "applied_on")


def cents(field: str, raw, *, required: bool = False) -> int | None:
    """Dollars ("45,000.00", "$45000") to integer cents, exactly: a fraction of a cent is refused, not rounded."""
    if isinstance(raw, str):
        raw = raw.strip().removeprefix("$")
    value = fields.decimal(field, raw, minimum=Decimal(0), maximum=MAX_DOLLARS, required=required, thousands=True)
    if value is None:
        return None
    if value != value.quantize(Decimal("0.01")):
        raise GrantRefused(f"{field} {raw} has fractions of a cent", field=field)
    return int(value * 100)


def flag(raw) -> bool:
    if isinstance(raw, bool):
        return raw
    return str(raw or "").strip().lower() in ("1", "true", "yes", "on")


def choice(field: str, raw, choices, *, default: str = "") -> str:
    value = str(raw or "").strip()
    if not value:
        return default
    if value not in dict(choices):
        raise GrantRefused(f"{field} {value!r} is not one of {', '.join(dict(choices))}", field=field)
    return value


def parse(data, *, staff: bool, today: dt.date) -> dict:
    """The keyword arguments of services.application_create (but `by` and the determination)."""
    get = data.get
    kind = choice("applicant_type", get("applicant_type"), c.ApplicantType.choices, default=c.ApplicantType.RESIDENCE)
    components = get("components") or ""
    if isinstance(components, str):
        components = [x.strip() for x in components.replace(",", ";").split(";") if x.strip()]
    out = dict(
        applicant_type=kind,
        principal_residence=flag(get("principal_residence", True)),
        work_started_on=fields.date("work_started_on", get("work_started_on"), latest=today),
        annual_family_income=cents("annual_family_income", get("annual_family_income")),
        income_tax_year=fields.integer("income_tax_year", get("income_tax_year"), minimum=1990, maximum=today.year),
        income_evidence=choice("income_evidence", get("income_evidence"), c.IncomeEvidence.choices),
        annual_gross_revenue=cents("annual_gross_revenue", get("annual_gross_revenue")),
        daily_flow_gpd=_float(fields.decimal("daily_flow_gpd", get("daily_flow_gpd"), minimum=Decimal(0),
                                             maximum=Decimal(1_000_000))),
        design_flow_gpd=_float(fields.decimal("design_flow_gpd", get("design_flow_gpd"), minimum=Decimal(1),
                                              maximum=Decimal(1_000_000))),
        units_served=fields.integer("units_served", get("units_served"), minimum=1, maximum=1000) or 1,
        components=[fields.text("components", x, max_length=60) for x in components][:20],
        experimental=flag(get("experimental")),
        funding_table_amount=cents("funding_table_amount", get("funding_table_amount")),
        claimed_cost=cents("claimed_cost", get("claimed_cost")),
        prior_grant=flag(get("prior_grant")),
    )
    if staff:
        sewer = str(get("sewer_available") or "").strip().lower()
        out.update(
            applied_on=fields.date("applied_on", get("applied_on"), latest=today) or today,
            sewer_available=None if sewer in ("", "records") else flag(sewer),
            intentionally_caused=flag(get("intentionally_caused")),
            on_support_lien_docket=flag(get("on_support_lien_docket")),
            has_payment_agreement=flag(get("has_payment_agreement")),
            allowable_cost=cents("allowable_cost", get("allowable_cost")),
            meets_code_minimum=flag(get("meets_code_minimum")), least_costly_method=flag(get("least_costly_method")),
            cost_benchmark=fields.text("cost_benchmark", get("cost_benchmark"), max_length=30),
        )
    else:
        out["applied_on"] = today  # an owner's online application is received when it is sent
    return out


def _float(value):
    return None if value is None else float(value)
