from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from powts.core import views as core_views

urlpatterns = [
    path("", core_views.home, name="home"),
    path("healthz", core_views.healthz, name="healthz"),
    path("accounts/login/", auth_views.LoginView.as_view(template_name="core/login.html"), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/", include("powts.accounts.urls")),  # own account: password, tokens, calendar address
    path("inventory/", include("powts.inventory.urls")),
    path("maintenance/", include("powts.maintenance.urls")),
    path("permits/", include("powts.permits.urls")),
    path("attachments/", include("powts.attachments.urls")),  # documents and photos on a record
    path("map/", include("powts.maps.urls")),
    path("counties/", include("powts.jurisdictions.urls")),
    path("oversight/", include("powts.oversight.urls")),  # the department's audits; flags, referrals, special charges
    path("api/", include("powts.inventory.api.urls", namespace="api")),
    path("api/", include("powts.maintenance.api_urls")),
    path("api/", include("powts.permits.api.urls")),
    path("api/", include("powts.attachments.api_urls")),
    path("api/", include("powts.maps.api_urls")),
    path("api/", include("powts.oversight.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view loads Swagger UI's start-up code as a script file, so script-src stays 'self'; only
    # its template's small inline <style> needs style-src relaxed, on this page alone.
    path("api/docs/", csp_update({"style-src": [UNSAFE_INLINE]})(
        SpectacularSwaggerSplitView.as_view(url_name="api-schema")), name="api-docs"),
    path("admin/", admin.site.urls),
]

# issue 8: errors under /api/ are JSON, whatever the view (an id that does not match the URL, say).
handler404 = "powts.core.views.not_found"
handler400 = "powts.core.views.bad_request"
handler403 = "powts.core.views.permission_denied"
handler500 = "powts.core.views.server_error"
