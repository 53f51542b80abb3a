"""API serializers: the shapes of what the permit endpoints take and answer. No business logic: the
services (powts.permits.services) decide, the action table (powts.permits.actions) says who may run what."""
from __future__ import annotations

from rest_framework import serializers

from powts.permits import actions, selectors
from powts.permits import choices as c
from powts.permits.models import Invoice, Permit
from powts.permits.services import enforcement as enf


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
    parcel_pending = serializers.BooleanField(source="parcel.pending", read_only=True,
                                              help_text="New construction: the parcel waits for the county to confirm it.")
    plumber_license = serializers.CharField(source="plumber.number", read_only=True)
    plumber_name = serializers.CharField(source="plumber.holder_name", read_only=True)

    class Meta:
        model = Permit
        fields = ["id", "number", "jurisdiction", "kind", "status", "parcel_number", "parcel_pending", "site_address", "owner_name",
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
    recordings = serializers.SerializerMethodField()
    appeals = serializers.SerializerMethodField()
    component_tests = serializers.SerializerMethodField()

    class Meta(PermitSerializer.Meta):
        fields = [*PermitSerializer.Meta.fields, "lot_dimensions", "driving_directions", "reference_points",
                  "estimated_daily_flow_gpd", "bedrooms", "has_pumps", "plans_signed", "state_plan_required",
                  "plan_stamped_by_designer", "existing_system_on_lot", "recording_required", "setback_result",
                  "code_basis_on", "missing", "documents", "invoices", "inspections", "changes", "notices", "timeline",
                  "holding_tank", "frequent_servicing", "off_lot", "shared", "owned_by_other", "flow_not_by_bedrooms",
                  "flow_rated_reconnection", "nonplumbing_kind", "container_gallons", "placement_days", "temporary_until",
                  "temporary_reason", "connected_on", "recordings", "appeals", "component_tests"]

    def get_recordings(self, obj) -> list[dict]:
        """The documents the county requires recorded, the step each must be verified before, and its state."""
        return [{"id": r["id"], "label": r["label"], "citation": r["citation"], "kind": r["kind"], "before": r["before"],
                 "document": r["document"].pk if r["document"] else None, "verified": r["verified"]}
                for r in selectors.recordings(obj)]

    def get_appeals(self, obj) -> list[dict]:
        return [{"id": a.id, "decision": a.decision, "appellant": a.appellant, "notice": a.notice_id, "body": a.body,
                 "filed_on": a.filed_on, "hearing_on": a.hearing_on, "outcome": a.outcome, "decided_on": a.decided_on,
                 "outcome_note": a.outcome_note, "citation": a.citation} for a in obj.appeals.all()]

    def get_component_tests(self, obj) -> list[dict]:
        return [{"id": t.id, "component": t.component, "requested_day": t.requested_day, "deadline_day": t.deadline_day,
                 "tester": t.tester.number if t.tester_id else None, "verification": t.verification, "passed": t.passed,
                 "verified_on": t.verified_on, "results": t.results, "citation": t.citation}
                for t in obj.component_tests.select_related("tester")]

    def get_missing(self, obj) -> list[dict]:
        return selectors.missing_items(obj) if obj.status in c.OPEN_STATUSES else []

    def get_documents(self, obj) -> list[dict]:
        return [{"id": d.id, "kind": d.kind, "title": d.title, "received_on": d.received_on, "recorded": d.recorded,
                 "recording_number": d.recording_number, "recorded_on": d.recorded_on,
                 "recording_verified_on": d.recording_verified_on, "due_on": d.due_on, "late_days": d.late_days,
                 "changed_on": d.changed_on}
                for d in obj.documents.all()]

    def get_inspections(self, obj) -> list[dict]:
        return [inspection_json(i) for i in obj.inspections.all()]

    def get_changes(self, obj) -> list[dict]:
        return [{"id": ch.id, "kind": ch.kind, "status": ch.status, "received_on": ch.received_on,
                 "decided_on": ch.decided_on, "explanation": ch.explanation, "citation": ch.citation,
                 "invoice": ch.invoice_id, "changed_fields": ch.changed_fields, "at": ch.at,
                 "by": ch.by.display_name if ch.by_id else None} for ch in obj.changes.select_related("by")]

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


# -- what the permit actions take: built from the one action table (powts.permits.actions), for the
# OpenAPI documentation; the actions parse the same inputs themselves, for the web page and the API alike.

def _drf_field(item: actions.Input) -> serializers.Field:
    kw = {"required": item.required, "help_text": item.help or None}
    kind = item.kind
    if kind == "date":
        return serializers.DateField(allow_null=not item.required, **kw)
    if kind == "datetime":
        return serializers.DateTimeField(allow_null=True, **kw)
    if kind in ("lines", "list"):
        return serializers.ListField(child=serializers.CharField(max_length=item.max_length), **kw)
    if kind == "flag":
        return serializers.BooleanField(**kw)
    if kind == "decimal":
        return serializers.DecimalField(max_digits=10, decimal_places=2, **kw)
    if kind == "json":
        return serializers.JSONField(**kw)
    if kind in ("record", "integer"):
        return serializers.IntegerField(min_value=0, allow_null=not item.required, **kw)
    if kind == "choice":
        return serializers.ChoiceField(choices=list(item.choices), **kw)
    return serializers.CharField(allow_blank=not item.required, max_length=item.max_length, **kw)


def input_serializer(name: str, inputs, *, leave_out=()) -> type[serializers.Serializer]:
    """A serializer documenting `inputs` (each other name an input is accepted under documented beside it)."""
    attrs = {}
    for item in inputs:
        if item.name in leave_out or item.name in attrs:
            continue
        attrs[item.name] = _drf_field(item)
        for alias in item.also:
            attrs.setdefault(alias, _drf_field(actions.Input(alias, item.kind, help=f"the same as {item.name}",
                                                             max_length=item.max_length, choices=item.choices)))
    return type(name, (serializers.Serializer,), attrs)


def action_serializer(name: str, action: str, *, leave_out=()) -> type[serializers.Serializer]:
    return input_serializer(name, actions.ACTIONS[action].inputs, leave_out=leave_out)


FileSerializer = input_serializer("FileSerializer", actions.APPLICATION_INPUTS)
DocumentSerializer = action_serializer("DocumentSerializer", "document")
ActionSerializer = input_serializer("ActionSerializer", [i for a in actions.ACTIONS.values() if a.on_actions_endpoint
                                                         for i in a.inputs])
ChangeSerializer = action_serializer("ChangeSerializer", "change")
DecideChangeSerializer = input_serializer("DecideChangeSerializer", actions.ACTIONS["grant"].inputs
                                          + actions.ACTIONS["refuse"].inputs, leave_out=("change",))
InspectionRequestSerializer = action_serializer("InspectionRequestSerializer", "inspection")
InspectionResultSerializer = action_serializer("InspectionResultSerializer", "result", leave_out=("inspection",))
PaymentSerializer = action_serializer("PaymentSerializer", "payment", leave_out=("invoice",))



# -- site and enforcement ----------------------------------------------------------------------

class AreaSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    replacement = serializers.BooleanField(required=False, default=False)
    below_grade_gravity = serializers.BooleanField(required=False, default=False)
    pits = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    depth_below_infiltrative_in = serializers.FloatField(required=False, allow_null=True, min_value=0)
    suitable_soil_in = serializers.FloatField(required=False, allow_null=True, min_value=0)
    frozen_within_in = serializers.FloatField(required=False, allow_null=True, min_value=0)


class SoilSerializer(serializers.Serializer):
    jurisdiction = serializers.SlugField(required=False)
    parcel_number = serializers.CharField(max_length=60)
    soil_tester_license = serializers.CharField(required=False, max_length=40)
    fieldwork_completed_on = serializers.DateField()
    filed_on = serializers.DateField(required=False)
    areas = AreaSerializer(many=True)


class VerifySerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=c.SoilVerification.choices)
    on = serializers.DateField(required=False)
    note = serializers.CharField(required=False, allow_blank=True, default="")


