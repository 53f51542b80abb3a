from django.urls import path

from powts.grants import views

app_name = "grants"
urlpatterns = [
    path("", views.application_list, name="list"),
    path("apply/", views.application_new, name="new"),
    path("my-payments/", views.owner_payments, name="my-payments"),
    path("<int:pk>/", views.application_detail, name="detail"),
    path("<int:pk>/decide/", views.application_decide, name="decide"),
    path("<int:pk>/withdraw/", views.application_withdraw, name="withdraw"),
    path("<int:pk>/letter.pdf", views.application_letter, name="letter"),
]
