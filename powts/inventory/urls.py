from django.urls import path

from powts.inventory import views

app_name = "inventory"
urlpatterns = [
    path("", views.system_list, name="system-list"),
    path("systems/<int:pk>/", views.system_detail, name="system-detail"),
    path("import/", views.import_upload, name="import"),
    path("import/<str:token>/confirm/", views.import_confirm, name="import-confirm"),
    path("import/<str:token>/rejects.csv", views.import_rejects, name="import-rejects"),
]
