from django.urls import path

from powts.wells import views

app_name = "wells"
urlpatterns = [
    path("claims/", views.claim_list, name="claim-list"),
    path("claims/new/", views.claim_new, name="claim-new"),
    path("claims/<int:pk>/", views.claim_detail, name="claim-detail"),
    path("claims/<int:pk>/<str:action>/", views.claim_act, name="claim-act"),
    path("claims/<int:pk>/letters/<str:kind>.pdf", views.claim_letter, name="claim-letter"),
    path("runs/", views.run_list, name="run-list"),
    path("runs/<int:pk>/", views.run_detail, name="run-detail"),
]
