"""Writes for grant applications: create (owner online, staff from a paper form), decide (the law
engine, one call), withdraw. Each is one transaction and audited; a refusal saves nothing.
The bulk import is importing.py; letters are letters.py.
"""
from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from powts.audit.services import audit_create, audit_update, snapshot
from powts.grants import choices as c
from powts.grants import deciding, fiscal, policies, residence
from powts.grants.errors import GrantRefused
from powts.grants.models import GrantApplication, GrantDecision

CITE_DETERMINATION = "Wis. Stat. s. 145.246(1)(a), (3)(a)1.-2."
CITE_INCOME = "Wis. Stat. s. 145.246(3)(c)2.-4."
CITE_REVENUE = "Wis. Stat. s. 145.246(3)(d)2.-4."
CITE_ONE_GRANT = "Wis. Stat. s. 145.246(3)(b)"
CITE_COST_CODE = "Wis. Stat. s. 145.246(6)(a)"
CITE_COST_LEAST = "Wis. Stat. s. 145.246(6)(b)"
HOLDING_TANK = "holding_tank"
MAX_CENTS = 10**12  # a billion dollars: beyond any application, keeps sums in range


def _money(field: str, cents, *, required: bool = False, citation: str = "") -> int | None:
    if cents is None:
        if required:
            raise GrantRefused(f"{field} is required", field=field, citation=citation)
        return None
    if isinstance(cents, bool) or not isinstance(cents, int) or not 0 <= cents < MAX_CENTS:
        raise GrantRefused(f"{field} must be an amount from $0.00 to $10,000,000,000.00", field=field)
    return cents


def _tax_year(field: str, year, evidence: str, determined_on: dt.date, applied_on: dt.date, citation: str,
              what: str) -> None:
    """(3)(c)2./(d)2.: the taxable year before the year the failure was determined; (3)(c)4./(d)4.:
    the current year, where the governmental unit accepts that evidence instead."""
    if year is None:
        raise GrantRefused(f"{field} is required: the tax year the {what} is for", field=field, citation=citation)
    if evidence not in c.IncomeEvidence.values:
        raise GrantRefused("income_evidence is required: the prior year's tax return, or current-year evidence",
                           field="income_evidence", citation=citation)
    if evidence == c.IncomeEvidence.PRIOR_YEAR_RETURN and year != determined_on.year - 1:
        raise GrantRefused(f"{field} {year}: the {what} is for the tax year before the year the failure was determined "
                           f"({determined_on.year - 1})", field=field, citation=citation)
    if evidence == c.IncomeEvidence.CURRENT_YEAR_EVIDENCE and year != applied_on.year:
        raise GrantRefused(f"{field} {year}: current-year evidence is for the year of the application ({applied_on.year})",
                           field=field, citation=citation)


def _costs(*, claimed_cost, allowable_cost, meets_code_minimum, least_costly_method, cost_benchmark, system_type):
    """(6)(a)-(b): allowable costs go no further than the code minimum by the least costly method;
    a holding tank is not the measure of the least costly method for any other system."""
    claimed = _money("claimed_cost", claimed_cost)
    allowable = _money("allowable_cost", allowable_cost)
    if allowable is None:
        return
    if claimed is not None and allowable > claimed:
        raise GrantRefused("allowable_cost cannot exceed the cost claimed", field="allowable_cost")
    if not meets_code_minimum:
        raise GrantRefused("allowable costs are those needed to meet the minimum requirements of the state "
                           "plumbing code; confirm that they are", field="meets_code_minimum", citation=CITE_COST_CODE)
    if not least_costly_method:
        raise GrantRefused("allowable costs are those of the least costly method; confirm that they are",
                           field="least_costly_method", citation=CITE_COST_LEAST)
    if cost_benchmark == HOLDING_TANK and system_type != HOLDING_TANK:
        raise GrantRefused("a holding tank may not be used as the measure of the least costly method for a system "
                           "other than a holding tank", field="cost_benchmark", citation=CITE_COST_LEAST)


def found_prior_grant(key: str, *, exclude_pk=None) -> GrantApplication | None:
    """An application for the same residence or establishment found eligible before, in any county
    and any fiscal year (s. 145.246(3)(b))."""
    if not key:
        return None
    qs = GrantApplication.objects.filter(residence_key=key, status=c.ApplicationStatus.ELIGIBLE)
    if exclude_pk:
        qs = qs.exclude(pk=exclude_pk)
    return qs.order_by("applied_on", "id").first()


