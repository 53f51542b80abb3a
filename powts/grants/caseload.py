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

from dataclasses import dataclass

from powts.law.batch import GrantResults, evaluate, read_columns
from powts.law.engine import ParameterSet

FIELDS = ("id", "applicant_type", "failure_conditions", "failure_determined_on", "applied_on", "system_installed_on",
          "work_started_on", "sewer_available", "principal_residence", "annual_family_income", "annual_gross_revenue",
          "daily_flow_gpd", "units_served", "funding_table_amount", "components", "design_flow_gpd", "experimental",
          "prior_grant", "intentionally_caused", "on_support_lien_docket", "has_payment_agreement",
          "governmental_unit", "gu_application_received_on")


@dataclass
class Caseload:
    """The applications (by id, in id order) and their engine columns."""

    application_ids: list[int]
    jurisdiction_ids: list[int]
    columns: dict[str, list]

    @property
    def n(self) -> int:
        return len(self.application_ids)

    def evaluate(self, params: ParameterSet | None = None, *, table_scale: tuple[int, int] | None = None,
                 base: GrantResults | None = None) -> GrantResults:
        """The engine's decisions. `table_scale` (numerator, denominator) scales each application's
        funding-table amount as `base` (the decisions under the law as it is) found it."""
        cols = read_columns(self.columns, self.n)
        if table_scale and base is not None:
            num, den = table_scale
            known = base.table >= 0
            cols.table = cols.table.copy()
            cols.table[known] = (base.table[known] * num + den // 2) // den
        return evaluate(cols, params)


def _cents(c):
    return "" if c is None else f"{c // 100}.{c % 100:02d}"


def _day(d):
    return "" if d is None else d.isoformat()


def load(*, participations, carried_only: bool = True) -> Caseload:
    """The applications of the given participation applications, in application id order: those each
    carries (the allocation), or every application of those counties for the fiscal year that the
    department has not taken out (the what-if, where a changed test may bring in an application that
    is not eligible today)."""
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
    rows = qs.order_by("id").values_list(
        "id", "jurisdiction_id", "applicant_type", "imported_failure", "failure_determination__conditions",
        "failure_determination__determined_on", "failure_determination__system__installed_on", "applied_on",
        "work_started_on", "sewer_available", "principal_residence", "annual_family_income", "annual_gross_revenue",
        "daily_flow_gpd", "units_served", "funding_table_amount", "components", "design_flow_gpd", "experimental",
        "prior_grant", "intentionally_caused", "on_support_lien_docket", "has_payment_agreement")
    cols: dict[str, list] = {k: [] for k in FIELDS}
    ids, juris = [], []
    for (app, jid, kind, imported, conds, determined, installed, applied, work, sewer, principal, income,
         revenue, flow, units, table, components, design, experimental, prior, intentional, lien, agreement) in rows:
        imported = imported or {}
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
    return Caseload(ids, juris, cols)
