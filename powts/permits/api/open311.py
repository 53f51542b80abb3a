"""Open311 GeoReport v2: the public files and follows complaints. The public sees a request's service,
status, place and dates; never what the complainant wrote or who they are, which are
private. Staff read everything on the staff pages."""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import ParseError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from powts.core.public_posts import MAX_BODY_BYTES, body_too_large, public_post_wait, too_many_message
from powts.core.refusals import Refused
from powts.permits import selectors
from powts.permits.api.serializers import (
    Open311CreatedSerializer,
    Open311PostSerializer,
    Open311RequestSerializer,
    Open311ServiceSerializer,
    open311_request_json,
)
from powts.permits.models import Complaint
from powts.permits.services import enforcement as enf


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
            if len(value) > 100:  # a NUL never gets here: powts.core.middleware answers it as Open311 does
                return _open311_errors(400, [f"{param}: at most 100 characters"])
            if value:
                qs = qs.filter(**{lookup: value})
        return Response([open311_request_json(x) for x in qs[:1000]])
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
        return _open311_errors(400, [f"jurisdiction_id: unknown county; one of {', '.join(selectors.jurisdiction_slugs())}"])
    try:
        comp = enf.complaint_create(jurisdiction=jurisdiction, service_code=data.get("service_code", ""),
                                    description=data.get("description", ""), address=data.get("address_string", ""),
                                    lat=data.get("lat"), long=data.get("long"), email=data.get("email", ""),
                                    first_name=data.get("first_name", ""), last_name=data.get("last_name", ""),
                                    phone=data.get("phone", ""))
    except Refused as exc:  # Open311 wants a list of {code, description}
        return _open311_errors(400, [f"{k}: {m}" for k, ms in exc.errors.items() for m in ms])
    return Response([{"service_request_id": str(comp.pk), "service_notice": f"Received by {jurisdiction.name}",
                      "account_id": None}], status=201)


@extend_schema(responses={200: Open311RequestSerializer(many=True), 404: OpenApiTypes.OBJECT}, auth=[])
@api_view(["GET"])
@permission_classes([AllowAny])
def open311_request(request, pk):
    comp = get_object_or_404(Complaint.objects.select_related("jurisdiction"), pk=pk)
    return Response([open311_request_json(comp)])
