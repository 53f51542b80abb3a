"""REST API for permits, fees and inspections. Thin: serializers check shapes, services decide. Token or
session auth (settings.REST_FRAMEWORK); a refused move is a 400 whose JSON names the field and the rule
with its citation (powts.core.api); someone else's permit is a 404, a move they may not make a 403.
"""
from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view
from rest_framework.response import Response

from powts.core.fields import FieldError
from powts.permits import actions, documents, exports, plot_files, policies, selectors, services
from powts.permits import choices as c
from powts.permits.api.serializers import (
    ActionSerializer,
    ChangeSerializer,
    DecideChangeSerializer,
    DocumentSerializer,
    FileSerializer,
    InspectionRequestSerializer,
    InspectionResultSerializer,
    InvoiceSerializer,
    PaymentSerializer,
    PermitDetailSerializer,
    PermitSerializer,
    inspection_json,
)
from powts.permits.models import Invoice, Permit, PermitChange


def _body(request, **from_url):
    """The posted values, with the ids the URL names (an invoice, a change, an inspection) added."""
    data = request.data
    if not hasattr(data, "get"):
        raise FieldError("body", "the request body must be a JSON object")
    data = data.copy()
    for key, value in from_url.items():
        data[key] = value
    return data


def _detail(permit, request, status=200):
    permit = Permit.objects.get(pk=permit.pk)
    return Response(PermitDetailSerializer(permit, context={"request": request}).data, status=status)


# -- views: each write is an action of the one table (powts.permits.actions) --------------------------

@extend_schema(request=FileSerializer, responses={200: PermitSerializer(many=True), 201: PermitDetailSerializer})
@api_view(["GET", "POST"])
def permits(request):
    """GET: the permits you may see (?status=, ?number=). POST: file an application (a master plumber, or staff)."""
    if request.method == "GET":
        qs = selectors.permit_list(user=request.user)
        if request.GET.get("status"):
            qs = qs.filter(status=request.GET["status"])
        if request.GET.get("number"):
            qs = qs.filter(number=request.GET["number"])
        return Response(PermitSerializer(qs[:500], many=True).data)
    if not policies.can_file(request.user):
        raise PermissionDenied(actions.APPLICATION_DENIED)
    permit = services.application_submit(user=request.user, data=actions.parse_application(request.data))
    return _detail(permit, request, 201)


@extend_schema(operation_id="permits_detail", responses=PermitDetailSerializer)
@api_view(["GET"])
def permit_detail(request, pk):
    return _detail(selectors.permit_get(user=request.user, pk=pk), request)


@extend_schema(request=DocumentSerializer, responses={201: PermitDetailSerializer})
@api_view(["POST"])
def permit_documents(request, pk):
    permit = selectors.permit_get(user=request.user, pk=pk)
    actions.perform("document", user=request.user, permit=permit, data=_body(request))
    return _detail(permit, request, 201)


@extend_schema(request=OpenApiTypes.OBJECT, responses=PermitDetailSerializer)
@api_view(["POST"])
def permit_plot_plan(request, pk):
    """The plot plan (GeoJSON, feet), checked against the county's setbacks; the result is stored with the permit."""
    permit = selectors.permit_get(user=request.user, pk=pk)
    plan = _plan_from(request) if request.FILES.get("file") else request.data
    actions.perform("plot-plan", user=request.user, permit=permit, data={"plot_plan": plan})
    return _detail(permit, request)


def _plan_from(request):
    """A plot plan file posted as `file` (GeoJSON or DXF); a PDF holds no geometry and is refused here."""
    plan, pdf = plot_files.from_request(request.FILES["file"])
    if pdf is not None:
        raise plot_files.PlanFileRefused(f"{pdf.name}: a PDF holds no geometry; attach it to the permit as a plan "
                                         "(POST /api/attachments/) and send the features as GeoJSON", field="file")
    return plan


def _county(request):
    from powts.jurisdictions.models import Jurisdiction

    if request.user.jurisdiction_id:
        return request.user.jurisdiction
    slug = str(request.query_params.get("jurisdiction") or "")[:50]
    county = Jurisdiction.objects.filter(slug=slug).first() if slug else None
    if county is None:
        raise FieldError("jurisdiction", "jurisdiction is required (the county's slug)")
    return county


@extend_schema(responses={200: OpenApiTypes.OBJECT})
@api_view(["GET"])
def parcel_find(request):
    """Parcels of the county (yours, or ?jurisdiction=) whose number starts with ?q= (with or without dashes) or
    whose address matches it: number, site address and municipality, never the owner. For filers only."""
    from powts.inventory.selectors import parcels_matching

    if not policies.can_file(request.user):
        raise PermissionDenied(actions.APPLICATION_DENIED)
    query = str(request.query_params.get("q") or "").strip()[:100]
    return Response({"results": parcels_matching(jurisdiction=_county(request), query=query)})


