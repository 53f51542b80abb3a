"""The maintenance API: contractors file reports; staff read the due list. Thin: services decide."""
import datetime as dt

from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework import serializers as drf_serializers
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from powts.audit.choices import Channel
from powts.core import fields
from powts.core.parsers import ObjectJSONParser
from powts.inventory.models import System
from powts.maintenance import policies, selectors, services
from powts.maintenance.api import serializers as s
from powts.maintenance.csv_upload import ReportFileRefused, upload_reports


def _jurisdiction(request, slug):
    unit = policies.filing_jurisdiction(request.user, slug)  # PermissionDenied for staff naming another county
    if unit is None:
        raise ValidationError({"jurisdiction": f"jurisdiction {slug!r} is not known" if slug else "jurisdiction is required"})
    return unit


_DATETIME = drf_serializers.DateTimeField()


def report_body(r, unit, lic_number: str) -> dict:
    """The report as ReportSerializer shows it, built directly (a ModelSerializer rebuilds its fields
    on every call; this is the hot path of contractor submissions)."""
    return {"id": r.pk, "jurisdiction": unit.slug, "system_ref": r.system_ref, "in_inventory": r.system_id is not None, "kind": r.kind,
            "work_date": r.work_date.isoformat(), "license_number": lic_number,
            "sludge_scum_fraction": None if r.sludge_scum_fraction is None else str(r.sludge_scum_fraction),
            "effluent_ponding": r.effluent_ponding, "gallons_pumped": r.gallons_pumped, "disposal_site": r.disposal_site,
            "components_serviced": r.components_serviced, "failure_observed": r.failure_observed,
            "water_meter_reading": None if r.water_meter_reading is None else str(r.water_meter_reading),
            "abandonment_method": r.abandonment_method, "location": r.location,
            "notes": r.notes, "channel": r.channel, "filed_at": _DATETIME.to_representation(r.filed_at), "late": r.late,
            "review_status": r.review_status, "failure_flag": r.failure_flag}


class ReportViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Inspection, pumping and servicing reports (SPS 383.55). POST files one; the same system, date
    and license again answers 200 with the stored report and `duplicate: true`."""

    lookup_value_regex = r"[0-9]+"  # a non-numeric id is a 404 from the URL, never a query
    serializer_class = s.ReportSerializer
    parser_classes = [ObjectJSONParser, FormParser, MultiPartParser]

    def get_queryset(self):
        return selectors.reports_visible(user=self.request.user).order_by("-filed_at", "-id")

    @extend_schema(request=s.ReportInSerializer, responses={201: s.ReportSerializer, 200: s.ReportSerializer})
    def create(self, request):
        if not policies.can_file_reports(request.user):
            raise PermissionDenied("Only licensed contractors and county staff file maintenance reports.")
        data = request.data
        unit = _jurisdiction(request, data.get("jurisdiction"))
        result = services.report_submit(jurisdiction=unit, data=data, filed_by=request.user, channel=Channel.API)
        body = report_body(result.report, unit, lic_number=result.report.license.number)
        body["duplicate"] = result.duplicate
        return Response(body, status=status.HTTP_201_CREATED if result.created else status.HTTP_200_OK)

    @extend_schema(request={"multipart/form-data": {"type": "object", "properties": {"file": {"type": "string", "format": "binary"}}}})
    @action(detail=False, methods=["post"])
    def upload(self, request):
        """A CSV of reports: each bad row comes back with its line and reason (a system the county does not have is a
        row's error); the rest are stored. A file over the county's rows per file, or the filer's rows per day in the
        county (maintenance.yaml reports.files), is refused whole with a 400 naming the limit."""
        if not policies.can_file_reports(request.user):
            raise PermissionDenied("Only licensed contractors and county staff file maintenance reports.")
        upload = request.FILES.get("file")
        if upload is None:
            raise ValidationError({"file": "file is required (a CSV)"})
        unit = _jurisdiction(request, request.data.get("jurisdiction"))
        try:
            result = upload_reports(jurisdiction=unit, data=upload.read(), filed_by=request.user, channel=Channel.API)
        except ReportFileRefused as exc:
            raise ValidationError({"file": str(exc)}) from None
        return Response(result.as_dict())


class DueListView(APIView):
    """The due list as of a date (read-only), as the `powts maintenance due` command prints it."""

    @extend_schema(parameters=[OpenApiParameter("as_of", str, description="YYYY-MM-DD (default today)"),
                               OpenApiParameter("jurisdiction", str)], responses={200: s.DueRowSerializer(many=True)})
    def get(self, request):
        if not policies.can_see_dashboard(request.user):
            raise PermissionDenied("County staff and state auditors see the due list.")
        as_of = fields.date("as_of", request.query_params.get("as_of"), latest=fields.LATEST_DATE) or dt.date.today()
        unit = policies.dashboard_jurisdiction(request.user, request.query_params.get("jurisdiction"))
        rows = selectors.due_list(jurisdiction=unit, as_of=as_of) if unit else []
        return Response([{"system_id": ref, "due_on": due, "kind": kind} for ref, due, kind in rows])


class SystemMaintenanceView(APIView):
    """A system's schedule, reports and notices (owners see their own)."""

    @extend_schema(responses={200: dict})
    def get(self, request, pk: int):
        system = get_object_or_404(System.objects.restrict(request.user, "view").select_related("parcel", "jurisdiction"), pk=pk)
        ctx = selectors.system_maintenance(system=system)
        return Response({
            "system_id": system.system_id,
            "schedule": s.ScheduleSerializer(ctx["maintenance_schedule"]).data if ctx["maintenance_schedule"] else None,
            "explanation": ctx["maintenance_explanation"],
            "reports": s.ReportSerializer(ctx["maintenance_reports"], many=True).data,
            "notices": s.NoticeSerializer(ctx["maintenance_notices"], many=True).data,
        })


class HoldingReportView(APIView):
    """File a holding tank servicing report for a period (the county's holding_tanks.report_periods, cited there):
    items a.-g.; the owner, a licensed contractor or county staff. GET: the overdue list (staff)."""

    parser_classes = [ObjectJSONParser]

    @extend_schema(request=None, responses={201: None})
    def post(self, request):
        from powts.maintenance.holding_views import find_system

        data = request.data
        system = find_system(user=request.user, jurisdiction_slug=str(data.get("jurisdiction", "")),
                             system_id=str(data.get("system_id", "")))
        report = services.holding_report_file(system=system, data=data, filed_by=request.user)
        return Response({"id": report.pk, "system_id": system.system_id, "period_start": report.period_start,
                         "period_end": report.period_end, "services": report.services}, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: None})
    def get(self, request):
        unit = policies.dashboard_jurisdiction(request.user, request.query_params.get("jurisdiction"))
        if unit is None or not policies.can_see_dashboard(request.user):
            raise PermissionDenied("County staff see their county's overdue holding tank reports.")
        period, rows = selectors.holding_reports_overdue(jurisdiction=unit, as_of=dt.date.today())
        if period is None:
            return Response({"period": None, "overdue": []})
        return Response({"period": {"start": period.start, "end": period.end, "due_on": period.due_on,
                                    "citation": period.citation},
                         "overdue": [{"system_id": s_.system_id, "site_address": s_.parcel.site_address,
                                      "owner": s_.parcel.owner.name if s_.parcel.owner else ""} for s_ in rows]})


class HoldingLettersView(APIView):
    """Record the owners' letters for the holding tank reports overdue on `as_of` (default today) in the caller's
    county (where its profile sets holding_tanks.report_periods). County staff."""

    parser_classes = [ObjectJSONParser]

    @extend_schema(request=None, responses={200: None})
    def post(self, request):
        from powts.maintenance.holding_letters import holding_report_letters_record

        if not policies.can_send_notices(request.user):
            raise PermissionDenied("County staff record the owners' letters.")
        as_of = fields.date("as_of", request.data.get("as_of"), latest=fields.LATEST_DATE) or dt.date.today()
        result = holding_report_letters_record(jurisdiction=request.user.jurisdiction, as_of=as_of)
        p = result.period
        return Response({"period": {"start": p.start, "end": p.end, "due_on": p.due_on, "citation": p.citation},
                         "recorded": result.recorded,
                         "letters": [{"id": n.pk, "system_id": n.system.system_id, "to": n.to_name,
                                      "letter": f"/maintenance/notices/{n.pk}/letter.pdf"} for n in result.notices],
                         "held": [{"system_id": ref, "reason": why} for ref, why in result.held]})
