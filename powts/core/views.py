from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_safe


@login_required
@require_safe  # read-only: a POST is refused (405), never answered like a GET
def home(request):
    """Each role's own home (powts.core.menus.HOMES): staff the dashboard, a pumper the report form ..."""
    from powts.core.menus import home_for

    return redirect(home_for(request.user))


@require_safe
def healthz(request):
    return JsonResponse({"status": "ok"})


def _wants_json(request) -> bool:
    return request.path.startswith("/api/")


def not_found(request, exception=None):
    """404: JSON under /api/ (an id that is not a number, say), the usual page elsewhere."""
    if _wants_json(request):
        return JsonResponse({"detail": "Not found."}, status=404)
    from django.views.defaults import page_not_found

    return page_not_found(request, exception)


def bad_request(request, exception=None):
    """400: JSON under /api/, the usual page elsewhere."""
    if _wants_json(request):
        return JsonResponse({"detail": "Bad request."}, status=400)
    from django.views.defaults import bad_request as default

    return default(request, exception)


def permission_denied(request, exception=None):
    """403: JSON under /api/, elsewhere a page that says what the person may do instead."""
    if _wants_json(request):
        return JsonResponse({"detail": str(exception) if exception and str(exception) else "You may not do this."}, status=403)
    from django.views.defaults import permission_denied as default

    return default(request, exception)


def server_error(request):
    """500: JSON under /api/; elsewhere the static-safe 500.html (no request, no database)."""
    if _wants_json(request):
        return JsonResponse({"detail": "Server error; nothing was changed. Try again, or tell the county."}, status=500)
    from django.views.defaults import server_error as default

    return default(request)
