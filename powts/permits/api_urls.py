"""API routes of this app, mounted under /api/ (see powts/urls.py)."""
from django.urls import path

from powts.permits import api, api_site

urlpatterns = [
    path("permits/", api.permits, name="permits-api-list"),
    path("permits/export.<str:fmt>", api.export, name="permits-api-export"),
    path("permits/inspections.ics", api.inspections_ics, name="permits-api-ics"),
    path("permits/<int:pk>/", api.permit_detail, name="permits-api-detail"),
    path("permits/<int:pk>/documents/", api.permit_documents, name="permits-api-documents"),
    path("permits/<int:pk>/plot-plan/", api.permit_plot_plan, name="permits-api-plot-plan"),
    path("permits/<int:pk>/actions/<str:action>/", api.permit_action, name="permits-api-action"),
    path("permits/<int:pk>/changes/", api.permit_changes, name="permits-api-changes"),
    path("permits/<int:pk>/inspections/", api.inspection_request, name="permits-api-inspection-request"),
    path("permits/<int:pk>/card.pdf", api.permit_card, name="permits-api-card"),
    path("permit-changes/<int:pk>/<str:decision>/", api.change_decide, name="permits-api-change-decide"),
    path("inspections/<int:pk>/result/", api.inspection_result, name="permits-api-inspection-result"),
    path("invoices/<int:pk>/payments/", api.invoice_payment, name="permits-api-payment"),
    path("open311/v2/services.json", api.open311_services, name="open311-services"),
    path("open311/v2/requests.json", api.open311_requests, name="open311-requests"),
    path("open311/v2/requests/<int:pk>.json", api.open311_request, name="open311-request"),
    path("soil-evaluations/", api_site.soil_evaluations, name="permits-api-soil"),
    path("soil-evaluations/<int:pk>/verify/", api_site.soil_verify, name="permits-api-soil-verify"),
    path("parcels/<str:parcel_number>/building-permit-gate/", api_site.building_permit_gate, name="permits-api-gate"),
    path("clearances/", api_site.clearances, name="permits-api-clearances"),
    path("emergency-work/", api_site.emergency_work, name="permits-api-emergency"),
    path("failure-determinations/", api_site.failure_determinations, name="permits-api-failures"),
    path("correction-orders/", api_site.correction_orders, name="permits-api-orders"),
    path("correction-orders/<int:pk>/<str:what>/", api_site.correction_order_update, name="permits-api-order-update"),
    path("variances/", api_site.variances, name="permits-api-variances"),
    path("variances/<int:pk>/decide/", api_site.variance_decide, name="permits-api-variance-decide"),
]
