from django.urls import path

from powts.jurisdictions import views

app_name = "jurisdictions"
urlpatterns = [
    path("", views.county_list, name="list"),
]