@transaction.atomic
def application_create(*, by, failure_determination, applied_on: dt.date, source: str,
                       applicant_type: str = c.ApplicantType.RESIDENCE, principal_residence: bool = True,
                       sewer_available: bool | None = None, work_started_on: dt.date | None = None,
                       annual_family_income: int | None = None, income_tax_year: int | None = None,
                       income_evidence: str = "", annual_gross_revenue: int | None = None,
                       daily_flow_gpd: float | None = None, design_flow_gpd: float | None = None,
                       units_served: int = 1, components: list[str] | None = None, experimental: bool = False,
                       funding_table_amount: int | None = None, claimed_cost: int | None = None,
                       allowable_cost: int | None = None, meets_code_minimum: bool = False,
                       least_costly_method: bool = False, cost_benchmark: str = "", prior_grant: bool = False,
                       intentionally_caused: bool = False, on_support_lien_docket: bool = False,
                       has_payment_agreement: bool = False, fiscal_year: str | None = None,
                       today: dt.date | None = None) -> GrantApplication:
    """An owner's application (online) or one the county enters from a paper form. It rests on the
    county's determination of failure for the system: its date, conditions and category are read from
    that record, never typed again."""
    today = today or timezone.localdate()
    if failure_determination is None:
        raise GrantRefused("an application rests on the county's determination of failure for the system; "
                           "none was given", field="failure_determination", citation=CITE_DETERMINATION)
    system = failure_determination.system
    if not policies.can_apply(by, system):
        raise GrantRefused("only the system's owner, or the county's staff from a paper form, may apply for it",
                           field="failure_determination")
    if source not in (c.ApplicationSource.ONLINE, c.ApplicationSource.PAPER):
        raise GrantRefused("source is online or paper (files come through the import)", field="source")
    if applicant_type not in c.ApplicantType.values:
        raise GrantRefused("applicant_type is residence or business", field="applicant_type")
    if applied_on is None or applied_on > today:
        raise GrantRefused("applied_on is required and cannot be in the future", field="applied_on")
    determined_on = failure_determination.determined_on
    if applicant_type == c.ApplicantType.RESIDENCE:
        _money("annual_family_income", annual_family_income, required=True, citation=CITE_INCOME)
        _tax_year("income_tax_year", income_tax_year, income_evidence, determined_on, applied_on, CITE_INCOME,
                  "family income")
        annual_gross_revenue = daily_flow_gpd = None
    else:
        _money("annual_gross_revenue", annual_gross_revenue, required=True, citation=CITE_REVENUE)
        _tax_year("income_tax_year", income_tax_year, income_evidence, determined_on, applied_on, CITE_REVENUE,
                  "gross revenue")
        if daily_flow_gpd is None or daily_flow_gpd < 0:
            raise GrantRefused("daily_flow_gpd is required for a small commercial establishment", field="daily_flow_gpd",
                               citation="Wis. Stat. s. 145.246(1)(g)")
        annual_family_income = None
    _money("funding_table_amount", funding_table_amount)
    components = [str(x).strip() for x in (components or []) if str(x).strip()]
    if funding_table_amount is None and (not components or not design_flow_gpd):
        raise GrantRefused("give the funding table amount, or the components and the design flow to look it up",
                           field="funding_table_amount", citation="Wis. Stat. s. 145.246(6)(c)")
    if not isinstance(units_served, int) or isinstance(units_served, bool) or not 1 <= units_served <= 1000:
        raise GrantRefused("units_served is a whole number from 1 to 1000", field="units_served")
    _costs(claimed_cost=claimed_cost, allowable_cost=allowable_cost, meets_code_minimum=meets_code_minimum,
           least_costly_method=least_costly_method, cost_benchmark=cost_benchmark, system_type=system.system_type)
    fy = fiscal.parse("fiscal_year", fiscal_year) if fiscal_year else fiscal.for_application(applied_on)
    parcel = system.parcel
    key = residence.of_parcel(parcel, system.jurisdiction.slug)
    pending = GrantApplication.objects.filter(residence_key=key, status=c.ApplicationStatus.RECEIVED).first() if key else None
    if pending is not None:
        raise GrantRefused(f"an application for this residence or establishment is already waiting for a decision "
                           f"(application {pending.pk}); each may receive only one grant", field="failure_determination",
                           citation=CITE_ONE_GRANT)
    app = GrantApplication(
        jurisdiction=system.jurisdiction, fiscal_year=fy, owner=parcel.owner, owner_name=parcel.owner.name if parcel.owner else "",
        system=system, parcel=parcel, failure_determination=failure_determination, applicant_type=applicant_type,
        applied_on=applied_on, principal_residence=principal_residence,
        sewer_available=parcel.sewered if sewer_available is None else sewer_available, work_started_on=work_started_on,
        annual_family_income=annual_family_income, income_tax_year=income_tax_year, income_evidence=income_evidence,
        annual_gross_revenue=annual_gross_revenue, daily_flow_gpd=daily_flow_gpd, design_flow_gpd=design_flow_gpd,
        units_served=units_served, components=components, experimental=experimental,
        funding_table_amount=funding_table_amount, claimed_cost=claimed_cost, allowable_cost=allowable_cost,
        meets_code_minimum=meets_code_minimum, least_costly_method=least_costly_method, cost_benchmark=cost_benchmark,
        prior_grant=prior_grant, intentionally_caused=intentionally_caused, on_support_lien_docket=on_support_lien_docket,
        has_payment_agreement=has_payment_agreement, residence_key=key, status=c.ApplicationStatus.RECEIVED,
        source=source, created_by=by if getattr(by, "pk", None) else None, created_at=timezone.now())
    app.save()
    audit_create(app, action=f"grant application received ({app.get_source_display().lower()}) for system "
                             f"{system.system_id}, fiscal year {fy}")
    return app


