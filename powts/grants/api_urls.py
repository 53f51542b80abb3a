"""API routes of this app, mounted under /api/ (see powts/urls.py)."""
from django.urls import path

from powts.grants import api

urlpatterns = [
    path("grants/applications/", api.applications, name="grants-api-applications"),
    path("grants/applications/<int:pk>/", api.application_detail, name="grants-api-application"),
    path("grants/applications/<int:pk>/decide/", api.application_decide, name="grants-api-decide"),
    path("grants/applications/<int:pk>/withdraw/", api.application_withdraw, name="grants-api-withdraw"),
]