class ClearanceSerializer(serializers.Serializer):
    parcel_number = serializers.CharField(max_length=60)
    kind = serializers.ChoiceField(choices=c.ClearanceKind.choices)
    requested_on = serializers.DateField(required=False)
    documents = serializers.ListField(child=serializers.CharField(max_length=40), required=False, default=list)
    permit_number = serializers.CharField(required=False, max_length=30)
    bedrooms_before = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    bedrooms_after = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    living_area_changed_pct = serializers.DecimalField(required=False, allow_null=True, max_digits=5, decimal_places=1, min_value=0)
    undersized_bedrooms = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=100,
                                                   help_text="flow change: the existing system is short by the load of this many bedrooms")
    affidavit_recording_number = serializers.CharField(required=False, allow_blank=True, max_length=60, default="",
                                                       help_text="the register of deeds' number of the undersized system's affidavit")
    affidavit_recorded_on = serializers.DateField(required=False, allow_null=True)


class EmergencySerializer(serializers.Serializer):
    parcel_number = serializers.CharField(max_length=60)
    plumber_license = serializers.CharField(required=False, max_length=40)
    work_started_on = serializers.DateField()
    reported_on = serializers.DateField(required=False)
    description = serializers.CharField()


class FailureSerializer(serializers.Serializer):
    system_id = serializers.CharField(max_length=60)
    conditions = serializers.ListField(child=serializers.ChoiceField(choices=c.FailureCondition.choices))
    on = serializers.DateField(required=False)
    basis = serializers.ChoiceField(choices=["inspection", "order"])
    inspector_license = serializers.CharField(required=False, max_length=40)
    notes = serializers.CharField(required=False, allow_blank=True, default="")


