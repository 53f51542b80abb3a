"""REST API of oversight. Thin: each write is an action of the one table (powts.oversight.actions), refused
moves are a 400 naming the field with the citation (powts.core.api), someone else's record a 404 or 403."""
from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view
from rest_framework.response import Response

from powts.accounts.models import License
from powts.core.fields import FieldError
from powts.jurisdictions.models import Jurisdiction
from powts.maintenance.models import Report
from powts.oversight import actions, policies, selectors
from powts.oversight.models import Exemption, IssuanceHold, ProgramAudit, Referral, ReportFlag, SampledPermit
from powts.permits.models import Inspection, Permit


LIST_OF_OBJECTS = {"type": "array", "items": {"type": "object", "additionalProperties": True}}


def _body(request):
    if not hasattr(request.data, "get"):
        raise FieldError("body", "the request body must be a JSON object")
    return request.data


def audit_json(audit: ProgramAudit) -> dict:
    return {
        "id": audit.pk, "jurisdiction": audit.jurisdiction.slug, "period_start": audit.period_start,
        "period_end": audit.period_end, "seed": str(audit.seed), "sample_size": audit.sample_size,
        "citation": audit.size_citation, "status": audit.status, "request_text": audit.request_text,
        "respond_by": audit.respond_by, "response_text": audit.response_text, "responded_on": audit.responded_on,
        "closed_on": audit.closed_on,
        "samples": [{"id": s.pk, "permit": s.permit.number, "position": s.position, "outcome": s.outcome,
                     "verified_on": s.verified_on, "findings": s.findings}
                    for s in audit.samples.select_related("permit")],
    }


def flag_json(flag: ReportFlag) -> dict:
    return {"id": flag.pk, "report": flag.report_id, "permit": flag.permit.number if flag.permit_id else None,
            "license": flag.licence_at_fault.number, "kind": flag.kind,
            "reason": flag.reason, "evidence": flag.evidence, "flagged_on": flag.flagged_on, "status": flag.status}


def referral_json(r: Referral) -> dict:
    return {"id": r.pk, "license": r.license.number, "agency": r.agency, "citation": r.citation,
            "referred_on": r.referred_on, "flags": [f.pk for f in r.flags.all()], "outcome": r.outcome,
            "outcome_on": r.outcome_on, "outcome_note": r.outcome_note}


def _json(obj):
    from powts.oversight.models import Assessment

    if isinstance(obj, ProgramAudit):
        return audit_json(obj)
    from powts.oversight.models import ApprovalCategory, DepartmentApproval

    if isinstance(obj, ApprovalCategory):
        return category_json(obj)
    if isinstance(obj, DepartmentApproval):
        return {"id": obj.pk, "permit": obj.permit.number, "category": obj.category_id, "approved_on": obj.approved_on,
                "reference": obj.reference}
    if isinstance(obj, SampledPermit):
        return audit_json(obj.audit)
    if isinstance(obj, ReportFlag):
        return flag_json(obj)
    if isinstance(obj, Referral):
        return referral_json(obj)
    if isinstance(obj, Assessment):
        return {"id": obj.pk, "parcel_number": obj.parcel.parcel_number, "amount": str(obj.cost),
                "authority": obj.authority_name, "tax_year": obj.tax_year, "citation": obj.citation}
    if isinstance(obj, list):
        return [_json(x) for x in obj]
    return {"id": obj.pk, "saved": str(obj)}


@extend_schema(responses={200: OpenApiTypes.OBJECT})
@api_view(["GET"])
def programs(request):
    """Every county's program side by side (?year=): inventory completeness, the SPS 383.255 summary, late
    reports, open orders, audit findings and any hold. The department and state auditors."""
    if not policies.reads_state_view(request.user):
        raise PermissionDenied("The department and state auditors only.")
    today = timezone.localdate()
    try:
        year = min(max(int(request.GET.get("year") or today.year), 2000), today.year)
    except ValueError:
        raise FieldError("year", "year must be a year such as 2025") from None
    rows = selectors.county_programs(year=year, today=today)
    return Response({"year": year, "counties": [{
        "jurisdiction": r["unit"].slug, "systems": r["systems"], "inventory_complete": r["complete"],
        "reports": r["reports"], "late_reports": r["late_reports"], "notices": r["notices"],
        "delinquent": r["delinquent"], "open_orders": r["open_orders"], "overdue_orders": r["overdue_orders"],
        "audit_samples_verified": r["verified"], "audit_findings_deficient": r["deficient"],
        "open_audits": r["open_audits"], "issuance_held_since": r["hold"].placed_on if r["hold"] else None,
        "annual_summary": [{"section": s, "item": i, "count": n} for (s, i), n in r["summary"].items()],
    } for r in rows]})


