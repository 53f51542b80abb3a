"""Staff link a queued complaint to its system (the dashboard's "complaints to link")."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from powts.core.refusals import Refused
from powts.inventory.models import System
from powts.permits import policies
from powts.permits.complaint_links import complaint_link
from powts.permits.models import Complaint


@login_required
@require_POST
def complaint_link_view(request, pk: int):
    complaint = get_object_or_404(Complaint, pk=pk)
    if not policies.is_county_staff_for(request.user, complaint.jurisdiction_id):
        raise PermissionDenied("Only the county's staff link complaints to systems.")
    no_system = request.POST.get("no_system") == "1"
    ref = (request.POST.get("system_id") or "").strip()[:60]
    system = None if no_system else System.objects.filter(jurisdiction_id=complaint.jurisdiction_id, system_id=ref).first()
    try:
        if not no_system and system is None:
            raise Refused(f"system_id: {ref or '(blank)'} is not a system in this county's inventory", field="system_id")
        complaint_link(complaint=complaint, system=system, no_system=no_system)
    except Refused as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"Complaint #{complaint.pk}: " + ("no system on record there." if no_system
                                                                     else f"linked to system {system.system_id}."))
    return redirect("maintenance:dashboard")
