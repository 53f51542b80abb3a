"""REST API for permits, fees and inspections. Thin: serializers check shapes, services decide. Token or
session auth (settings.REST_FRAMEWORK); a refused move is a 400 whose JSON names the field and the rule
with its citation (powts.core.api); someone else's permit is a 404, a move they may not make a 403.
"""
from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.response import Response

from powts.accounts.models import License
from powts.permits import choices as c
from powts.permits import documents, exports, policies, selectors, services
from powts.permits.api.serializers import (ActionSerializer, ChangeSerializer, DocumentSerializer, FileSerializer,
                                           InspectionRequestSerializer, InspectionResultSerializer, InvoiceSerializer,
                                           PaymentSerializer, PermitDetailSerializer, PermitSerializer, inspection_json)
from powts.permits.models import Invoice, Permit, PermitChange

def _valid(serializer_class, request, **kw):
    s = serializer_class(data=request.data, **kw)
    s.is_valid(raise_exception=True)
    return s.validated_data


def _today():
    return timezone.localdate()


def _license(number: str, field: str) -> License:
    lic = License.objects.filter(number=number).order_by("id").first()
    if lic is None:
        raise serializers.ValidationError({field: [f"no license {number!r} on record"]})
    return lic


def _detail(permit, request, status=200):
    permit = Permit.objects.get(pk=permit.pk)
    return Response(PermitDetailSerializer(permit, context={"request": request}).data, status=status)


# -- views ----------------------------------------------------------------------------------

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
        raise PermissionDenied("Applications are filed by a licensed master plumber or master plumber-restricted "
                               "[Dane County Code s. 46.08(6)(c)].")
    permit = services.application_submit(user=request.user, data=_valid(FileSerializer, request))
    return _detail(permit, request, 201)


@extend_schema(operation_id="permits_detail", responses=PermitDetailSerializer)
@api_view(["GET"])
def permit_detail(request, pk):
    return _detail(selectors.permit_get(user=request.user, pk=pk), request)


@extend_schema(request=DocumentSerializer, responses={201: PermitDetailSerializer})
@api_view(["POST"])
def permit_documents(request, pk):
    permit = selectors.permit_get(user=request.user, pk=pk)
    if not policies.acts_for_permit(request.user, permit):
        raise PermissionDenied("Only the permit's plumber or county staff add documents.")
    data = _valid(DocumentSerializer, request)
    services.permit_add_document(permit=permit, **data)
    return _detail(permit, request, 201)


@extend_schema(request=OpenApiTypes.OBJECT, responses=PermitDetailSerializer)
@api_view(["POST"])
def permit_plot_plan(request, pk):
    """The plot plan (GeoJSON, feet), checked against the county's setbacks; the result is stored with the permit."""
    permit = selectors.permit_get(user=request.user, pk=pk)
    if not policies.acts_for_permit(request.user, permit):
        raise PermissionDenied("Only the permit's plumber or county staff change the plot plan.")
    services.permit_set_plot_plan(permit=permit, plot_plan=request.data)
    return _detail(permit, request)


ACTIONS = {
    "hold": lambda p, d: services.permit_hold(permit=p, on=d["on"], reasons=d["reasons"], respond_by=d.get("respond_by")),
    "resubmit": lambda p, d: services.permit_resubmit(permit=p, on=d["on"]),
    "approve": lambda p, d: services.permit_approve(permit=p, on=d["on"]),
    "deny": lambda p, d: services.permit_deny(permit=p, on=d["on"], reasons=d["reasons"], amendments=d["amendments"],
                                              minor_technical=d["minor_technical"], failure_to_correct=d["failure_to_correct"]),
    "issue": lambda p, d: services.permit_issue(permit=p, on=d["on"]),
    "final-approve": lambda p, d: services.permit_final_approve(permit=p, on=d["on"]),
    "suspend": lambda p, d: services.permit_suspend(permit=p, on=d["on"], reasons=d["reasons"]),
    "reinstate": lambda p, d: services.permit_reinstate(permit=p, on=d["on"], note=d["note"]),
    "revoke": lambda p, d: services.permit_revoke(permit=p, on=d["on"], reasons=d["reasons"]),
    "plan-revision": lambda p, d: services.permit_plan_revision(permit=p, on=d["on"], title=d["note"],
                                                                approved_elsewhere_on=d.get("approved_on")),
    "verify-recording": lambda p, d: services.document_verify_recording(
        document=_document(p, d.get("document")), recording_number=d["recording_number"], recorded_on=d.get("recorded_on"),
        verified_on=d["on"]),
}


def _document(permit, pk):
    """The permit's own document `pk`, or a 400 naming the field."""
    found = permit.documents.filter(pk=pk).first() if pk else None
    if found is None:
        raise serializers.ValidationError({"document": ["the id of one of this permit's documents is required"]})
    return found
PLUMBER_ACTIONS = {"resubmit", "plan-revision"}


