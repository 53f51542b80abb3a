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
