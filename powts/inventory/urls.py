from django.urls import path

from powts.inventory import views, views_edit

app_name = "inventory"
urlpatterns = [
    path("", views.system_list, name="system-list"),
    path("systems/<int:pk>/", views.system_detail, name="system-detail"),
    path("import/", views.import_upload, name="import"),
    path("import/<str:token>/confirm/", views.import_confirm, name="import-confirm"),
    path("import/<str:token>/rejects.csv", views.import_rejects, name="import-rejects"),
]

# Edits by county staff, from the system's page (views_edit.py)
urlpatterns += [
    path("systems/<int:pk>/edit/", views_edit.system_edit, name="system-edit"),
    path("systems/<int:pk>/components/new/", views_edit.component_add, name="component-add"),
    path("systems/<int:pk>/components/<int:component_pk>/edit/", views_edit.component_edit, name="component-edit"),
    path("systems/<int:pk>/components/<int:component_pk>/remove/", views_edit.component_remove, name="component-remove"),
    path("systems/<int:pk>/parcel/edit/", views_edit.parcel_edit, name="parcel-edit"),
    path("systems/<int:pk>/owner/edit/", views_edit.owner_edit, name="owner-edit"),
    path("systems/<int:pk>/sale/", views_edit.parcel_sale, name="parcel-sale"),
]
