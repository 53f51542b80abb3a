"""API routes of oversight, mounted under /api/ (see powts/urls.py)."""
from django.urls import path

from powts.oversight.api import views

urlpatterns = [
    path("oversight/programs/", views.programs, name="oversight-api-programs"),
    path("oversight/audits/", views.audits, name="oversight-api-audits"),
    path("oversight/audits/<int:pk>/", views.audit, name="oversight-api-audit"),
    path("oversight/flags/", views.flags, name="oversight-api-flags"),
    path("oversight/categories/", views.categories, name="oversight-api-categories"),
    path("oversight/referrals/<int:pk>/", views.referral, name="oversight-api-referral"),
    path("oversight/special-charges/", views.assessments, name="oversight-api-assessments"),
    path("oversight/application-samples/", views.application_samples, name="oversight-api-application-samples"),
    path("oversight/application-samples/<int:pk>/", views.application_sample, name="oversight-api-application-sample"),
    path("oversight/application-samples/items/<int:pk>/inspect/", views.application_inspect,
         name="oversight-api-application-inspect"),
    path("oversight/<str:target>/<int:pk>/<str:action>/", views.act, name="oversight-api-act"),
]
