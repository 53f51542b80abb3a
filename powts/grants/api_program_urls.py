from django.urls import path

from powts.grants import api_program as api

urlpatterns = [
    path("grants/certifications/", api.certifications, name="grants-api-certifications"),
    path("grants/participations/", api.participations, name="grants-api-participations"),
    path("grants/participations/<int:pk>/review/", api.participation_review, name="grants-api-participation-review"),
    path("grants/allocations/", api.allocations, name="grants-api-allocations"),
    path("grants/allocations/<int:pk>/", api.allocation_detail, name="grants-api-allocation"),
    path("grants/what-if/", api.what_if, name="grants-api-what-if"),
]
