"""API routes of this app, mounted under /api/ (see powts/urls.py)."""
from django.urls import path

from powts.permits.api import open311, site, views

urlpatterns = [
    path("permits/", views.permits, name="permits-api-list"),
    path("permits/export.<str:fmt>", views.export, name="permits-api-export"),
    path("permits/inspections.ics", views.inspections_ics, name="permits-api-ics"),
    path("permits/<int:pk>/", views.permit_detail, name="permits-api-detail"),
    path("permits/<int:pk>/documents/", views.permit_documents, name="permits-api-documents"),
    path("permits/<int:pk>/plot-plan/", views.permit_plot_plan, name="permits-api-plot-plan"),
    path("permits/<int:pk>/actions/<str:action>/", views.permit_action, name="permits-api-action"),
    path("permits/<int:pk>/changes/", views.permit_changes, name="permits-api-changes"),
    path("permits/<int:pk>/inspections/", views.inspection_request, name="permits-api-inspection-request"),
    path("permits/<int:pk>/card.pdf", views.permit_card, name="permits-api-card"),
    path("permit-changes/<int:pk>/<str:decision>/", views.change_decide, name="permits-api-change-decide"),
    path("inspections/<int:pk>/result/", views.inspection_result, name="permits-api-inspection-result"),
    path("invoices/<int:pk>/payments/", views.invoice_payment, name="permits-api-payment"),
    path("open311/v2/services.json", open311.open311_services, name="open311-services"),
    path("open311/v2/requests.json", open311.open311_requests, name="open311-requests"),
    path("open311/v2/requests/<int:pk>.json", open311.open311_request, name="open311-request"),
    path("soil-evaluations/", site.soil_evaluations, name="permits-api-soil"),
    path("soil-evaluations/<int:pk>/verify/", site.soil_verify, name="permits-api-soil-verify"),
    path("parcels/find/", views.parcel_find, name="permits-api-parcel-find"),
    path("plot-plans/check/", views.plan_check, name="permits-api-plan-check"),
    path("parcels/<str:parcel_number>/building-permit-gate/", site.building_permit_gate, name="permits-api-gate"),
    path("clearances/", site.clearances, name="permits-api-clearances"),
    path("emergency-work/", site.emergency_work, name="permits-api-emergency"),
    path("failure-determinations/", site.failure_determinations, name="permits-api-failures"),
    path("correction-orders/", site.correction_orders, name="permits-api-orders"),
    path("correction-orders/<int:pk>/<str:what>/", site.correction_order_update, name="permits-api-order-update"),
    path("variances/", site.variances, name="permits-api-variances"),
    path("variances/<int:pk>/decide/", site.variance_decide, name="permits-api-variance-decide"),
    path("variances/<int:pk>/rescind/", site.variance_rescind, name="permits-api-variance-rescind"),
]
