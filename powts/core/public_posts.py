"""Limits on what anyone may post without signing in (the public complaint form and Open311).

One throttle per client address, shared by the API and the web form so a caller cannot get twice the
allowance by switching channel. The counts live in the default cache (settings.CACHES), which is a file
cache in the data directory so every server thread and every process sees the same count.
"""
from __future__ import annotations

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle

# Open311 posts are small; a body over this is refused before it is parsed (settings may lower it).
MAX_BODY_BYTES = getattr(settings, "POWTS_PUBLIC_POST_MAX_BYTES", 64 * 1024)


class PublicPostThrottle(SimpleRateThrottle):
    """Per-address allowance for public posts; rate = settings.POWTS_PUBLIC_POST_RATE (e.g. "10/hour")."""

    scope = "public_post"

    def get_rate(self):
        return settings.POWTS_PUBLIC_POST_RATE

    def get_cache_key(self, request, view):
        # by address even when signed in: the form is public, the allowance is the address's
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


def public_post_wait(request) -> int | None:
    """None when this address may post now; otherwise the seconds until it may (the post is counted)."""
    throttle = PublicPostThrottle()
    if throttle.allow_request(request, None):
        return None
    return max(1, int(throttle.wait() or 1))


def too_many_message(wait: int) -> str:
    minutes = max(1, round(wait / 60))
    return (f"Too many reports from your address. Please try again in about {minutes} minute"
            f"{'s' if minutes != 1 else ''}, or call the county's sanitary office.")


def body_too_large(request, extra: int = 0) -> bool:
    """True when the request declares a body larger than MAX_BODY_BYTES (plus `extra`, room for a photo
    where the form takes one), checked before reading it."""
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0) > MAX_BODY_BYTES + extra
    except ValueError:
        return True
