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
from powts.inventory.importing import guide
from powts.inventory.importing.columns import KNOWN, REQUIRED, normalise_header
from powts.inventory.importing.readers import open_table
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
    """Step 1: upload; the file is checked with a dry run and the outcome shown before anything is stored. A header
    powts does not know gets a choice of the column it is (prefilled from the county's last mapping); a POST with
    the upload's token and those choices checks the same file again with them."""
    if not policies.can_import(request.user):
        raise PermissionDenied("Only county staff import inventory files.")
    jurisdiction = policies.import_jurisdiction(request.user)
    form = ImportUploadForm(request.POST or None, request.FILES or None)
    guide_sections = guide.sections()
    if request.method != "POST":
        return render(request, "inventory/import_upload.html", {"form": form, "guide": guide_sections})
    token = request.POST.get("token", "")
    if token:  # the same upload, checked again with the columns chosen
        meta = _upload_meta(request, token)
        name, suffix = meta["name"], meta["suffix"]
        stored = _uploads() / f"{token}{suffix}"
        if not stored.exists():
            messages.error(request, "That upload has expired or was already imported; upload the file again.")
            return redirect("inventory:import")
    elif form.is_valid():
        upload = form.cleaned_data["file"]
        token, name, suffix = uuid.uuid4().hex, upload.name, Path(upload.name).suffix.lower()
        stored = _uploads() / f"{token}{suffix}"
        with open(stored, "wb") as out:
            out.writelines(upload.chunks())
        meta = {"name": name, "suffix": suffix, **policies.upload_owner(request.user)}
    else:
        return render(request, "inventory/import_upload.html", {"form": form, "guide": guide_sections}, status=400)
    try:
        headers = open_table(stored, name=name, require=False).original_headers
    except InventoryFileRefused as exc:
        stored.unlink(missing_ok=True)
        form.add_error("file", str(exc))
        return render(request, "inventory/import_upload.html", {"form": form, "guide": guide_sections}, status=400)
    chosen = _chosen_columns(request, headers) if request.POST.get("token") else None
    columns, mapping = _mapping(headers, chosen, selectors.import_columns_last(jurisdiction=jurisdiction))
    missing = [c for c in REQUIRED if c not in {normalise_header(columns.get(h) or h) for h in headers}]
    if missing and len(mapping) < len(missing):  # too few columns of its own to choose from: not an inventory
        stored.unlink(missing_ok=True)
        (_uploads() / f"{token}.json").unlink(missing_ok=True)
        form.add_error("file", f"{name} is missing required column{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                       f"(found: {', '.join(h for h in headers if h) or 'no header'}).")
        return render(request, "inventory/import_upload.html", {"form": form, "guide": guide_sections}, status=400)
    meta["columns"] = columns
    (_uploads() / f"{token}.json").write_text(json.dumps(meta))
    context = {"form": form, "guide": guide_sections, "token": token, "name": name, "mapping": mapping,
               "fields": KNOWN, "required": REQUIRED}
    if missing:
        context["missing"] = missing
        return render(request, "inventory/import_upload.html", context, status=400)
    stored.with_suffix(".rejects.csv").unlink(missing_ok=True)  # a check before this one's
    try:
        result = import_inventory(path=stored, jurisdiction=jurisdiction, dry_run=True,
                                  rejects_path=stored.with_suffix(".rejects.csv"), source_name=name,
                                  actor=request.user, channel=Channel.WEB, limit=PREVIEW_ROWS, columns=columns or None)
    except InventoryFileRefused as exc:
        context["file_error"] = str(exc)
        return render(request, "inventory/import_upload.html", context, status=400)
    # The token is the uploader's, for this county: nobody else confirms it (policies.may_use_upload).
    meta["rows_in_file"] = result.rows_in_file
    (_uploads() / f"{token}.json").write_text(json.dumps(meta))
    return render(request, "inventory/import_preview.html", {**context, "result": result})


def _upload_meta(request, token: str) -> dict:
    if not token.isalnum():
        raise Http404
    meta_path = _uploads() / f"{token}.json"
    if not meta_path.exists():
        raise Http404
    meta = json.loads(meta_path.read_text())
    if not policies.may_use_upload(request.user, meta) or meta.get("result"):
        raise Http404
    return meta


def _chosen_columns(request, headers: list) -> dict:
    """The choices posted for the headers powts does not know ("column-3" for the fourth header)."""
    chosen = {}
    for i, header in enumerate(headers):
        value = request.POST.get(f"column-{i}")
        if value is not None and header:
            chosen[header] = value if value in KNOWN else ""
    return chosen


def _mapping(headers: list, chosen: dict | None, remembered: dict) -> tuple[dict, list[dict]]:
    """(file header -> column for the import, one row per header powts does not know for the page): the posted
    choices, else the county's last mapping of that header."""
    columns, rows = {}, []
    for i, header in enumerate(headers):
        key = normalise_header(header)
        if not key or key in KNOWN:
            continue
        value = chosen.get(header, "") if chosen is not None else remembered.get(key, "")
        value = value if value in KNOWN else ""
        if value:
            columns[header] = value
        rows.append({"index": i, "header": header, "value": value})
    return columns, rows


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
                        params={"token": token, "suffix": meta["suffix"], "name": meta["name"],
                                "columns": meta.get("columns") or {}}, key=key,
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