@extend_schema(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT})
@api_view(["POST"])
def plan_check(request):
    """The setback check of a plot plan before filing (GeoJSON body, or a GeoJSON or DXF `file`), against the
    county's setbacks (yours, or ?jurisdiction=). Nothing is stored."""
    if not policies.can_file(request.user):
        raise PermissionDenied(actions.APPLICATION_DENIED)
    county = _county(request)
    plan = _plan_from(request) if request.FILES.get("file") else request.data
    out = selectors.plan_check(plan=plan, jurisdiction=county)
    return Response({**out["result"], "features": out["features"]})


@extend_schema(request=ActionSerializer, responses=PermitDetailSerializer)
@api_view(["POST"])
def permit_action(request, pk, action):
    """Move the permit: hold, resubmit, approve, deny, issue, final-approve, suspend, reinstate, revoke,
    plan-revision, verify-recording."""
    permit = selectors.permit_get(user=request.user, pk=pk)
    found = actions.ACTIONS.get(action)
    if found is None or not found.on_actions_endpoint:
        names = [a.name for a in actions.ACTIONS.values() if a.on_actions_endpoint]
        return Response({"errors": {"action": [f"unknown action {action!r}; one of {', '.join(names)}"]}}, status=404)
    actions.perform(action, user=request.user, permit=permit, data=_body(request))
    return _detail(permit, request)


@extend_schema(request=ChangeSerializer, responses={201: OpenApiTypes.OBJECT})
@api_view(["POST"])
def permit_changes(request, pk):
    """Apply for a renewal, transfer or change of plumber (the fee is charged; staff grant it once paid)."""
    permit = selectors.permit_get(user=request.user, pk=pk)
    change = actions.perform("change", user=request.user, permit=permit, data=_body(request))
    return Response({"change": change.id, "permit": PermitDetailSerializer(Permit.objects.get(pk=pk)).data}, status=201)


@extend_schema(request=DecideChangeSerializer, responses=PermitDetailSerializer)
@api_view(["POST"])
def change_decide(request, pk, decision):
    change = get_object_or_404(PermitChange.objects.filter(permit__in=selectors.permit_list(user=request.user)), pk=pk)
    if decision not in ("grant", "refuse"):
        return Response({"errors": {"decision": ["grant or refuse"]}}, status=404)
    actions.perform(decision, user=request.user, permit=change.permit, data=_body(request, change=change.pk))
    return _detail(change.permit, request)


@extend_schema(request=InspectionRequestSerializer, responses={201: OpenApiTypes.OBJECT})
@api_view(["POST"])
def inspection_request(request, pk):
    """The plumber's notice; the answer gives the county's deadline and, when refused, the earliest allowed day."""
    permit = selectors.permit_get(user=request.user, pk=pk)
    insp = actions.perform("inspection", user=request.user, permit=permit, data=_body(request))
    return Response(inspection_json(insp), status=201)


@extend_schema(request=InspectionResultSerializer, responses=OpenApiTypes.OBJECT)
@api_view(["POST"])
def inspection_result(request, pk):
    insp = selectors.inspection_get(user=request.user, pk=pk)
    insp = actions.perform("result", user=request.user, permit=insp.permit, data=_body(request, inspection=insp.pk))
    return Response(inspection_json(insp))


@extend_schema(request=PaymentSerializer, responses={201: InvoiceSerializer})
@api_view(["POST"])
def invoice_payment(request, pk):
    invoice = get_object_or_404(Invoice.objects.select_related("permit__jurisdiction").filter(permit__isnull=False), pk=pk)
    actions.perform("payment", user=request.user, permit=invoice.permit, data=_body(request, invoice=invoice.pk))
    invoice.refresh_from_db()
    return Response(InvoiceSerializer(invoice).data, status=201)


@extend_schema(responses={(200, "application/pdf"): OpenApiTypes.BINARY})
@api_view(["GET"])
def permit_card(request, pk):
    permit = selectors.permit_get(user=request.user, pk=pk)
    if permit.status not in (c.PermitStatus.ISSUED, c.PermitStatus.COMPLETED):
        return Response({"errors": {"status": [f"permit {permit.number} is {permit.get_status_display().lower()}; "
                                               "a card prints once it is issued"]}}, status=409)
    resp = HttpResponse(documents.permit_card_pdf(permit), content_type="application/pdf")
    resp["Content-Disposition"] = f'inline; filename="permit-{permit.number}.pdf"'
    return resp


@extend_schema(responses={(200, "text/calendar"): OpenApiTypes.STR})
@api_view(["GET"])
def inspections_ics(request):
    """The signed-in inspector's inspections as an iCalendar feed (token auth works for calendar apps)."""
    return HttpResponse(documents.inspector_feed(request.user), content_type="text/calendar; charset=utf-8")


@extend_schema(responses={200: OpenApiTypes.OBJECT})
@api_view(["GET"])
def export(request, fmt):
    """Permits and inspections you may see, as BLDS-shaped JSON/CSV (fmt: blds.json, csv, json, inspections.csv)."""
    qs = selectors.permit_list(user=request.user)
    return exports.response(qs, fmt)
