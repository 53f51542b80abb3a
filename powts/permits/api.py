"""REST API for permits, fees, inspections and complaints. Thin: serializers check shapes, services
decide. Token or session auth (settings.REST_FRAMEWORK); a refused move is a 400 whose JSON names
the field and the rule with its citation; someone else's permit is a 404, a move they may not make a 403.
"""
from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import ParseError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from powts.accounts.models import License
from powts.core.public_posts import MAX_BODY_BYTES, body_too_large, public_post_wait, too_many_message
from powts.permits import choices as c
from powts.permits import documents, exports, policies, selectors, services
from powts.permits.services import enforcement as enf
from powts.permits.models import Complaint, Invoice, Permit, PermitChange

# -- serializers ----------------------------------------------------------------------------

class InvoiceSerializer(serializers.ModelSerializer):
    paid = serializers.DecimalField(max_digits=10, decimal_places=2, read_only=True)
    balance = serializers.DecimalField(max_digits=10, decimal_places=2, read_only=True)

    class Meta:
        model = Invoice
        fields = ["id", "fee_code", "description", "amount", "paid", "balance", "retained", "status", "issued_on",
                  "due_on", "due_citation", "authority", "amount_citation", "schedule_id", "payer"]


class PermitSerializer(serializers.ModelSerializer):
    jurisdiction = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    parcel_number = serializers.CharField(source="parcel.parcel_number", read_only=True)
    site_address = serializers.CharField(source="parcel.site_address", read_only=True)
    owner_name = serializers.CharField(source="owner.name", read_only=True)
    plumber_license = serializers.CharField(source="plumber.number", read_only=True)
    plumber_name = serializers.CharField(source="plumber.holder_name", read_only=True)

    class Meta:
        model = Permit
        fields = ["id", "number", "jurisdiction", "kind", "status", "parcel_number", "site_address", "owner_name",
                  "plumber_license", "plumber_name", "system_type", "work", "building_use", "design_flow_gpd",
                  "filed_on", "decided_on", "issued_on", "expires_on", "completed_on", "renewals"]


class PermitDetailSerializer(PermitSerializer):
    missing = serializers.SerializerMethodField()
    invoices = InvoiceSerializer(many=True, read_only=True)
    inspections = serializers.SerializerMethodField()
    changes = serializers.SerializerMethodField()
    notices = serializers.SerializerMethodField()
    timeline = serializers.SerializerMethodField()
    documents = serializers.SerializerMethodField()

    class Meta(PermitSerializer.Meta):
        fields = [*PermitSerializer.Meta.fields, "lot_dimensions", "driving_directions", "reference_points",
                  "estimated_daily_flow_gpd", "bedrooms", "has_pumps", "plans_signed", "state_plan_required",
                  "plan_stamped_by_designer", "existing_system_on_lot", "recording_required", "setback_result",
                  "code_basis_on", "missing", "documents", "invoices", "inspections", "changes", "notices", "timeline"]

    def get_missing(self, obj) -> list[dict]:
        return selectors.missing_items(obj) if obj.status in c.OPEN_STATUSES else []

    def get_documents(self, obj) -> list[dict]:
        return [{"id": d.id, "kind": d.kind, "title": d.title, "received_on": d.received_on, "recorded": d.recorded,
                 "recording_number": d.recording_number, "recorded_on": d.recorded_on,
                 "recording_verified_on": d.recording_verified_on, "due_on": d.due_on, "late_days": d.late_days}
                for d in obj.documents.all()]

    def get_inspections(self, obj) -> list[dict]:
        return [inspection_json(i) for i in obj.inspections.all()]

    def get_changes(self, obj) -> list[dict]:
        return [{"id": ch.id, "kind": ch.kind, "status": ch.status, "received_on": ch.received_on,
                 "decided_on": ch.decided_on, "explanation": ch.explanation, "citation": ch.citation,
                 "invoice": ch.invoice_id} for ch in obj.changes.all()]

    def get_notices(self, obj) -> list[dict]:
        return [{"id": n.id, "kind": n.kind, "issued_on": n.issued_on, "recipients": n.recipients, "reasons": n.reasons,
                 "amendments": n.amendments, "appeal_rights": n.appeal_rights, "respond_by": n.respond_by,
                 "citation": n.citation} for n in obj.notices.all()]

    def get_timeline(self, obj) -> list[dict]:
        return [{"on": e.on, "at": e.at, "step": e.step, "summary": e.summary, "citation": e.citation,
                 "actor": e.actor.username if e.actor_id else None} for e in obj.events.select_related("actor")]


