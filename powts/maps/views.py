"""The map page (county staff; the state's readers for every county). Thin: the points come from the API."""
from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.views.decorators.http import require_safe

from powts.inventory import selectors as inventory_selectors
from powts.inventory.choices import SystemStatus, SystemType
from powts.maps import policies, selectors


@login_required
@require_safe
def map_page(request):
    if not policies.can_view_map(request.user):
        raise PermissionDenied("The map is for county staff and the state's auditors.")
    error = ""
    try:
        not_on_map = selectors.not_on_map(user=request.user, params=request.GET)
    except selectors.MapRefused as exc:
        error, not_on_map = exc.message, None
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "maps/map.html", {
        "error": error,
        "not_on_map": not_on_map,
        "query": query.urlencode(),
        "params": request.GET,
        "types": SystemType.choices,
        "statuses": SystemStatus.choices,
        "municipalities": inventory_selectors.municipalities(jurisdiction_id=request.user.jurisdiction_id),
        "standings": [(k, selectors.LABELS[k]) for k in selectors.STANDINGS],
        "map_settings": {"tiles": settings.POWTS_MAP_TILES_URL, "attribution": settings.POWTS_MAP_TILES_ATTRIBUTION,
                         "center": settings.POWTS_MAP_CENTER, "zoom": settings.POWTS_MAP_ZOOM,
                         "labels": selectors.LABELS, "bounds": selectors.extent(user=request.user)},
    })
