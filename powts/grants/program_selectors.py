"""Reads for the program pages and API: certifications, participations, runs, totals, payments."""
from __future__ import annotations

from django.db.models import Count, Q, Sum

from powts.grants.models import (
    AllocationLine,
    AllocationRun,
    CountyCertification,
    CountyPayment,
    Disbursement,
    ParticipationApplication,
)


def county_year(*, jurisdiction, fiscal_year: str) -> dict:
    """A county's certification, application for participation, payments and disbursements for a year."""
    cert = CountyCertification.objects.filter(jurisdiction=jurisdiction, fiscal_year=fiscal_year).first()
    part = (ParticipationApplication.objects.filter(jurisdiction=jurisdiction, fiscal_year=fiscal_year)
            .annotate(carried=Count("items", filter=Q(items__included=True))).first())
    payments = list(CountyPayment.objects.filter(jurisdiction=jurisdiction, run__fiscal_year=fiscal_year)
                    .annotate(owners=Count("disbursements"), disbursed=Sum("disbursements__amount")))
    return {"certification": cert, "participation": part, "payments": payments}


def queue(*, fiscal_year: str):
    """Every county's application for participation for the year, with what it carries."""
    return (ParticipationApplication.objects.filter(fiscal_year=fiscal_year).select_related("jurisdiction", "certification")
            .annotate(carried=Count("items", filter=Q(items__included=True)),
                      taken_out=Count("items", filter=Q(items__included=False)))
            .order_by("jurisdiction__name"))


def runs(*, fiscal_year: str | None = None):
    qs = AllocationRun.objects.all()
    return qs.filter(fiscal_year=fiscal_year) if fiscal_year else qs


def totals(run: AllocationRun) -> list[dict]:
    """Per county and category: applications, state share asked, allocation; then per county, then all."""
    rows = list(AllocationLine.objects.filter(run=run).values("jurisdiction__name", "jurisdiction_id", "category")
                .annotate(n=Count("id"), share=Sum("state_share", filter=~Q(status__in=("not eligible", "error"))),
                          award=Sum("award"), prorated=Count("id", filter=Q(status="prorated")))
                .order_by("jurisdiction__name", "category"))
    out, county = [], {}
    for r in rows:
        out.append({"county": r["jurisdiction__name"], "jurisdiction_id": r["jurisdiction_id"], "category": r["category"],
                    "applications": r["n"], "share": r["share"] or 0, "award": r["award"] or 0, "prorated": r["prorated"]})
        c = county.setdefault(r["jurisdiction__name"], {"county": r["jurisdiction__name"], "jurisdiction_id": r["jurisdiction_id"],
                                                        "category": "all", "applications": 0, "share": 0, "award": 0,
                                                        "prorated": 0})
        for k in ("applications", "share", "award", "prorated"):
            c[k] += out[-1][k]
    rows = out + list(county.values())
    for r in rows:  # the share of the state share asked that was allocated: 100% unless prorated or denied
        r["funded_percent"] = f"{r['award'] * 100 / r['share']:.1f}%" if r["share"] else ""
    return rows


def payments(run: AllocationRun) -> dict[int, CountyPayment]:
    return {p.jurisdiction_id: p for p in CountyPayment.objects.filter(run=run)}


def disbursements(payment: CountyPayment):
    return Disbursement.objects.filter(payment=payment).select_related("application").order_by("application_id")
