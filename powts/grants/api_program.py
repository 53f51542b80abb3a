"""REST API of the program between counties and the department (Wisconsin Fund, s. 145.246).

  POST /api/grants/certifications/             county staff: {fiscal_year, official_name, official_title}  (s. 145.246(8))
  GET/POST /api/grants/participations/         list (?fiscal_year=); county staff: {fiscal_year, received_on}  ((7)(a))
  POST /api/grants/participations/{id}/review/ DSPS: {meets_conditions, reason}  ((13)(a))
  GET/POST /api/grants/allocations/            list (?fiscal_year=); DSPS: {fiscal_year, funds}  ((11)-(12))
  GET  /api/grants/allocations/{id}/           the run with its totals per county and category
  POST /api/grants/what-if/                    DSPS: {fiscal_year, funds, base_funds?, income_limit?, max_share?, table_percent?}
A refusal is a 400 naming the field with the citation (powts.core.api); a role that may not act gets 403.
"""
from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.decorators import api_view
from rest_framework.response import Response

from powts.core.refusals import Refused
from powts.grants import allocating, participation, program_selectors, whatif
from powts.grants import program_policies as may
from powts.grants.models import AllocationRun, CountyCertification, ParticipationApplication
from powts.law import fields as F


def _body(request) -> dict:
    if not hasattr(request.data, "get"):
        raise Refused("the request body must be a JSON object", field="body")
    return request.data


def _cents(data, name, required=False):
    raw = data.get(name)
    if raw in (None, "") and not required:
        return None
    return F.parse_cents(name, str(raw) if raw is not None else raw)


def _cert_json(c: CountyCertification) -> dict:
    return {"id": c.pk, "jurisdiction": c.jurisdiction.slug, "fiscal_year": c.fiscal_year, "official_name": c.official_name,
            "official_title": c.official_title, "checked": c.checked, "certified_at": c.certified_at.isoformat()}


def _part_json(p: ParticipationApplication) -> dict:
    return {"id": p.pk, "jurisdiction": p.jurisdiction.slug, "fiscal_year": p.fiscal_year,
            "received_on": p.received_on.isoformat(), "status": p.status, "review_reason": p.review_reason,
            "applications": p.items.filter(included=True).count()}


def _run_json(r: AllocationRun, totals: bool = False) -> dict:
    out = {"id": r.pk, "fiscal_year": r.fiscal_year, "funds": f"{r.funds / 100:.2f}", "law_version": r.law_version, "run_by": r.run_by_label, "run_at": r.run_at.isoformat()}
    if totals:
        out["totals"] = [{"county": t["county"], "category": t["category"], "applications": t["applications"],
                          "share": f"{t['share'] / 100:.2f}", "award": f"{t['award'] / 100:.2f}", "prorated": t["prorated"]}
                         for t in program_selectors.totals(r)]
    return out


@extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT})
@api_view(["POST"])
def certifications(request):
    """The county's conditions for a fiscal year, certified by the signed-in county staff member."""
    user = request.user
    if not may.can_view_county_side(user):
        raise PermissionDenied("Only a county's staff certify its conditions.")
    data = _body(request)
    cert = participation.certify(jurisdiction=user.jurisdiction, fiscal_year=data.get("fiscal_year"), user=user,
                                 official_name=str(data.get("official_name") or ""),
                                 official_title=str(data.get("official_title") or ""))
    return Response(_cert_json(cert), status=status.HTTP_201_CREATED)


@extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, 201: OpenApiTypes.OBJECT})
@api_view(["GET", "POST"])
def participations(request):
    user = request.user
    if request.method == "POST":
        if not may.can_view_county_side(user):
            raise PermissionDenied("Only a county's staff apply for its participation.")
        data = _body(request)
        on = F.parse_date("received_on", data.get("received_on"), required=False)
        part = participation.submit(jurisdiction=user.jurisdiction, fiscal_year=data.get("fiscal_year"), user=user,
                                    received_on=on)
        return Response(_part_json(part), status=status.HTTP_201_CREATED)
    if not (may.can_view_state_side(user) or may.can_view_county_side(user)):
        raise PermissionDenied("Applications for participation are for county staff and the department.")
    qs = ParticipationApplication.objects.restrict(user, "view").select_related("jurisdiction")
    if request.GET.get("fiscal_year"):
        qs = qs.filter(fiscal_year=request.GET["fiscal_year"])
    return Response({"results": [_part_json(p) for p in qs[:500]]})


@extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT})
@api_view(["POST"])
def participation_review(request, pk):
    if not may.can_review(request.user):
        raise PermissionDenied("Only the department (DSPS) reviews applications for participation.")
    part = get_object_or_404(ParticipationApplication, pk=pk)
    data = _body(request)
    meets = F.parse_bool("meets_conditions", data.get("meets_conditions"))
    part = participation.review(participation=part, user=request.user, meets_conditions=meets,
                                reason=str(data.get("reason") or ""))
    return Response(_part_json(part))


@extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, 201: OpenApiTypes.OBJECT})
@api_view(["GET", "POST"])
def allocations(request):
    user = request.user
    if request.method == "POST":
        if not may.can_allocate(user):
            raise PermissionDenied("Only the department (DSPS) allocates the funds.")
        data = _body(request)
        run = allocating.run_allocation(fiscal_year=data.get("fiscal_year"), funds_cents=_cents(data, "funds", True),
                                        user=user)
        return Response(_run_json(run, totals=True), status=status.HTTP_201_CREATED)
    if not may.can_view_state_side(user):
        raise PermissionDenied("Allocation runs are for the department and the state's auditors.")
    return Response({"results": [_run_json(r) for r in program_selectors.runs(fiscal_year=request.GET.get("fiscal_year"))[:100]]})


@extend_schema(responses={200: OpenApiTypes.OBJECT})
@api_view(["GET"])
def allocation_detail(request, pk):
    if not may.can_view_state_side(request.user):
        raise PermissionDenied("Allocation runs are for the department and the state's auditors.")
    return Response(_run_json(get_object_or_404(AllocationRun, pk=pk), totals=True))


@extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT})
@api_view(["POST"])
def what_if(request):
    if not may.can_run_whatif(request.user):
        raise PermissionDenied("The what-if is the department's (DSPS).")
    data = _body(request)
    pct = None
    if data.get("table_percent") not in (None, ""):
        try:
            pct = Decimal(str(data["table_percent"]))
        except InvalidOperation:
            raise Refused("is not a number", field="table_percent") from None
    w = whatif.run(fiscal_year=data.get("fiscal_year"), funds_cents=_cents(data, "funds", True),
                   base_funds_cents=_cents(data, "base_funds"), income_limit_cents=_cents(data, "income_limit"),
                   max_share_cents=_cents(data, "max_share"), table_percent=pct)

    def d(c):
        return f"{c / 100:.2f}"
    return Response({"fiscal_year": w.fiscal_year, "applications": w.applications, "base_funds": d(w.base_funds),
                     "funds": d(w.funds), "base_cost": d(w.base_cost), "cost": d(w.cost), "base_eligible": w.base_eligible,
                     "eligible": w.eligible, "winners": w.winners, "losers": w.losers,
                     "counties": [{"jurisdiction": c.slug, "applications": c.applications, "base_award": d(c.base_award),
                                   "award": d(c.award), "winners": c.winners, "losers": c.losers,
                                   "newly_eligible": c.newly_eligible, "no_longer_eligible": c.no_longer_eligible}
                                  for c in w.counties]})
