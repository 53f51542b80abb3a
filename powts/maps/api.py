"""GeoJSON for the map: GET with bbox=minlon,minlat,maxlon,maxlat (and zoom, and the system list's filters).

Role-scoped (RoleScopedQuerySet.restrict); capped: at most grid.POINT_CAP points a layer, and beyond
that (or at a low zoom) systems come as grid clusters, so a million systems never go over the wire.
"""
from __future__ import annotations

import orjson
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.renderers import JSONRenderer
from rest_framework.views import APIView

from powts.maps import policies, selectors

BBOX = OpenApiParameter("bbox", str, required=True, description="minlon,minlat,maxlon,maxlat (WGS 84)")
ZOOM = OpenApiParameter("zoom", int, description="The map's zoom (0-22); without it, taken from the box's width")


def _geojson(request, body: dict) -> HttpResponse:
    """GeoJSON, as application/json (the documented type)."""
    return HttpResponse(orjson.dumps(body), content_type="application/json")


class _MapView(APIView):
    renderer_classes = [JSONRenderer]

    def perform_content_negotiation(self, request, force=False):
        # A client asking for application/geo+json (RFC 7946) gets the same JSON body, never a 406.
        return super().perform_content_negotiation(request, force=True)
    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if not policies.can_view_map(request.user):
            raise PermissionDenied("The map is for county staff and the state's auditors.")


class SystemsGeoJSON(_MapView):
    """Systems in the box: points (standing, link) at a close zoom, else clusters with counts by standing."""

    @extend_schema(parameters=[BBOX, ZOOM], responses={200: OpenApiTypes.OBJECT})
    def get(self, request, format=None):
        bbox = selectors.parse_bbox(request.GET.get("bbox"))
        zoom = selectors.parse_zoom(request.GET.get("zoom"), bbox)
        return _geojson(request, selectors.systems(user=request.user, params=request.GET, bbox=bbox, zoom=zoom,
                                          as_of=timezone.localdate()))


class PermitsGeoJSON(_MapView):
    """Sanitary permits in the box, at their parcel."""

    @extend_schema(parameters=[BBOX], responses={200: OpenApiTypes.OBJECT})
    def get(self, request, format=None):
        return _geojson(request, selectors.permits(user=request.user, bbox=selectors.parse_bbox(request.GET.get("bbox"))))


class ComplaintsGeoJSON(_MapView):
    """Public complaints in the box (those filed with a location)."""

    @extend_schema(parameters=[BBOX], responses={200: OpenApiTypes.OBJECT})
    def get(self, request, format=None):
        return _geojson(request, selectors.complaints(user=request.user, bbox=selectors.parse_bbox(request.GET.get("bbox"))))
