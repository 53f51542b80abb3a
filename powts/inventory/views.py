"""Thin views: selectors read, services write, templates show."""
from __future__ import annotations

import json
import uuid
from pathlib import Path

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from powts.accounts.policies import can_manage_users_of
from powts.audit.choices import Channel
from powts.core import lists
from powts.inventory import background, policies, selectors
from powts.inventory.filtersets import SystemFilterSet
from powts.inventory.forms import ImportUploadForm
from powts.inventory.importing.service import InventoryFileRefused, import_inventory
from powts.inventory.panels import system_panels
from powts.inventory.tables import SystemTable
from powts.jobs.errors import QueueUnavailable
from powts.jobs.models import Job
from powts.jobs.services import job_start

# The web preview checks this many rows inside the request (and counts the rest); the import itself is a
# background job (powts.inventory.background) whose page shows its progress.
PREVIEW_ROWS = 10_000


@login_required
@require_safe  # read-only: a POST is refused (405), never answered like a GET
def system_list(request):
    filterset, rows = lists.filtered(request, SystemFilterSet, selectors.system_list(user=request.user))
    # A search keeps the index's order (powts.inventory.search) unless a column was clicked: sorting every
    # match of a common name by system id was most of its time.
    searching = request.GET.get("q", "").strip() and not request.GET.get("sort")
    table, export = lists.table_or_export(request, SystemTable, rows, name="systems", **({"order_by": ()} if searching else {}))
    if export:
        return export
    context = {
        "filterset": filterset,
        "table": table,
        "municipalities": selectors.municipalities(jurisdiction_id=request.user.jurisdiction_id),
        "can_import": policies.can_import(request.user),
    }
    template = "inventory/_system_table.html" if request.htmx else "inventory/system_list.html"
    return render(request, template, context)


@login_required
@require_safe  # read-only: a POST is refused (405), never answered like a GET
def system_detail(request, pk: int):
    system = selectors.system_get(user=request.user, pk=pk)
    return render(request, "inventory/system_detail.html", {
        "system": system,
        "parcel": system.parcel,
        "owner": system.parcel.owner,
        "ownerships": system.parcel.ownerships.select_related("owner")[:20],
        "components": system.components.all(),
        "history": selectors.system_history(system=system),
        "extra": sorted(system.extra.items()),
        "panels": system_panels(system, request),
        "can_edit": policies.can_edit_system(request.user, system),
        "can_invite": can_manage_users_of(request.user, system.jurisdiction_id),
    })


_uploads = background.uploads


@login_required
@require_http_methods(["GET", "POST"])
def import_upload(request):
    """Step 1: upload; the file is checked with a dry run and the outcome shown before anything is stored."""
    if not policies.can_import(request.user):
        raise PermissionDenied("Only county staff import inventory files.")
    form = ImportUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        token = uuid.uuid4().hex
        suffix = Path(upload.name).suffix.lower()
        stored = _uploads() / f"{token}{suffix}"
        with open(stored, "wb") as out:
            out.writelines(upload.chunks())
        try:
            result = import_inventory(path=stored, jurisdiction=policies.import_jurisdiction(request.user), dry_run=True,
                                      rejects_path=stored.with_suffix(".rejects.csv"), source_name=upload.name,
                                      actor=request.user, channel=Channel.WEB, limit=PREVIEW_ROWS)
        except InventoryFileRefused as exc:
            stored.unlink(missing_ok=True)
            form.add_error("file", str(exc))
        else:
            # The token is the uploader's, for this county: nobody else confirms it (policies.may_use_upload).
            meta = {"name": upload.name, "suffix": suffix, "rows_in_file": result.rows_in_file,
                    **policies.upload_owner(request.user)}
            (_uploads() / f"{token}.json").write_text(json.dumps(meta))
            return render(request, "inventory/import_preview.html", {"result": result, "token": token, "name": upload.name})
    return render(request, "inventory/import_upload.html", {"form": form}, status=400 if form.errors else 200)


@login_required
@require_POST
def import_confirm(request, token: str):
    """Step 2: the same file, imported for real by a background job; its page shows progress and the result.
    Confirming twice finds the same job (its key is the upload's)."""
    if not policies.can_import(request.user):
        raise PermissionDenied("Only county staff import inventory files.")
    if not token.isalnum():
        raise Http404
    meta_path = _uploads() / f"{token}.json"
    if not meta_path.exists():
        messages.error(request, "That upload has expired or was already imported; upload the file again.")
        return redirect("inventory:import")
    meta = json.loads(meta_path.read_text())
    if not policies.may_use_upload(request.user, meta):
        raise Http404
    key = f"{background.KIND}:{token}"
    try:
        job = job_start(kind=background.KIND, title=f"Import of {meta['name']}",
                        jurisdiction=policies.import_jurisdiction(request.user), user=request.user,
                        params={"token": token, "suffix": meta["suffix"], "name": meta["name"]}, key=key,
                        total=int(meta.get("rows_in_file") or 0))
    except QueueUnavailable as exc:
        # The job is recorded and the file kept: a worker imports it when the queue is back.
        messages.warning(request, exc.message)
        job = Job.objects.get(key=key)
    return redirect("jobs:job", pk=job.pk)


@login_required
@require_safe  # read-only: a POST is refused (405), never answered like a GET
def import_rejects(request, token: str):
    if not policies.can_import(request.user) or not token.isalnum():
        raise Http404
    path = _uploads() / f"{token}.rejects.csv"
    meta_path = _uploads() / f"{token}.json"
    # Rejects carry owners' names: only the uploader reads them (while the upload waits to be confirmed).
    if not path.exists() or not meta_path.exists() or not policies.may_use_upload(request.user, json.loads(meta_path.read_text())):
        raise Http404
    from django.http import FileResponse

    return FileResponse(open(path, "rb"), as_attachment=True, filename="rejected-rows.csv")


__all__ = ["import_confirm", "import_rejects", "import_upload", "system_detail", "system_list"]
