from django.urls import path

from powts.jurisdictions import views

app_name = "jurisdictions"
urlpatterns = [
    path("", views.county_list, name="list"),
    path("new/", views.county_new, name="county-new"),
    path("settings/", views.county_settings, name="settings"),
    path("settings/<slug:key>/", views.county_setting_edit, name="setting-edit"),
]
