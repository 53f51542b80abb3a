"""The state roles' home: the counties they oversee."""
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.views.decorators.http import require_safe

from powts.core import lists
from powts.inventory.policies import can_browse as can_browse_inventory
from powts.jurisdictions.models import Jurisdiction
from powts.jurisdictions.policies import can_list_counties
from powts.jurisdictions.tables import CountyTable
from powts.maintenance.policies import can_list_reports, can_see_dashboard
from powts.permits.policies import can_browse as can_browse_permits


@login_required
@require_safe  # read-only: a POST is refused (405), never answered like a GET
def county_list(request):
    user = request.user
    if not can_list_counties(user):
        raise PermissionDenied("The list of counties is for the state's auditors, DSPS and DNR.")
    # Each county's pages the reader may open (DNR: systems and maintenance reports, not permits or the dashboard).
    links = [(label, name, word) for label, name, word, may in (
        ("Dashboard", "maintenance:dashboard", "jurisdiction", can_see_dashboard(user)),
        ("Systems", "inventory:system-list", "jurisdiction", can_browse_inventory(user)),
        ("Reports", "maintenance:reports", "jurisdiction", can_list_reports(user)),
        ("Permits", "permits:list", "jurisdiction", can_browse_permits(user)),
    ) if may]
    table, export = lists.table_or_export(request, CountyTable, Jurisdiction.objects.all(), name="counties", links=links)
    if export:
        return export
    return render(request, "jurisdictions/county_list.html", {"table": table})