def inspection_json(i) -> dict:
    return {"id": i.id, "permit": i.permit.number, "stage": i.stage, "stage_citation": i.stage_citation,
            "notice_at": i.notice_at, "requested_day": i.requested_day, "deadline_day": i.deadline_day,
            "deadline_citation": i.deadline_citation, "backfill_after": i.backfill_after,
            "notice_findings": i.notice_findings, "inspector": i.inspector.username if i.inspector_id else None,
            "result": i.result, "inspected_on": i.inspected_on, "failed_items": i.failed_items, "notes": i.notes}


class FileSerializer(serializers.Serializer):
    parcel_number = serializers.CharField(max_length=60)
    owner_name = serializers.CharField(max_length=200, required=False)
    owner_mailing_address = serializers.CharField(required=False, allow_blank=True, default="")
    plumber_license = serializers.CharField(max_length=40, required=False,
                                            help_text="License number; defaults to the signed-in plumber's.")
    jurisdiction = serializers.SlugField(required=False)
    filed_on = serializers.DateField(required=False)
    kind = serializers.ChoiceField(choices=c.PermitKind.choices, default=c.PermitKind.STATE)
    system_type = serializers.ChoiceField(choices=c.InspectionSystem.choices, default=c.InspectionSystem.STANDARD)
    work = serializers.CharField(required=False, allow_blank=True, max_length=200)
    building_use = serializers.CharField(required=False, allow_blank=True, max_length=100)
    lot_dimensions = serializers.CharField(required=False, allow_blank=True, max_length=100)
    driving_directions = serializers.CharField(required=False, allow_blank=True)
    reference_points = serializers.CharField(required=False, allow_blank=True)
    estimated_daily_flow_gpd = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    design_flow_gpd = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    bedrooms = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=100)
    has_pumps = serializers.BooleanField(required=False)
    plans_signed = serializers.BooleanField(required=False)
    state_plan_required = serializers.BooleanField(required=False)
    plan_stamped_by_designer = serializers.BooleanField(required=False)
    existing_system_on_lot = serializers.BooleanField(required=False)
    recording_required = serializers.BooleanField(required=False)
    plot_plan = serializers.JSONField(required=False)
    documents = serializers.ListField(child=serializers.CharField(max_length=40), required=False,
                                      help_text="Kinds of the documents filed with the application.")


class DocumentSerializer(serializers.Serializer):
    kind = serializers.CharField(max_length=40)
    title = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")
    received_on = serializers.DateField(required=False)
    recorded = serializers.BooleanField(required=False, default=False)


class ActionSerializer(serializers.Serializer):
    on = serializers.DateField(required=False)
    reasons = serializers.ListField(child=serializers.CharField(), required=False, default=list)
    amendments = serializers.ListField(child=serializers.CharField(), required=False, default=list)
    minor_technical = serializers.BooleanField(required=False, default=False)
    failure_to_correct = serializers.BooleanField(required=False, default=False)
    respond_by = serializers.DateField(required=False, allow_null=True)
    note = serializers.CharField(required=False, allow_blank=True, default="")
    require_onsite_inspection = serializers.BooleanField(required=False, default=False,
                                                         help_text="renewal grant: require a new on-site inspection (Dane s. 46.08(5))")
    approved_on = serializers.DateField(required=False, allow_null=True,
                                        help_text="plan-revision: the day DSPS or the agent approved the revision")
    document = serializers.IntegerField(required=False, allow_null=True,
                                        help_text="verify-recording: the id of the document whose recording staff verified")
    recording_number = serializers.CharField(required=False, allow_blank=True, max_length=60, default="",
                                             help_text="verify-recording: the register of deeds' document number")
    recorded_on = serializers.DateField(required=False, allow_null=True,
                                        help_text="verify-recording: the date the document was recorded")


class ChangeSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=c.ChangeKind.choices)
    received_on = serializers.DateField(required=False)
    new_owner_name = serializers.CharField(required=False, max_length=200)
    new_owner_mailing_address = serializers.CharField(required=False, allow_blank=True, default="")
    new_plumber_license = serializers.CharField(required=False, max_length=40)
    new_state_approval = serializers.BooleanField(required=False, default=False)


