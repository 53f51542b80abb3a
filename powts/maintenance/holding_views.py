"""Filing a holding tank servicing report for a period (where the county's profile has
holding_tanks.report_periods): the owner, their pumper or county staff. The service checks the items."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from powts.accounts.policies import is_county_staff_of
from powts.core.refusals import Refused, refused_text
from powts.inventory.models import System
from powts.jurisdictions.models import Jurisdiction
from powts.maintenance import holding_periods, policies, services
from powts.maintenance.profile import maintenance_profile

ROWS = 3  # servicings a page offers; the API takes any number
ITEMS = ("servicer_name", "servicer_address", "owner_name", "location", "sanitary_permit_number", "license_number")


def may_file_for(user, system: System) -> bool:
    """County staff of its county, a licensed contractor (the county's reporting rule), or the system's owner."""
    if not user.is_authenticated:
        return False
    if user.is_superuser or is_county_staff_of(user, system.jurisdiction_id) or policies.can_file_reports(user):
        return True
    owner = system.parcel.owner
    return bool(owner and owner.user_id == user.pk)


def find_system(*, user, jurisdiction_slug: str, system_id: str) -> System:
    unit = (Jurisdiction.objects.filter(slug=jurisdiction_slug).first() if jurisdiction_slug else None) or user.jurisdiction
    if unit is None:
        raise Refused("choose the county", field="jurisdiction")
    if user.jurisdiction_id and user.jurisdiction_id != unit.pk and not user.is_superuser:
        raise PermissionDenied(f"Only {unit.name} staff, the owner or a licensed contractor file this report.")
    system = (System.objects.filter(jurisdiction=unit, system_id=system_id.strip(), system_type="holding_tank")
              .select_related("parcel__owner", "jurisdiction").first())
    if system is None:
        raise Refused(f"no holding tank {system_id.strip()!r} in {unit.name}'s inventory", field="system_id")
    if holding_periods.rule(maintenance_profile(unit.profile_slug).raw) is None:
        raise Refused(f"{unit.name}'s ordinance asks for a report of each servicing, not a periodic report; "
                      "file it as a maintenance report", field="system_id")
    if not may_file_for(user, system):
        raise PermissionDenied("Only the owner, a licensed contractor or county staff file this report.")
    return system


def posted_report(post) -> dict:
    data = {k: post.get(k, "") for k in ("period_start", "period_end", *ITEMS)}
    data["services"] = [{"date": post.get(f"date_{i}", ""), "gallons": post.get(f"gallons_{i}", ""),
                         "disposal_site": post.get(f"disposal_site_{i}", "")}
                        for i in range(ROWS) if post.get(f"date_{i}") or post.get(f"gallons_{i}")]
    return data


@login_required
@require_http_methods(["GET", "POST"])
def holding_report(request):
    user = request.user
    if not (policies.can_file_reports(user) or user.role == "owner"):
        raise PermissionDenied("Only the owner, a licensed contractor or county staff file this report.")
    errors, status = [], 200
    if request.method == "POST":
        try:
            system = find_system(user=user, jurisdiction_slug=request.POST.get("jurisdiction", ""),
                                 system_id=request.POST.get("system_id", ""))
            report = services.holding_report_file(system=system, data=posted_report(request.POST), filed_by=user)
        except Refused as exc:
            errors, status = [refused_text(exc)], 400
        else:
            messages.success(request, f"Filed: {report} for {system.system_id}.")
            return redirect("maintenance:holding-report")
    today = timezone.localdate()
    units = [user.jurisdiction] if user.jurisdiction_id else list(Jurisdiction.objects.exclude(slug="state"))
    periods = []
    for unit in units:
        r = holding_periods.rule(maintenance_profile(unit.profile_slug).raw)
        if r:
            periods.append((unit, holding_periods.last_overdue(r, today)))
    return render(request, "maintenance/holding_report.html", {
        "errors": errors, "values": request.POST if request.method == "POST" else {}, "rows": range(ROWS),
        "units": units, "periods": periods, "own_unit": user.jurisdiction}, status=status)
