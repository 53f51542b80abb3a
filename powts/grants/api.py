"""REST API for grant applications: list, apply, read, decide, withdraw. Thin like the web views:
forms.parse reads the body with the bounded parser, services decide; a refusal is a 400 naming the
field and the citation (powts.core.api), someone else's application a 404, a step one may not take a 403.
"""
from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.response import Response

from powts.core import fields
from powts.core.pagination import BoundedLimitOffsetPagination
from powts.core.refusals import Refused
from powts.grants import choices as c
from powts.grants import forms, policies, selectors, services
from powts.grants.filtersets import GrantApplicationFilterSet
from powts.grants.models import GrantApplication, GrantDecision


class DecisionSerializer(serializers.ModelSerializer):
    decided_by = serializers.CharField(source="decided_by.username", default=None, read_only=True)

    class Meta:
        model = GrantDecision
        fields = ["id", "eligible", "amount", "state_share", "category", "law_version", "reasons", "explanation",
                  "decided_by", "decided_at"]


class ApplicationSerializer(serializers.ModelSerializer):
    jurisdiction = serializers.CharField(source="jurisdiction.slug", read_only=True)
    system_id = serializers.CharField(source="system.system_id", default=None, read_only=True)

    class Meta:
        model = GrantApplication
        fields = ["id", "jurisdiction", "fiscal_year", "status", "source", "external_id", "owner_name", "system_id",
                  "failure_determination", "applicant_type", "applied_on", "principal_residence", "sewer_available",
                  "work_started_on", "annual_family_income", "income_tax_year", "income_evidence",
                  "annual_gross_revenue", "daily_flow_gpd", "design_flow_gpd", "units_served", "components",
                  "experimental", "funding_table_amount", "claimed_cost", "allowable_cost", "meets_code_minimum",
                  "least_costly_method", "cost_benchmark", "created_at"]


class ApplicationDetailSerializer(ApplicationSerializer):
    decision = serializers.SerializerMethodField()

    class Meta(ApplicationSerializer.Meta):
        fields = [*ApplicationSerializer.Meta.fields, "decision"]

    def get_decision(self, obj) -> dict | None:
        d = selectors.current_decision(obj)
        return DecisionSerializer(d).data if d else None


class ApplicationPageSerializer(serializers.Serializer):
    """One page of the list (limit/offset)."""

    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = ApplicationSerializer(many=True)


class ApplySerializer(serializers.Serializer):
    """Money in dollars ("45000.00"); staff may also give applied_on, sewer_available and the county's findings."""

    failure_determination = serializers.IntegerField(help_text="id of the county's determination of failure")
    applicant_type = serializers.ChoiceField(choices=c.ApplicantType.choices, required=False)
    annual_family_income = serializers.CharField(required=False)
    income_tax_year = serializers.IntegerField(required=False)
    income_evidence = serializers.ChoiceField(choices=c.IncomeEvidence.choices, required=False)
    annual_gross_revenue = serializers.CharField(required=False)
    daily_flow_gpd = serializers.CharField(required=False)
    funding_table_amount = serializers.CharField(required=False)
    components = serializers.CharField(required=False, help_text="e.g. septic_tank;mound")
    design_flow_gpd = serializers.CharField(required=False)
    units_served = serializers.IntegerField(required=False)
    claimed_cost = serializers.CharField(required=False)
    applied_on = serializers.DateField(required=False)


def _body(request) -> dict:
    data = request.data
    if not hasattr(data, "get"):
        raise fields.FieldError("body", "the request body must be a JSON object")
    return data


@extend_schema(operation_id="grant_applications", request=ApplySerializer,
               parameters=[OpenApiParameter("status"), OpenApiParameter("fiscal_year"), OpenApiParameter("q")],
               responses={200: ApplicationPageSerializer, 201: ApplicationDetailSerializer})
@api_view(["GET", "POST"])
def applications(request):
    """GET: the applications you may see (?status=, ?fiscal_year=, ?q=, limit/offset). POST: apply (the
    system's owner) or enter a paper form (county staff), on a determination of failure."""
    if request.method == "GET":
        if not policies.can_browse(request.user):
            raise PermissionDenied("Grant applications are for the county's staff, the state and the owners who applied.")
        filterset = GrantApplicationFilterSet(request.query_params, queryset=selectors.application_list(user=request.user))
        if not filterset.is_valid():
            raise Refused.several({k: list(v) for k, v in filterset.errors.items()})
        paginator = BoundedLimitOffsetPagination()
        page = paginator.paginate_queryset(filterset.qs, request)
        return paginator.get_paginated_response(ApplicationSerializer(page, many=True).data)
    user = request.user
    staff = policies.is_county_staff(user) or user.is_superuser
    if not staff and user.role != "owner":
        raise PermissionDenied("Owners apply for their own systems; the county's staff enter paper forms.")
    data = _body(request)
    det_id = fields.integer("failure_determination", data.get("failure_determination"), minimum=1, maximum=2**62,
                            required=True)
    det = selectors.determinations_for(user).filter(pk=det_id).first()
    if det is None:  # someone else's record: not told it exists
        raise Http404("No such determination of failure.")
    values = forms.parse(data, staff=staff, today=timezone.localdate())
    app = services.application_create(by=user, failure_determination=det,
                                      source=c.ApplicationSource.PAPER if staff else c.ApplicationSource.ONLINE, **values)
    return Response(ApplicationDetailSerializer(app).data, status=201)


@extend_schema(operation_id="grant_application_detail", responses=ApplicationDetailSerializer)
@api_view(["GET"])
def application_detail(request, pk):
    return Response(ApplicationDetailSerializer(selectors.application_get(user=request.user, pk=pk)).data)


@extend_schema(operation_id="grant_application_decide", request=None, responses={201: DecisionSerializer})
@api_view(["POST"])
def application_decide(request, pk):
    """The county's decision by the law engine, stored with its version, reasons and explanation."""
    app = selectors.application_get(user=request.user, pk=pk)
    if not policies.can_decide(request.user, app):
        raise PermissionDenied("Only the county's staff decide its grant applications.")
    return Response(DecisionSerializer(services.application_decide(application=app, by=request.user)).data, status=201)


@extend_schema(operation_id="grant_application_withdraw", request=None, responses={200: ApplicationDetailSerializer})
@api_view(["POST"])
def application_withdraw(request, pk):
    app = selectors.application_get(user=request.user, pk=pk)
    if not policies.can_withdraw(request.user, app):
        raise PermissionDenied("Only the applicant or the county's staff may withdraw an application.")
    services.application_withdraw(application=app, by=request.user)
    return Response(ApplicationDetailSerializer(selectors.application_get(user=request.user, pk=pk)).data)
