from django.urls import path
from rest_framework.routers import DefaultRouter

from powts.accounts.api import TokenView
from powts.inventory.api.views import SystemViewSet

app_name = "api"
router = DefaultRouter()
router.register("systems", SystemViewSet, basename="system")
urlpatterns = [path("token/", TokenView.as_view(), name="token"), *router.urls]