@transaction.atomic
def application_decide(*, application: GrantApplication, by) -> GrantDecision:
    """The county's decision: the law engine decides the application as stored, with its failure
    determination and any grant found before for the same residence in any county; the decision
    keeps the law version, the reasons with their citations, the explanation, who and when."""
    app = GrantApplication.objects.select_for_update().select_related(
        "failure_determination__system", "jurisdiction").get(pk=application.pk)
    if by is not None and not policies.can_decide(by, app):
        raise GrantRefused("only the county's staff decide its grant applications", field="status")
    if app.status == c.ApplicationStatus.WITHDRAWN:
        raise GrantRefused("the application was withdrawn", field="status")
    earlier = found_prior_grant(app.residence_key, exclude_pk=app.pk)
    outcome = deciding.decide_rows([deciding.law_row(app, prior_grant=app.prior_grant or earlier is not None)])
    if not outcome.decided[0]:
        message = outcome.error[0] or "the application could not be decided"
        field = message.split(":", 1)[0] if ":" in message and " " not in message.split(":", 1)[0] else None
        raise GrantRefused(message, field=field)
    reasons = list(outcome.reasons[0])
    if earlier is not None:  # name the grant found, so the owner and staff can check it
        for reason in reasons:
            if reason.get("test") == "one_grant":
                reason["found"] = f"application {earlier.pk}, fiscal year {earlier.fiscal_year}, {earlier.jurisdiction.name}"
    decision = GrantDecision(
        application=app, eligible=bool(outcome.eligible[0]), amount=int(outcome.amount[0]),
        state_share=int(outcome.share[0]), category=int(outcome.category[0]) or None,
        law_version=outcome.version[0] or "", reasons=reasons, explanation=outcome.explanation[0],
        decided_by=by if getattr(by, "pk", None) else None, decided_at=timezone.now())
    decision.save()
    audit_create(decision, action=f"grant application {app.pk} decided: "
                                  f"{'eligible' if decision.eligible else 'not eligible'} under s. {decision.law_version}")
    before = snapshot(app, ["status"])
    app.status = c.ApplicationStatus.ELIGIBLE if decision.eligible else c.ApplicationStatus.INELIGIBLE
    app.save(update_fields=["status"])
    audit_update(app, before=before, action=f"grant application {app.pk} decided")
    application.status = app.status
    return decision


@transaction.atomic
def application_withdraw(*, application: GrantApplication, by) -> GrantApplication:
    app = GrantApplication.objects.select_for_update().get(pk=application.pk)
    if by is not None and not policies.can_withdraw(by, app):
        raise GrantRefused("only the applicant or the county's staff may withdraw an application", field="status")
    if app.status == c.ApplicationStatus.WITHDRAWN:
        raise GrantRefused("the application is already withdrawn", field="status")
    before = snapshot(app, ["status"])
    app.status = c.ApplicationStatus.WITHDRAWN
    app.save(update_fields=["status"])
    audit_update(app, before=before, action=f"grant application {app.pk} withdrawn")
    application.status = app.status
    return app
