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
    path("grants/", include("powts.grants.urls")),
    path("wells/", include("powts.wells.urls")),  # DNR: well compensation claims
    path("counties/", include("powts.jurisdictions.urls")),
    path("grants/program/", include("powts.grants.urls_program")),  # county certification ... DSPS allocation
    path("oversight/", include("powts.oversight.urls")),  # the department's audits; flags, referrals, special charges
    path("jobs/", include("powts.jobs.urls")),  # a background job's progress, result and retry
    path("api/", include("powts.inventory.api.urls", namespace="api")),
    path("api/", include("powts.maintenance.api_urls")),
    path("api/", include("powts.permits.api.urls")),
    path("api/", include("powts.attachments.api_urls")),
    path("api/", include("powts.maps.api_urls")),
    path("api/", include("powts.grants.api_program_urls")),
    path("api/", include("powts.grants.api_urls")),
    path("api/", include("powts.wells.api.urls")),
    path("api/", include("powts.oversight.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view loads Swagger UI's start-up code as a script file, and our template
    # (templates/drf_spectacular/swagger_ui.html) its page rules as a style sheet: the CSP stays strict here too.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("admin/", admin.site.urls),
]

# Errors under /api/ are JSON, whatever the view (an id that does not match the URL, say).
handler404 = "powts.core.views.not_found"
handler400 = "powts.core.views.bad_request"
handler403 = "powts.core.views.permission_denied"
handler500 = "powts.core.views.server_error"