class InspectionRequestSerializer(serializers.Serializer):
    stage = serializers.CharField(max_length=40)
    notice_at = serializers.DateTimeField(required=False, help_text="When the notice is given; default now.")
    requested_day = serializers.DateField(required=False, allow_null=True)


class InspectionResultSerializer(serializers.Serializer):
    result = serializers.ChoiceField(choices=[x for x in c.InspectionResult.choices if x[0] != "requested"])
    inspected_on = serializers.DateField(required=False)
    failed_items = serializers.ListField(child=serializers.CharField(), required=False, default=list)
    notes = serializers.CharField(required=False, allow_blank=True, default="")
    waive_fee = serializers.BooleanField(required=False, default=False)


class PaymentSerializer(serializers.Serializer):
    amount = serializers.DecimalField(max_digits=10, decimal_places=2)
    received_on = serializers.DateField(required=False)
    method = serializers.ChoiceField(choices=[x for x in c.PaymentMethod.choices if x[0] not in ("refund", "returned")],
                                     default=c.PaymentMethod.CHECK)
    reference = serializers.CharField(required=False, allow_blank=True, max_length=100, default="")


# -- helpers --------------------------------------------------------------------------------

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


# -- Open311 GeoReport v2 -------------------------------------------------------------------
# The public sees a request's service, status, place and dates; never what the complainant wrote or who
# they are (issue 8). Staff read everything on the staff pages.

class Open311RequestSerializer(serializers.Serializer):
    service_request_id = serializers.CharField()
    status = serializers.CharField()
    service_name = serializers.CharField()
    service_code = serializers.CharField()
    agency_responsible = serializers.CharField()
    requested_datetime = serializers.DateTimeField()
    updated_datetime = serializers.DateTimeField()
    address = serializers.CharField(allow_blank=True)
    lat = serializers.FloatField(allow_null=True)
    long = serializers.FloatField(allow_null=True)


class Open311ServiceSerializer(serializers.Serializer):
    service_code = serializers.CharField()
    service_name = serializers.CharField()
    description = serializers.CharField()
    metadata = serializers.BooleanField()
    type = serializers.CharField()
    keywords = serializers.CharField()
    group = serializers.CharField()


class Open311CreatedSerializer(serializers.Serializer):
    service_request_id = serializers.CharField()
    service_notice = serializers.CharField()
    account_id = serializers.CharField(allow_null=True)


class Open311PostSerializer(serializers.Serializer):
    """What a POST may carry (GeoReport v2 names); checked by enf.complaint_create."""
    jurisdiction_id = serializers.CharField(help_text="the county: dane or lincoln")
    service_code = serializers.CharField(max_length=enf.COMPLAINT_MAX["service_code"])
    description = serializers.CharField(max_length=enf.COMPLAINT_MAX["description"])
    address_string = serializers.CharField(required=False, max_length=enf.COMPLAINT_MAX["address_string"])
    lat = serializers.DecimalField(required=False, max_digits=9, decimal_places=6, min_value=-90, max_value=90)
    long = serializers.DecimalField(required=False, max_digits=9, decimal_places=6, min_value=-180, max_value=180)
    email = serializers.EmailField(required=False, max_length=enf.COMPLAINT_MAX["email"])
    first_name = serializers.CharField(required=False, max_length=enf.COMPLAINT_MAX["first_name"])
    last_name = serializers.CharField(required=False, max_length=enf.COMPLAINT_MAX["last_name"])
    phone = serializers.CharField(required=False, max_length=enf.COMPLAINT_MAX["phone"])


def _service_name(code: str) -> str:
    return next((s["service_name"] for s in enf.SERVICES if s["service_code"] == code), "")



def _open311_request(comp: Complaint) -> dict:
    return {"service_request_id": str(comp.pk), "status": comp.status, "service_name": _service_name(comp.service_code),
            "service_code": comp.service_code, "agency_responsible": comp.jurisdiction.name,
            "requested_datetime": comp.requested_at.isoformat(), "updated_datetime": comp.updated_at.isoformat(),
            "address": comp.address, "lat": float(comp.lat) if comp.lat is not None else None,
            "long": float(comp.long) if comp.long is not None else None}


