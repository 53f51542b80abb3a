from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect


@login_required
def home(request):
    return redirect("inventory:system-list")


def healthz(request):
    return JsonResponse({"status": "ok"})