@extend_schema(request=ActionSerializer, responses=PermitDetailSerializer)
@api_view(["POST"])
def permit_action(request, pk, action):
    """Move the permit: hold, resubmit, approve, deny, issue, final-approve, suspend, reinstate, revoke, plan-revision."""
    permit = selectors.permit_get(user=request.user, pk=pk)
    if action not in ACTIONS:
        return Response({"errors": {"action": [f"unknown action {action!r}; one of {', '.join(ACTIONS)}"]}}, status=404)
    allowed = policies.can_decide(request.user, permit) or (action in PLUMBER_ACTIONS and policies.acts_for_permit(request.user, permit))
    if not allowed:
        raise PermissionDenied(f"Only {permit.jurisdiction.name} staff may {action} a permit.")
    data = _valid(ActionSerializer, request)
    data["on"] = data.get("on") or _today()
    ACTIONS[action](permit, data)
    return _detail(permit, request)


@extend_schema(request=ChangeSerializer, responses={201: OpenApiTypes.OBJECT})
@api_view(["POST"])
def permit_changes(request, pk):
    """Apply for a renewal, transfer or change of plumber (the fee is charged; staff grant it once paid)."""
    permit = selectors.permit_get(user=request.user, pk=pk)
    if not (policies.acts_for_permit(request.user, permit) or permit.owner.user_id == request.user.pk):
        raise PermissionDenied("The owner, the permit's plumber or county staff apply for changes.")
    d = _valid(ChangeSerializer, request)
    new_plumber = _license(d["new_plumber_license"], "new_plumber_license") if d.get("new_plumber_license") else None
    change = services.permit_request_change(permit=permit, kind=d["kind"], received_on=d.get("received_on") or _today(),
                                            new_owner_name=d.get("new_owner_name") or "",
                                            new_owner_mailing_address=d.get("new_owner_mailing_address") or "",
                                            new_plumber=new_plumber, new_state_approval=d["new_state_approval"])
    return Response({"change": change.id, "permit": PermitDetailSerializer(Permit.objects.get(pk=pk)).data}, status=201)


@extend_schema(request=ActionSerializer, responses=PermitDetailSerializer)
@api_view(["POST"])
def change_decide(request, pk, decision):
    change = get_object_or_404(PermitChange.objects.filter(permit__in=selectors.permit_list(user=request.user)), pk=pk)
    if not policies.can_decide(request.user, change.permit):
        raise PermissionDenied("County staff grant or refuse changes.")
    data = _valid(ActionSerializer, request)
    on = data.get("on") or _today()
    if decision == "grant":
        services.permit_grant_change(change=change, on=on, require_onsite_inspection=data["require_onsite_inspection"])
    elif decision == "refuse":
        services.permit_refuse_change(change=change, on=on, reason=data.get("note", ""))
    else:
        return Response({"errors": {"decision": ["grant or refuse"]}}, status=404)
    return _detail(change.permit, request)


@extend_schema(request=InspectionRequestSerializer, responses={201: OpenApiTypes.OBJECT})
@api_view(["POST"])
def inspection_request(request, pk):
    """The plumber's notice; the answer gives the county's deadline and, when refused, the earliest allowed day."""
    permit = selectors.permit_get(user=request.user, pk=pk)
    if not policies.acts_for_permit(request.user, permit):
        raise PermissionDenied("The permit's plumber (or county staff) requests inspections.")
    d = _valid(InspectionRequestSerializer, request)
    insp = services.inspection_request(permit=permit, stage=d["stage"], notice_at=d.get("notice_at") or timezone.now(),
                                       requested_day=d.get("requested_day"), requested_by=request.user)
    return Response(inspection_json(insp), status=201)


@extend_schema(request=InspectionResultSerializer, responses=OpenApiTypes.OBJECT)
@api_view(["POST"])
def inspection_result(request, pk):
    insp = selectors.inspection_get(user=request.user, pk=pk)
    if not policies.can_decide(request.user, insp.permit):
        raise PermissionDenied("County inspectors record results.")
    d = _valid(InspectionResultSerializer, request)
    insp = services.inspection_record(inspection=insp, result=d["result"], on=d.get("inspected_on") or _today(),
                                      failed_items=d["failed_items"], notes=d["notes"], waive_fee=d["waive_fee"])
    if insp.inspector_id is None:
        services.inspection_assign(inspection=insp, inspector=request.user)
    return Response(inspection_json(insp))


@extend_schema(request=PaymentSerializer, responses={201: InvoiceSerializer})
@api_view(["POST"])
def invoice_payment(request, pk):
    invoice = get_object_or_404(Invoice.objects.select_related("permit"), pk=pk)
    if not policies.is_county_staff_for(request.user, invoice.jurisdiction_id):
        raise PermissionDenied("County staff record payments.")
    d = _valid(PaymentSerializer, request)
    services.payment_record(invoice=invoice, amount=d["amount"], received_on=d.get("received_on") or _today(),
                            method=d["method"], reference=d["reference"])
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
