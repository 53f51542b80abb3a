"""What a locked-out sign-in sees (django-axes calls `lockout_response`), and the client's address."""
import ipaddress

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render


def lockout_response(request, original_response=None, credentials=None):
    """429 with the reason: JSON on the API, the USWDS page on the web."""
    message = str(settings.AXES_COOLOFF_MESSAGE)
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": message}, status=429)
    return render(request, "accounts/locked_out.html", {"message": message}, status=429)


def client_ip(request) -> str:
    """REMOTE_ADDR, or behind POWTS_PROXY_COUNT proxies the address the outermost of ours saw.

    Only the entries our own proxies appended are trusted; anything further left the client wrote itself.
    """
    remote = request.META.get("REMOTE_ADDR", "")
    proxies = getattr(settings, "POWTS_PROXY_COUNT", 0)
    if not proxies:
        return remote
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    candidate = hops[-proxies] if len(hops) >= proxies else remote
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:  # not an address: never let header text into the lockout table or the log
        return remote
