"""API for DNR's well claims: the queue, a claim, items received, completeness, payment runs.
Refusals are the services' (400 naming the field, with the citation), mapped once by powts.core.api."""
from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view
from rest_framework.response import Response

from powts.core.lists import clean_query
from powts.law import fields as LF
from powts.wells import policies, selectors, services
from powts.wells.filtersets import ClaimFilterSet
from powts.wells.models import WellClaim, WellPaymentRun

MAX_ROWS = 1000


def _dnr(request):
    if not policies.can_read_claims(request.user):
        raise PermissionDenied("Only the Department of Natural Resources handles well compensation claims.")


def claim_json(c: WellClaim, *, full: bool = False) -> dict:
    out = {"id": c.pk, "claim_id": c.claim_id, "supply_id": c.supply.supply_id, "status": c.status,
           "received_on": c.received_on, "completed_on": c.completed_on, "missing": c.missing,
           "eligible": c.eligible, "award": None if c.award is None else f"{c.award / 100:.2f}", "paid": f"{c.paid / 100:.2f}",
           "consolidated_into": c.consolidated_into.claim_id if c.consolidated_into_id else None}
    if full:
        out.update(claimant_name=c.claimant_name, claimant_type=c.claimant_type, affidavit_on=c.affidavit_on,
                   tax_returns_on=c.tax_returns_on, sample_dates=c.sample_dates, lab_certified=c.lab_certified,
                   department_advisory=c.department_advisory, explanation=c.explanation, reasons=c.reasons,
                   law_version=c.law_version, notice_on=c.notice_on)
    return out


def _on(data):
    raw = data.get("on")
    return timezone.localdate() if LF.is_blank(raw) else LF.parse_date("on", raw)


@extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
@api_view(["GET", "POST"])
def claims(request):
    """GET: the queue (filters q, status, received_after, received_before); POST: one claim on the form's fields."""
    _dnr(request)
    if request.method == "POST":
        c = services.claim_create(data=dict(request.data), by=request.user)
        return Response(claim_json(c, full=True), status=201)
    fs = ClaimFilterSet(clean_query(request), queryset=selectors.claims())
    rows = fs.qs if fs.is_valid() else selectors.claims().none()
    return Response({"count": rows.count(), "results": [claim_json(c) for c in rows[:MAX_ROWS]]})


@extend_schema(responses=OpenApiTypes.OBJECT)
@api_view(["GET"])
def claim_detail(request, pk):
    _dnr(request)
    return Response(claim_json(get_object_or_404(selectors.claims(), pk=pk), full=True))


@extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
@api_view(["POST"])
def claim_action(request, pk, action):
    """items (affidavit, tax_returns, sample_dates, lab_certified, on), complete (on) or notice (on)."""
    _dnr(request)
    claim = get_object_or_404(WellClaim, pk=pk)
    d = request.data
    on = _on(d)
    if action == "items":
        dates = d.get("sample_dates") or []
        dates = dates if isinstance(dates, list) else LF.parse_list("sample_dates", dates)
        claim = services.claim_receive_items(
            claim=claim, on=on, by=request.user, affidavit=LF.parse_bool("affidavit", d.get("affidavit")),
            tax_returns=LF.parse_bool("tax_returns", d.get("tax_returns")),
            sample_dates=[LF.parse_date("sample_dates", x) for x in dates],
            lab_certified=None if LF.is_blank(d.get("lab_certified")) else LF.parse_bool("lab_certified", d.get("lab_certified")))
    elif action == "complete":
        claim = services.claim_mark_complete(claim=claim, on=on, by=request.user)
    elif action == "notice":
        claim = services.claim_notice(claim=claim, on=on)
    else:
        return Response({"errors": {"action": ["one of items, complete, notice"]}}, status=404)
    return Response(claim_json(WellClaim.objects.select_related("supply", "consolidated_into").get(pk=claim.pk), full=True))


def run_json(r: WellPaymentRun, lines=None) -> dict:
    out = {"id": r.pk, "on": r.on, "funds": f"{r.funds / 100:.2f}", "paid": f"{r.paid / 100:.2f}", "citation": r.citation}
    if lines is not None:
        out["lines"] = [{"id": x.claim.claim_id, "supply_id": x.claim.supply.supply_id, "status": x.status,
                         "paid": f"{x.paid / 100:.2f}", "position": x.position} for x in lines]
    return out


@extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
@api_view(["GET", "POST"])
def runs(request):
    """GET: the payment runs; POST {funds, on}: one run ((5)(f))."""
    _dnr(request)
    if request.method == "POST":
        run = services.payment_run(funds=LF.parse_cents("funds", request.data.get("funds")), on=_on(request.data), by=request.user)
        return Response(run_json(run, selectors.run_lines(run)), status=201)
    return Response({"results": [run_json(r) for r in selectors.runs()[:MAX_ROWS]]})


@extend_schema(responses=OpenApiTypes.OBJECT)
@api_view(["GET"])
def run_detail(request, pk):
    _dnr(request)
    run = get_object_or_404(WellPaymentRun, pk=pk)
    return Response(run_json(run, selectors.run_lines(run)))
