"""REST API for a record's files, on the same policies and services as the web pages.

GET  /api/attachments/?permit=ID (or report=ID, complaint=ID)   the record's files
POST /api/attachments/  multipart: permit|report|complaint, kind, file, title, recording_number, recorded_on
GET  /api/attachments/ID/            one file's description;  DELETE: remove it
GET  /api/attachments/ID/download    the bytes (Content-Disposition: attachment)
"""
from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, parser_classes
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response

from powts.attachments import choices as c
from powts.attachments import policies, selectors, services, storage
from powts.attachments.forms import upload_fields
from powts.attachments.models import RECORD_FIELDS, Attachment
from powts.attachments.views import file_response, record_get
from powts.core import fields
from powts.core.refusals import Refused


class AttachmentSerializer(serializers.ModelSerializer):
    record = serializers.SerializerMethodField()
    uploaded_by = serializers.SerializerMethodField()
    download = serializers.SerializerMethodField()

    class Meta:
        model = Attachment
        fields = ["id", "record", "kind", "title", "original_name", "content_type", "size", "sha256",
                  "recording_number", "recorded_on", "permit_document", "uploaded_by", "uploaded_at", "download"]

    def get_record(self, obj) -> dict:
        return {"type": obj.record_field, "id": getattr(obj, f"{obj.record_field}_id")}

    def get_uploaded_by(self, obj) -> str | None:
        return obj.uploaded_by.username if obj.uploaded_by_id else None

    def get_download(self, obj) -> str:
        return f"/api/attachments/{obj.pk}/download"


class UploadSerializer(serializers.Serializer):
    """The multipart form (documentation; the values are checked by forms.upload_fields and the service)."""
    permit = serializers.IntegerField(required=False)
    report = serializers.IntegerField(required=False)
    complaint = serializers.IntegerField(required=False)
    kind = serializers.ChoiceField(choices=c.Kind.choices)
    file = serializers.FileField()
    title = serializers.CharField(required=False, max_length=200)
    recording_number = serializers.CharField(required=False, max_length=60)
    recorded_on = serializers.DateField(required=False)


def _record(params):
    """The one record named by permit=, report=, complaint= or grant_application=."""
    named = [(name, params.get(name)) for name in RECORD_FIELDS if params.get(name) not in (None, "")]
    if len(named) != 1:
        raise Refused("name exactly one record: permit, report, complaint, grant_application or well_claim (its id)", field="record")
    name, raw = named[0]
    pk = fields.integer(name, raw, required=True, minimum=1, maximum=2**62, thousands=False)
    return record_get(name, pk)


@extend_schema(operation_id="attachments_list_or_upload", request={"multipart/form-data": UploadSerializer},
               parameters=[OpenApiParameter(n, OpenApiTypes.INT, description=f"the {n}'s id") for n in RECORD_FIELDS],
               responses={200: AttachmentSerializer(many=True), 201: AttachmentSerializer})
@api_view(["GET", "POST"])
@parser_classes([MultiPartParser])
def attachments(request):
    if request.method == "GET":
        record = _record(request.query_params)
        if not policies.may_view_record(request.user, record):
            raise Http404("No such record.")
        return Response(AttachmentSerializer(selectors.for_record(record), many=True).data)
    record = _record(request.data)
    if not policies.may_view_record(request.user, record):
        raise Http404("No such record.")
    if not policies.may_attach(request.user, record):
        raise PermissionDenied("Only those who act on this record may add files to it.")
    files = request.FILES.getlist("file")
    if len(files) != 1:
        raise Refused("send one file, as the multipart field 'file'", field="file")
    values = upload_fields(request.data)
    with storage.discarded_on_failure(), transaction.atomic():
        att = services.attachment_add(record=record, upload=files[0], uploaded_by=request.user, **values)
    return Response(AttachmentSerializer(att).data, status=201)


@extend_schema(operation_id="attachments_detail", responses={200: AttachmentSerializer, 204: None})
@api_view(["GET", "DELETE"])
def attachment_detail(request, pk):
    att = selectors.attachment_get(user=request.user, pk=pk)
    if request.method == "DELETE":
        if not policies.may_delete(request.user, att):
            raise PermissionDenied("Only county staff or the person who added a file may remove it.")
        services.attachment_delete(attachment=att)
        return Response(status=204)
    return Response(AttachmentSerializer(att).data)


@extend_schema(operation_id="attachments_download", responses={(200, "application/octet-stream"): OpenApiTypes.BINARY})
@api_view(["GET"])
def attachment_download(request, pk):
    return file_response(selectors.attachment_get(user=request.user, pk=pk))