class OrderSerializer(serializers.Serializer):
    system_id = serializers.CharField(max_length=60)
    on = serializers.DateField(required=False)
    correct_by = serializers.DateField()
    requirement = serializers.CharField()


class VarianceSerializer(serializers.Serializer):
    system_id = serializers.CharField(max_length=60)
    standard = serializers.ChoiceField(choices=["siting", "design"])
    on = serializers.DateField(required=False)
    reason = serializers.CharField(required=False, allow_blank=True, default="")


class DecideSerializer(serializers.Serializer):
    grant = serializers.BooleanField()
    on = serializers.DateField(required=False)
    reason = serializers.CharField(required=False, allow_blank=True, default="")
    threat_to_waters = serializers.BooleanField(required=False, default=False)


class RescindSerializer(serializers.Serializer):
    ground = serializers.ChoiceField(choices=["failing", "contaminates"])
    on = serializers.DateField(required=False)
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)


def variance_json(v):
    return {"id": v.id, "system_id": v.system.system_id, "jurisdiction": v.jurisdiction.slug, "standard": v.standard,
            "status": v.status, "petitioned_on": v.petitioned_on, "petitioner": v.petitioner, "decided_on": v.decided_on,
            "decision_reason": v.decision_reason, "rescinded_on": v.rescinded_on, "rescission_ground": v.rescission_ground,
            "citation": v.citation}


def soil_json(ev):
    return {"id": ev.id, "parcel_number": ev.parcel.parcel_number, "soil_tester": ev.soil_tester.number,
            "fieldwork_completed_on": ev.fieldwork_completed_on, "filed_on": ev.filed_on, "areas": ev.areas,
            "findings": ev.findings, "complies": all(f["ok"] for f in ev.findings), "verification": ev.verification,
            "verified_on": ev.verified_on, "verification_note": ev.verification_note,
            "due_on": ev.due_on, "filed_late": ev.late_days > 0, "late_days": ev.late_days}


def order_json(o):
    return {"id": o.id, "system_id": o.system.system_id, "issued_on": o.issued_on, "correct_by": o.correct_by,
            "requirement": o.requirement, "status": o.status, "citation": o.citation, "follow_ups": o.follow_ups,
            "corrected_on": o.corrected_on}


# -- Open311 GeoReport v2 -------------------------------------------------------------------

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
    jurisdiction_id = serializers.CharField(help_text="the county's slug, as in its profile")
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


def open311_request_json(comp) -> dict:
    return {"service_request_id": str(comp.pk), "status": comp.status, "service_name": _service_name(comp.service_code),
            "service_code": comp.service_code, "agency_responsible": comp.jurisdiction.name,
            "requested_datetime": comp.requested_at.isoformat(), "updated_datetime": comp.updated_at.isoformat(),
            "address": comp.address, "lat": float(comp.lat) if comp.lat is not None else None,
            "long": float(comp.long) if comp.long is not None else None}
