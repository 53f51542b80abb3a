"""API routes of the wells app, mounted under /api/ (see powts/urls.py)."""
from django.urls import path

from powts.wells.api import views

urlpatterns = [
    path("wells/claims/", views.claims, name="wells-api-claims"),
    path("wells/claims/<int:pk>/", views.claim_detail, name="wells-api-claim"),
    path("wells/claims/<int:pk>/<str:action>/", views.claim_action, name="wells-api-claim-action"),
    path("wells/runs/", views.runs, name="wells-api-runs"),
    path("wells/runs/<int:pk>/", views.run_detail, name="wells-api-run"),
]