def _open311_errors(status: int, messages: list[str], headers: dict | None = None) -> Response:
    return Response([{"code": status, "description": m} for m in messages], status=status, headers=headers)


# A raw schema: drf-spectacular drops many=True on error responses, and Open311 errors are a list.
_OPEN311_ERROR_LIST = {"type": "array", "items": {"type": "object", "required": ["code", "description"], "properties": {
    "code": {"type": "integer"}, "description": {"type": "string"}}}}
_OPEN311_ERRORS = {400: _OPEN311_ERROR_LIST, 429: _OPEN311_ERROR_LIST}


@extend_schema(responses=Open311ServiceSerializer(many=True), auth=[])
@api_view(["GET"])
@permission_classes([AllowAny])
def open311_services(request):
    return Response(enf.SERVICES)


@extend_schema(methods=["GET"], responses={200: Open311RequestSerializer(many=True), 400: _OPEN311_ERROR_LIST}, auth=[],
               parameters=[OpenApiParameter("jurisdiction_id", str), OpenApiParameter("status", str),
                           OpenApiParameter("service_code", str)])
@extend_schema(methods=["POST"], request=Open311PostSerializer, auth=[],
               responses={201: Open311CreatedSerializer(many=True), **_OPEN311_ERRORS})
@api_view(["GET", "POST"])
@permission_classes([AllowAny])
def open311_requests(request):
    """GET: requests, public fields only. POST: a new service request; `jurisdiction_id` is the county slug.
    Posts are limited per address (settings.POWTS_PUBLIC_POST_RATE); too many is a 429."""
    if request.method == "GET":
        qs = Complaint.objects.select_related("jurisdiction")
        for param, lookup in (("jurisdiction_id", "jurisdiction__slug"), ("status", "status"),
                              ("service_code", "service_code")):
            value = request.GET.get(param, "")
            if len(value) > 100:  # a NUL never gets here: RefuseNulMiddleware answers it in Open311's error list
                return _open311_errors(400, [f"{param}: at most 100 characters"])
            if value:
                qs = qs.filter(**{lookup: value})
        return Response([_open311_request(x) for x in qs[:1000]])
    # checked before the body is read or parsed, so an oversized post costs nothing
    if body_too_large(request):
        limit = enf.COMPLAINT_MAX["description"]
        message = (f"description: too long; at most {limit:,} characters "
                   f"(a request may be at most {MAX_BODY_BYTES // 1024} KB)")
        return _open311_errors(400, [message])
    wait = public_post_wait(request)
    if wait is not None:
        return _open311_errors(429, [too_many_message(wait)], headers={"Retry-After": str(wait)})
    try:
        data = request.data
    except ParseError as exc:  # not JSON, not an object, or nested too deep: in Open311's own error list
        return _open311_errors(400, [f"body: {exc.detail}"])
    if not hasattr(data, "get"):
        return _open311_errors(400, ["the request body must be form fields or a JSON object"])
    jurisdiction = selectors.complaint_jurisdiction(data.get("jurisdiction_id"))
    if jurisdiction is None:
        return _open311_errors(400, ["jurisdiction_id: unknown county; e.g. dane or lincoln"])
    try:
        comp = enf.complaint_create(jurisdiction=jurisdiction, service_code=data.get("service_code", ""),
                                    description=data.get("description", ""), address=data.get("address_string", ""),
                                    lat=data.get("lat"), long=data.get("long"), email=data.get("email", ""),
                                    first_name=data.get("first_name", ""), last_name=data.get("last_name", ""),
                                    phone=data.get("phone", ""))
    except DjangoValidationError as exc:  # Open311 wants a list of {code, description}
        return _open311_errors(400, [f"{k}: {m}" for k, v in exc.message_dict.items() for m in v])
    return Response([{"service_request_id": str(comp.pk), "service_notice": f"Received by {jurisdiction.name}",
                      "account_id": None}], status=201)


@extend_schema(responses={200: Open311RequestSerializer(many=True), 404: OpenApiTypes.OBJECT}, auth=[])
@api_view(["GET"])
@permission_classes([AllowAny])
def open311_request(request, pk):
    comp = get_object_or_404(Complaint.objects.select_related("jurisdiction"), pk=pk)
    return Response([_open311_request(comp)])
