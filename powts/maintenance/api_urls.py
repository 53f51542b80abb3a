"""API routes of this app, mounted under /api/ (see powts/urls.py)."""
from django.urls import path
from rest_framework.routers import SimpleRouter

from powts.maintenance import bounce_webhook
from powts.maintenance.api import views

router = SimpleRouter()
router.register("maintenance/reports", views.ReportViewSet, basename="maintenance-report")
urlpatterns = [
    path("maintenance/due/", views.DueListView.as_view(), name="maintenance-due"),
    path("maintenance/holding-reports/", views.HoldingReportView.as_view(), name="maintenance-holding-reports"),
    path("maintenance/holding-reports/letters/", views.HoldingLettersView.as_view(), name="maintenance-holding-letters"),
    path("maintenance/systems/<int:pk>/", views.SystemMaintenanceView.as_view(), name="maintenance-system"),
    # A mail provider's bounce report, signed with the shared secret (no sign-in): marks the notices bounced.
    path("maintenance/bounces/", bounce_webhook.bounce_webhook, name="maintenance-bounce-webhook"),
    *router.urls,
]
