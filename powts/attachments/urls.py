from django.urls import path

from powts.attachments import views

app_name = "attachments"
urlpatterns = [
    path("<str:record>/<int:pk>/add/", views.upload, name="upload"),
    path("<int:pk>/", views.download, name="download"),
    path("<int:pk>/remove/", views.delete, name="delete"),
]
