from django.urls import path

from powts.maps import api

app_name = "maps-api"
urlpatterns = [
    path("map/systems.geojson", api.SystemsGeoJSON.as_view(), name="systems"),
    path("map/permits.geojson", api.PermitsGeoJSON.as_view(), name="permits"),
    path("map/complaints.geojson", api.ComplaintsGeoJSON.as_view(), name="complaints"),
]
