"""API for soil evaluations, building-permit clearances, emergency work, failing systems, correction
orders and variances. Staff act for their county; soil testers file their own reports."""
from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.response import Response

from powts.accounts.models import License
from powts.inventory.models import Parcel, System
from powts.jurisdictions.models import Jurisdiction
from powts.permits import policies, selectors
from powts.permits.api.serializers import (
    ClearanceSerializer,
    DecideSerializer,
    EmergencySerializer,
    FailureSerializer,
    OrderSerializer,
    SoilSerializer,
    RescindSerializer,
    VarianceSerializer,
    VerifySerializer,
    order_json,
    soil_json,
    variance_json,
)
from powts.permits.models import CorrectionOrder, SoilEvaluation, Variance
from powts.permits.services import enforcement as enf
from powts.permits.services import site

LIST_OF_OBJECTS = {"type": "array", "items": {"type": "object", "additionalProperties": True}}  # what the GETs answer (the schema said 201 only)


def _valid(cls, request):
    s = cls(data=request.data)
    s.is_valid(raise_exception=True)
    return s.validated_data


def _county(user, slug=None):
    if user.jurisdiction_id:
        return user.jurisdiction
    unit = Jurisdiction.objects.filter(slug=slug or "").first()
    if unit is None:
        raise serializers.ValidationError({"jurisdiction": ["jurisdiction is required (a county slug)"]})
    return unit


def _staff(user, unit):
    if not policies.is_county_staff_for(user, unit.pk):
        raise PermissionDenied(f"Only {unit.name} staff may do this.")


def _staff_county(user):
    """The county of a county-staff user; anyone else may not use the staff-only endpoints (403)."""
    if not user.jurisdiction_id:
        raise PermissionDenied("Only county staff may do this.")
    _staff(user, user.jurisdiction)
    return user.jurisdiction


def _parcel(unit, number):
    parcel = Parcel.objects.filter(jurisdiction=unit, parcel_number=number).first()
    if parcel is None:
        raise serializers.ValidationError({"parcel_number": ["no such parcel in this county's inventory"]})
    return parcel


def _system(unit, system_id):
    system = System.objects.filter(jurisdiction=unit, system_id=system_id).first()
    if system is None:
        raise serializers.ValidationError({"system_id": ["no such system in this county's inventory"]})
    return system


def _lic(number, field):
    lic = License.objects.filter(number=number).first() if number else None
    if number and lic is None:
        raise serializers.ValidationError({field: [f"no license {number!r} on record"]})
    return lic



@extend_schema(methods=["GET"], responses={200: LIST_OF_OBJECTS})
@extend_schema(methods=["POST"], request=SoilSerializer, responses={201: OpenApiTypes.OBJECT})
@api_view(["GET", "POST"])
def soil_evaluations(request):
    """GET: your county's reports (staff) or your own (soil tester). POST: a certified soil tester files a report."""
    user = request.user
    if request.method == "GET":
        qs = SoilEvaluation.objects.select_related("parcel", "soil_tester")
        qs = qs.filter(jurisdiction_id=user.jurisdiction_id) if user.jurisdiction_id else qs.filter(soil_tester__user=user)
        return Response([soil_json(x) for x in qs[:500]])
    d = _valid(SoilSerializer, request)
    unit = _county(user, d.get("jurisdiction"))
    tester = _lic(d.get("soil_tester_license"), "soil_tester_license") or user.licenses.filter(kind="soil_tester").first()
    if tester is None:
        raise serializers.ValidationError({"soil_tester_license": ["the certified soil tester's license number is required"]})
    if tester.user_id != user.pk:
        _staff(user, unit)
    ev = site.soil_evaluation_file(jurisdiction=unit, parcel=_parcel(unit, d["parcel_number"]), soil_tester=tester,
                                   fieldwork_completed_on=d["fieldwork_completed_on"],
                                   filed_on=d.get("filed_on") or timezone.localdate(), areas=[dict(a) for a in d["areas"]])
    return Response(soil_json(ev), status=201)


@extend_schema(request=VerifySerializer, responses=OpenApiTypes.OBJECT)
@api_view(["POST"])
def soil_verify(request, pk):
    ev = get_object_or_404(SoilEvaluation.objects.select_related("jurisdiction", "parcel", "soil_tester"), pk=pk)
    _staff(request.user, ev.jurisdiction)
    d = _valid(VerifySerializer, request)
    ev = site.soil_evaluation_verify(evaluation=ev, outcome=d["outcome"], on=d.get("on") or timezone.localdate(), note=d["note"])
    return Response(soil_json(ev))


