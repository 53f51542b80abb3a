from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_safe


@login_required
@require_safe  # read-only: a POST is refused (405), never answered like a GET
def home(request):
    return redirect("inventory:system-list")


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