@extend_schema(request=OpenApiTypes.OBJECT, responses={200: LIST_OF_OBJECTS, 201: OpenApiTypes.OBJECT})
@api_view(["GET", "POST"])
def audits(request):
    """GET: the audits you may read. POST (the department): draw a random sample of a county's permits,
    {jurisdiction, period_start, period_end, seed?} (Wis. Stat. s. 145.20(3)(b))."""
    if request.method == "GET":
        if not (policies.reads_state_view(request.user) or policies.opens_flags(request.user)):
            raise PermissionDenied
        return Response([audit_json(a) for a in selectors.audits_for(request.user)[:200]])
    if not policies.is_department(request.user):
        raise PermissionDenied("Only the department audits county programs.")
    data = _body(request)
    unit = Jurisdiction.objects.filter(slug=str(data.get("jurisdiction") or "")[:60]).first()
    if unit is None:
        raise FieldError("jurisdiction", "jurisdiction must be a county's slug (its name in lower case)")
    return Response(audit_json(actions.perform("draw", user=request.user, target=unit, data=data)), status=201)


@extend_schema(responses={200: OpenApiTypes.OBJECT})
@api_view(["GET"])
def audit(request, pk):
    a = get_object_or_404(ProgramAudit.objects.select_related("jurisdiction"), pk=pk)
    if not policies.reads_county(request.user, a.jurisdiction_id):
        raise PermissionDenied
    return Response(audit_json(a))


TARGETS = {
    "audits": (ProgramAudit, ("request", "respond", "close")),
    "samples": (SampledPermit, ("verify",)),
    "counties": (Jurisdiction, ("hold", "exempt", "detect", "assess")),
    "holds": (IssuanceHold, ("lift",)),
    "exemptions": (Exemption, ("hearing", "revoke")),
    "reports": (Report, ("flag",)),
    "permits": (Permit, ("flag-application", "department-approve")),
    "flags": (ReportFlag, ("evidence", "dismiss")),
    "licenses": (License, ("refer",)),
    "referrals": (Referral, ("outcome",)),
    "inspections": (Inspection, ("reassign",)),
}


@extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT})
@api_view(["POST"])
def act(request, target, pk, action):
    """One oversight action on one record: audits/<id>/request|respond|close, samples/<id>/verify,
    counties/<id>/hold|exempt|detect|assess, holds/<id>/lift, exemptions/<id>/hearing|revoke, reports/<id>/flag,
    permits/<id>/flag-application (where the county profile has the rule),
    flags/<id>/evidence|dismiss, licenses/<id>/refer, referrals/<id>/outcome, inspections/<id>/reassign."""
    if target not in TARGETS or action not in TARGETS[target][1]:
        return Response({"errors": {"action": [f"no action {action!r} on {target!r}"]}}, status=404)
    model = TARGETS[target][0]
    record = get_object_or_404(model, pk=pk)
    result = actions.perform(action, user=request.user, target=record, data=_body(request))
    if isinstance(result, list):  # the reports powts flagged (counties/<id>/detect)
        return Response({"flagged": _json(result)}, status=201)
    return Response(_json(result), status=201)


@extend_schema(responses={200: LIST_OF_OBJECTS})
@api_view(["GET"])
def flags(request):
    """Your county's flagged reports (county staff)."""
    if not policies.opens_flags(request.user) or not request.user.jurisdiction_id:
        raise PermissionDenied("County staff only.")
    return Response([flag_json(f) for f in selectors.flags_of(request.user.jurisdiction_id)[:500]])


@extend_schema(responses={200: OpenApiTypes.OBJECT})
@api_view(["GET"])
def referral(request, pk):
    r = get_object_or_404(Referral.objects.select_related("license"), pk=pk)
    if not policies.reads_county(request.user, r.jurisdiction_id):
        raise PermissionDenied
    return Response(referral_json(r))