@extend_schema(responses=OpenApiTypes.OBJECT)
@api_view(["GET"])
def building_permit_gate(request, parcel_number):
    """May a building permit for a new structure on this parcel issue? (the profile's clearance rules)"""
    unit = _county(request.user, request.GET.get("jurisdiction"))
    if not policies.can_read_gate(request.user, unit.pk):
        raise PermissionDenied(f"Only {unit.name} staff may query its building-permit gate.")
    # The parcel is the URL's resource: one not in this county is not found (404), whoever asks.
    parcel = get_object_or_404(Parcel, jurisdiction=unit, parcel_number=parcel_number)
    return Response(site.building_permit_gate(parcel=parcel))


@extend_schema(request=ClearanceSerializer, responses={201: OpenApiTypes.OBJECT})
@api_view(["POST"])
def clearances(request):
    unit = _county(request.user, request.data.get("jurisdiction"))
    _staff(request.user, unit)
    d = _valid(ClearanceSerializer, request)
    permit = None
    if d.get("permit_number"):
        permit = selectors.permit_list(user=request.user).filter(jurisdiction=unit, number=d["permit_number"]).first()
        if permit is None:
            raise serializers.ValidationError({"permit_number": ["no such permit"]})
    cl = site.clearance_request(jurisdiction=unit, parcel=_parcel(unit, d["parcel_number"]), kind=d["kind"],
                                requested_on=d.get("requested_on") or timezone.localdate(), documents=d["documents"],
                                permit=permit, bedrooms_before=d.get("bedrooms_before"), bedrooms_after=d.get("bedrooms_after"),
                                living_area_changed_pct=d.get("living_area_changed_pct"),
                                undersized_bedrooms=d.get("undersized_bedrooms"),
                                affidavit_recording_number=d.get("affidavit_recording_number", ""),
                                affidavit_recorded_on=d.get("affidavit_recorded_on"))
    return Response({"id": cl.id, "kind": cl.kind, "approved": cl.approved, "findings": cl.findings}, status=201)


@extend_schema(request=EmergencySerializer, responses={201: OpenApiTypes.OBJECT})
@api_view(["POST"])
def emergency_work(request):
    """Emergency work reported by the plumber (the profile's emergency rule): the report and application due dates come back."""
    unit = _county(request.user, request.data.get("jurisdiction"))
    d = _valid(EmergencySerializer, request)
    plumber = _lic(d.get("plumber_license"), "plumber_license") or policies.plumber_license(request.user)
    if plumber is None:
        raise serializers.ValidationError({"plumber_license": ["the plumber's license number is required"]})
    if plumber.user_id != request.user.pk:
        _staff(request.user, unit)
    em = site.emergency_report(jurisdiction=unit, parcel=_parcel(unit, d["parcel_number"]), plumber=plumber,
                               work_started_on=d["work_started_on"], reported_on=d.get("reported_on") or timezone.localdate(),
                               description=d["description"])
    return Response({"id": em.id, "report_due_on": em.report_due_on, "application_due_on": em.application_due_on,
                     "findings": em.findings}, status=201)


@extend_schema(request=FailureSerializer, responses={201: OpenApiTypes.OBJECT})
@api_view(["POST"])
def failure_determinations(request):
    unit = _staff_county(request.user)
    d = _valid(FailureSerializer, request)
    det = enf.failure_determine(system=_system(unit, d["system_id"]), conditions=d["conditions"],
                                on=d.get("on") or timezone.localdate(), basis=d["basis"],
                                inspector_license=_lic(d.get("inspector_license"), "inspector_license"), notes=d["notes"])
    return Response({"id": det.id, "category": det.category, "conditions": det.conditions, "citation": enf.failure_citation(det.determined_on)},
                    status=201)



