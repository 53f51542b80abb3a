from django.urls import path

from powts.maps import views

app_name = "maps"
urlpatterns = [path("", views.map_page, name="map")]
