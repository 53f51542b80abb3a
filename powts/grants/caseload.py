"""Stored owner applications as the law engine's input columns, read in one query per table.

The department's allocation ((11)(a): "at the beginning of each fiscal year the department shall
determine the state grant share") and the what-if both run the batch engine (powts.law.batch) over
the applications carried by the participating counties' applications. The columns carry the names of
`powts rules evaluate wisconsin-fund-grant`, so the engine reads them with the same parsers as a file.
The failure determination's conditions and date, and the system's install date, come from the
permits and inventory records (or, for an imported row without an inventory system, from what the
file gave).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from powts.law.batch import GrantColumns, GrantResults, evaluate, read_columns
from powts.law.engine import ParameterSet

FIELDS = ("id", "applicant_type", "failure_conditions", "failure_determined_on", "applied_on", "system_installed_on",
          "work_started_on", "sewer_available", "principal_residence", "annual_family_income", "annual_gross_revenue",
          "daily_flow_gpd", "units_served", "funding_table_amount", "components", "design_flow_gpd", "experimental",
          "prior_grant", "intentionally_caused", "on_support_lien_docket", "has_payment_agreement",
          "governmental_unit", "gu_application_received_on", "allowable_cost")


@dataclass
class Caseload:
    """The applications (by id, in id order) and their engine columns."""

    application_ids: list[int]
    jurisdiction_ids: list[int]
    columns: dict[str, list]
    _parsed: GrantColumns | None = None
    _base: GrantResults | None = None
    _base_allocations: dict = dataclasses.field(default_factory=dict)

    @property
    def n(self) -> int:
        return len(self.application_ids)

    def parsed(self) -> GrantColumns:
        if self._parsed is None:
            self._parsed = read_columns(self.columns, self.n)
        return self._parsed

    def base(self) -> GrantResults:
        """The engine's decisions under the law as it is (kept: the what-if compares every scenario with it)."""
        if self._base is None:
            self._base = evaluate(self.parsed())
        return self._base

    def base_allocation(self, funds_cents: int, fiscal_year: str):
        """The law's allocation of the base decisions with these funds (kept per amount)."""
        from powts.law.allocation import allocate

        key = (funds_cents, fiscal_year)
        if key not in self._base_allocations:
            self._base_allocations[key] = allocate(self.base(), funds_cents, fiscal_year)
        return self._base_allocations[key]

    def evaluate(self, params: ParameterSet | None = None, *, table_scale: tuple[int, int] | None = None) -> GrantResults:
        """The engine's decisions under `params`. `table_scale` (numerator, denominator) scales each
        application's funding-table amount as the law as it is found it (given, or from its components)."""
        if params is None and not table_scale:
            return self.base()
        cols = self.parsed()
        if table_scale:
            num, den = table_scale
            base = self.base()
            table = cols.table.copy()
            known = base.table >= 0
            table[known] = (base.table[known] * num + den // 2) // den
            cols = dataclasses.replace(cols, table=table)
        return evaluate(cols, params)


# The what-if's caseload, kept between requests while nothing it reads has changed: the department tries
# several parameter sets in a row, and reading 100,000 applications costs more than deciding them.
_KEPT: dict[tuple, tuple[tuple, Caseload]] = {}


def fingerprint(parts) -> tuple:
    """What the caseload of these participation applications depends on: the applications and decisions
    (every change to an application is decided again), the items taken out, the participations' statuses."""
    from django.db.models import Count, Max

    from powts.grants.models import GrantApplication, GrantDecision, ParticipationItem

    apps = GrantApplication.objects.aggregate(n=Count("id"), top=Max("id"))
    return (tuple((p.pk, p.status, p.received_on) for p in parts), apps["n"], apps["top"],
            GrantDecision.objects.aggregate(top=Max("id"))["top"],
            ParticipationItem.objects.filter(included=False).count(), ParticipationItem.objects.aggregate(top=Max("id"))["top"])


def load_kept(*, participations, carried_only: bool = False) -> Caseload:
    """`load`, from memory when nothing it depends on has changed since the last call."""
    parts = list(participations)
    key = (tuple(sorted(p.pk for p in parts)), carried_only)
    mark = fingerprint(parts)
    hit = _KEPT.get(key)
    if hit and hit[0] == mark:
        return hit[1]
    load_ = load(participations=parts, carried_only=carried_only)
    _KEPT.clear()  # one caseload kept: a state's is the size of a few tens of megabytes
    _KEPT[key] = (mark, load_)
    return load_


def _cents(c):
    return "" if c is None else f"{c // 100}.{c % 100:02d}"


def _day(d):
    return "" if d is None else d.isoformat()


def load(*, participations, carried_only: bool = True) -> Caseload:
    """The applications of the given participation applications, in application id order: those each
    carries (the allocation), or every application of those counties for the fiscal year that the
    department has not taken out (the what-if, where a changed test may bring in an application that
    is not eligible today)."""
    from powts.grants.choices import ApplicationStatus
    from powts.grants.models import GrantApplication

    parts = list(participations)
    received = {p.jurisdiction_id: (p.jurisdiction.slug, p.received_on) for p in parts}
    if carried_only:
        qs = GrantApplication.objects.filter(participation_items__participation__in=parts,
                                             participation_items__included=True)
    else:
        years = {p.fiscal_year for p in parts}
        qs = (GrantApplication.objects.filter(jurisdiction_id__in=list(received), fiscal_year__in=years)
              .exclude(participation_items__included=False))
    # s. 145.246(3)(b), as the grants app decides it (services.found_prior_grant): another application for the
    # same residence or establishment found eligible, in any county and year. An eligible application was
    # decided without one, so for the others it is "an eligible application has this key". One set, not a
    # correlated subquery per row (SQLite chose the status index for it: quadratic at a state's caseload).
    eligible_keys = set(GrantApplication.objects.filter(status=ApplicationStatus.ELIGIBLE).exclude(residence_key="")
                        .values_list("residence_key", flat=True))
    rows = qs.order_by("id").values_list(
        "id", "jurisdiction_id", "applicant_type", "imported_failure", "failure_determination__conditions",
        "failure_determination__determined_on", "failure_determination__system__installed_on", "applied_on",
        "work_started_on", "sewer_available", "principal_residence", "annual_family_income", "annual_gross_revenue",
        "daily_flow_gpd", "units_served", "funding_table_amount", "components", "design_flow_gpd", "experimental",
        "prior_grant", "intentionally_caused", "on_support_lien_docket", "has_payment_agreement", "residence_key", "status",
        "allowable_cost")
    cols: dict[str, list] = {k: [] for k in FIELDS}
    ids, juris = [], []
    for (app, jid, kind, imported, conds, determined, installed, applied, work, sewer, principal, income,
         revenue, flow, units, table, components, design, experimental, prior, intentional, lien, agreement,
         key, status, allowable) in rows:
        imported = imported or {}
        prior = prior or (status != ApplicationStatus.ELIGIBLE and key in eligible_keys)
        ids.append(app)
        juris.append(jid)
        slug, on = received[jid]
        put = cols
        put["id"].append(str(app))
        put["applicant_type"].append(kind)
        put["failure_conditions"].append(";".join(conds if conds is not None else imported.get("conditions") or []))
        put["failure_determined_on"].append(_day(determined) if determined else str(imported.get("determined_on") or ""))
        put["system_installed_on"].append(_day(installed) if installed else str(imported.get("system_installed_on") or ""))
        put["applied_on"].append(_day(applied))
        put["work_started_on"].append(_day(work))
        put["sewer_available"].append(bool(sewer))
        put["principal_residence"].append(bool(principal))
        put["annual_family_income"].append(_cents(income))
        put["annual_gross_revenue"].append(_cents(revenue))
        put["daily_flow_gpd"].append("" if flow is None else flow)
        put["units_served"].append(units)
        put["funding_table_amount"].append(_cents(table))
        put["components"].append(";".join(components or []))
        put["design_flow_gpd"].append("" if design is None else design)
        put["experimental"].append(bool(experimental))
        put["prior_grant"].append(bool(prior))
        put["intentionally_caused"].append(bool(intentional))
        put["on_support_lien_docket"].append(bool(lien))
        put["has_payment_agreement"].append(bool(agreement))
        put["governmental_unit"].append(slug)
        put["gu_application_received_on"].append(_day(on))
        put["allowable_cost"].append(_cents(allowable))
    return Caseload(ids, juris, cols)