@extend_schema(methods=["GET"], responses={200: LIST_OF_OBJECTS})
@extend_schema(methods=["POST"], request=OrderSerializer, responses={201: OpenApiTypes.OBJECT})
@api_view(["GET", "POST"])
def correction_orders(request):
    unit = _staff_county(request.user)
    if request.method == "GET":
        return Response([order_json(o) for o in CorrectionOrder.objects.filter(jurisdiction=unit).select_related("system")[:500]])
    d = _valid(OrderSerializer, request)
    o = enf.correction_order_issue(system=_system(unit, d["system_id"]), on=d.get("on") or timezone.localdate(),
                                   correct_by=d["correct_by"], requirement=d["requirement"])
    return Response(order_json(o), status=201)


@extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
@api_view(["POST"])
def correction_order_update(request, pk, what):
    """what: follow-up ({"note"}) or close."""
    o = get_object_or_404(CorrectionOrder.objects.select_related("system", "jurisdiction"), pk=pk)
    _staff(request.user, o.jurisdiction)
    on = timezone.localdate()
    if what == "follow-up":
        note = str(request.data.get("note", "")).strip()
        if not note:
            raise serializers.ValidationError({"note": ["a follow-up needs a note"]})
        o = enf.correction_order_follow_up(order=o, on=on, note=note)
    elif what == "close":
        o = enf.correction_order_close(order=o, on=on)
    else:
        return Response({"errors": {"what": ["follow-up or close"]}}, status=404)
    return Response(order_json(o))


@extend_schema(request=VarianceSerializer, responses={200: LIST_OF_OBJECTS, 201: OpenApiTypes.OBJECT})
@api_view(["GET", "POST"])
def variances(request):
    """GET: the variances one may see (DSPS every county's, staff their county's, owners their systems');
    POST: a petition to the department by the system's owner or its county (Wis. Stat. s. 145.24(1))."""
    user = request.user
    if not policies.can_see_variances(user):
        raise PermissionDenied("Variances are petitioned by owners and counties and decided by the department (DSPS).")
    if request.method == "GET":
        rows = Variance.objects.select_related("system", "jurisdiction")
        if not policies.can_decide_variances(user):
            rows = rows.filter(jurisdiction_id=user.jurisdiction_id) if user.jurisdiction_id else rows.filter(system__parcel__owner__user=user)
        return Response([variance_json(v) for v in rows[:1000]])
    if policies.can_decide_variances(user):
        raise PermissionDenied("Variances are petitioned by the system's owner or its county.")
    d = _valid(VarianceSerializer, request)
    if user.jurisdiction_id:
        system = _system(_staff_county(user), d["system_id"])
    else:
        system = System.objects.filter(parcel__owner__user=user, system_id=d["system_id"]).first()
        if system is None:
            raise serializers.ValidationError({"system_id": ["no such system of yours"]})
    if not policies.can_petition_variance(user, system):
        raise PermissionDenied("Variances are petitioned by the system's owner or its county.")
    v = enf.variance_petition(system=system, standard=d["standard"], on=d.get("on") or timezone.localdate(),
                              reason=d["reason"], by=user)
    return Response({"id": v.id, "status": v.status, "petitioner": v.petitioner}, status=201)


def _department(user):
    if not policies.can_decide_variances(user):
        raise PermissionDenied(f"Variances are decided and rescinded by the department (DSPS) [{enf.VARIANCE_CITATION}].")


@extend_schema(request=DecideSerializer, responses=OpenApiTypes.OBJECT)
@api_view(["POST"])
def variance_decide(request, pk):
    """The department's decision (Wis. Stat. s. 145.24(3)): grant, or deny with the reason."""
    _department(request.user)
    v = get_object_or_404(Variance.objects.select_related("system", "jurisdiction"), pk=pk)
    d = _valid(DecideSerializer, request)
    v = enf.variance_decide(variance=v, grant=d["grant"], on=d.get("on") or timezone.localdate(), reason=d["reason"],
                            threat_to_waters=d["threat_to_waters"], by=request.user)
    return Response(variance_json(v))


@extend_schema(request=RescindSerializer, responses=OpenApiTypes.OBJECT)
@api_view(["POST"])
def variance_rescind(request, pk):
    """The department rescinds a variance when the system fails or contaminates waters of the state (s. 145.24(3))."""
    _department(request.user)
    v = get_object_or_404(Variance.objects.select_related("system", "jurisdiction"), pk=pk)
    d = _valid(RescindSerializer, request)
    v = enf.variance_rescind(variance=v, on=d.get("on") or timezone.localdate(), reason=d["reason"], ground=d["ground"],
                             by=request.user)
    return Response(variance_json(v))
