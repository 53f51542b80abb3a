from django.urls import path

from powts.grants import views_program as v

app_name = "grants_program"
urlpatterns = [
    path("county/", v.county, name="county"),
    path("county/certify/", v.certify, name="certify"),
    path("county/submit/", v.submit, name="submit"),
    path("county/payments/<int:pk>/disburse/", v.disburse, name="disburse"),
    path("state/", v.review_queue, name="queue"),
    path("state/participations/<int:pk>/", v.participation_detail, name="participation"),
    path("state/participations/<int:pk>/review/", v.review, name="review"),
    path("state/participations/<int:pk>/revise/", v.revise, name="revise"),
    path("state/items/<int:pk>/revise/", v.revise_item, name="revise-item"),
    path("state/allocations/", v.allocations, name="allocations"),
    path("state/allocations/<int:pk>/", v.run_detail, name="run"),
    path("state/allocations/<int:pk>/pay/", v.pay, name="pay"),
    path("state/what-if/", v.whatif_page, name="whatif"),
]