@extend_schema(responses={200: LIST_OF_OBJECTS})
@api_view(["GET"])
def assessments(request):
    """The special charges for the county treasurer's tax roll (?tax_year=): parcel number, amount, authority."""
    if not policies.opens_flags(request.user) or not request.user.jurisdiction_id:
        raise PermissionDenied("County staff only.")
    today = timezone.localdate()
    try:
        year = min(max(int(request.GET.get("tax_year") or today.year), 2000), 2199)
    except ValueError:
        raise FieldError("tax_year", "tax_year must be a year such as 2026") from None
    return Response([_json(a) for a in selectors.roll(jurisdiction_id=request.user.jurisdiction_id, tax_year=year)])


def category_json(c_) -> dict:
    return {"id": c_.pk, "name": c_.name, "system_types": c_.system_types, "above_gpd": c_.above_gpd,
            "citation": c_.citation, "specified_on": c_.specified_on, "withdrawn_on": c_.withdrawn_on}


@extend_schema(request=OpenApiTypes.OBJECT, responses={200: LIST_OF_OBJECTS, 201: OpenApiTypes.OBJECT})
@api_view(["GET", "POST"])
def categories(request):
    """Categories of systems needing the department's approval before a county issues the permit (Wis. Stat.
    s. 145.20(3)(a)1.). GET: the department, state auditors and county staff; POST {name, system_types, above_gpd}:
    the department specifies one. Approve a permit: POST permits/<id>/department-approve/ {category}."""
    from powts.oversight.models import ApprovalCategory

    if not policies.reads_categories(request.user):
        raise PermissionDenied("The department, state auditors and county staff read the categories.")
    if request.method == "POST":
        return Response(category_json(actions.perform("category", user=request.user, target=None, data=_body(request))),
                        status=201)
    return Response([category_json(c_) for c_ in ApprovalCategory.objects.all()])


def application_sample_json(s) -> dict:
    return {
        "id": s.pk, "jurisdiction": s.jurisdiction.slug, "period_start": s.period_start, "period_end": s.period_end,
        "seed": str(s.seed), "population": s.population, "share_percent": s.share_percent, "sample_size": s.sample_size,
        "citation": s.citation, "drawn_on": s.drawn_on,
        "applications": [{"id": i.pk, "permit": i.permit.number, "position": i.position, "outcome": i.outcome,
                          "inspected_on": i.inspected_on, "findings": i.findings, "flag": i.flag_id}
                         for i in s.items.select_related("permit")],
    }


@extend_schema(request=OpenApiTypes.OBJECT, responses={200: LIST_OF_OBJECTS, 201: OpenApiTypes.OBJECT})
@api_view(["GET", "POST"])
def application_samples(request):
    """Random inspections of permit applications, where the county's ordinance provides for them. GET: those you may
    read. POST (the county's staff): draw the county's share of the applications filed in a period,
    {period_start, period_end, seed?}; refused with the reason where the ordinance has no such provision."""
    if request.method == "GET":
        if not (policies.reads_state_view(request.user) or policies.opens_flags(request.user)):
            raise PermissionDenied
        return Response([application_sample_json(s) for s in selectors.application_samples_visible(request.user)[:200]])
    if not policies.opens_flags(request.user) or not request.user.jurisdiction_id:
        raise PermissionDenied("A county's staff draw its samples.")
    sample = actions.perform("draw-applications", user=request.user, target=request.user.jurisdiction, data=_body(request))
    return Response(application_sample_json(sample), status=201)


@extend_schema(responses={200: OpenApiTypes.OBJECT})
@api_view(["GET"])
def application_sample(request, pk):
    return Response(application_sample_json(get_object_or_404(selectors.application_samples_visible(request.user), pk=pk)))


@extend_schema(request=OpenApiTypes.OBJECT, responses={201: OpenApiTypes.OBJECT})
@api_view(["POST"])
def application_inspect(request, pk):
    """Record the inspection of one drawn application: {outcome: correct|errors, inspected_on?, findings, by?
    (plumber|soil_tester), evidence?: [..]}; errors flag the application against that licence."""
    item = get_object_or_404(selectors.sampled_applications_writable(request.user), pk=pk)
    item = actions.perform("inspect-application", user=request.user, target=item, data=_body(request))
    return Response(application_sample_json(item.sample), status=201)
