"""API routes of this app, mounted under /api/ (see powts/urls.py)."""
from django.urls import path

from powts.attachments import api

urlpatterns = [
    path("attachments/", api.attachments, name="attachments-api-list"),
    path("attachments/<int:pk>/", api.attachment_detail, name="attachments-api-detail"),
    path("attachments/<int:pk>/download", api.attachment_download, name="attachments-api-download"),
]
