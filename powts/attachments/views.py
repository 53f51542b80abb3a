"""Web: add a file to a record, open one, remove one. Thin: policies decide who, services write."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST, require_safe

from powts.attachments import policies, selectors, services, storage
from powts.attachments.forms import upload_fields
from powts.core.refusals import Refused


def record_get(record: str, pk: int):
    from powts.grants.models import GrantApplication
    from powts.maintenance.models import Report
    from powts.permits.models import Complaint, Permit
    from powts.wells.models import WellClaim

    model = {"permit": Permit, "report": Report, "complaint": Complaint, "grant_application": GrantApplication,
             "well_claim": WellClaim}.get(record)
    if model is None:
        raise Http404("No such record.")
    return get_object_or_404(model, pk=pk)


def record_page(request, record) -> str:
    """Back where the form was (a same-site `next`), else the record's own page."""
    nxt = request.POST.get("next", "")
    if nxt and url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return nxt
    kind = policies.record_type(record)
    if kind == "permit":
        return record.get_absolute_url()
    if kind == "report":
        return "/maintenance/mine/"
    if kind in ("grant_application", "well_claim"):
        return record.get_absolute_url()
    return "/permits/site/"


def file_response(att) -> FileResponse:
    """The file as a download, never shown inline: the detected type, a name made by powts with that type's
    extension (never the uploader's name, which could make a PDF save as .html), nosniff, and no shared caching."""
    response = FileResponse(storage.storage().open(att.storage_name, "rb"), as_attachment=True,
                            filename=att.download_name, content_type=att.content_type)
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response


@login_required
@require_POST
def upload(request, record: str, pk: int):
    obj = record_get(record, pk)
    if not policies.may_view_record(request.user, obj):
        raise Http404("No such record.")
    if not policies.may_attach(request.user, obj):
        raise PermissionDenied("Only those who act on this record may add files to it.")
    files = request.FILES.getlist("file")
    try:
        if not files:
            raise Refused("choose a file to upload", field="file")
        values = upload_fields(request.POST)
        with storage.discarded_on_failure(), transaction.atomic():
            added = [services.attachment_add(record=obj, upload=f, uploaded_by=request.user, **values) for f in files]
    except Refused as exc:
        messages.error(request, f"Nothing was added. {exc.message}")
    except ValidationError as exc:  # a permits rule met on the way (a recorded document's filing)
        messages.error(request, "Nothing was added. " + " ".join(exc.messages))
    else:
        messages.success(request, "Added: " + ", ".join(a.original_name for a in added) + ".")
    return redirect(record_page(request, obj))


@login_required
@require_safe
def download(request, pk: int):
    return file_response(selectors.attachment_get(user=request.user, pk=pk))


@login_required
@require_POST
def delete(request, pk: int):
    att = selectors.attachment_get(user=request.user, pk=pk)
    if not policies.may_delete(request.user, att):
        raise PermissionDenied("Only county staff or the person who added a file may remove it.")
    record = att.record
    services.attachment_delete(attachment=att)
    messages.success(request, f"Removed {att.original_name}.")
    return redirect(record_page(request, record))
