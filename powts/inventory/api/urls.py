from django.urls import path
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import DefaultRouter

from powts.inventory.api.views import SystemViewSet

app_name = "api"
router = DefaultRouter()
router.register("systems", SystemViewSet, basename="system")
urlpatterns = [path("token/", obtain_auth_token, name="token"), *router.urls]
