"""A mail provider's bounce report, posted to /api/maintenance/bounces/: the notices last e-mailed to that
address are marked bounced exactly as `powts maintenance bounces read DIR` marks them (bounces.bounce_record).

No one signs in to post here: the provider proves itself with the secret the county shares with it
(settings.POWTS_BOUNCE_WEBHOOK_SECRET). It sends two headers:

    X-Powts-Timestamp: the Unix time it signed at
    X-Powts-Signature: sha256=<hex HMAC-SHA256, with the secret, of "<timestamp>." followed by the raw body>

A report more than five minutes old or new is refused (a copied request cannot be replayed later). The body
is JSON, one bounce or a list of them:

    {"recipient": "owner@example.com", "reason": "mailbox does not exist",
     "status": "5.1.1", "permanent": true, "bounced_at": "2026-03-02T14:05:00Z"}

Only a permanent failure marks a notice (as the folder reader takes only "failed" with a 5.x.x status): one
with `permanent` false or a 4.x.x status is a delay the mail server retries, answered and not recorded.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import time

from django.conf import settings
from django.db import transaction
from django.http import JsonResponse
from django.utils.dateparse import parse_datetime
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from powts.core import fields
from powts.core.refusals import Refused
from powts.maintenance.bounces import BounceRefused, bounce_record

MAX_BYTES = 256 * 1024
MAX_BOUNCES = 500
TOLERANCE_SECONDS = 300


class SignatureRefused(BounceRefused):
    """A report not signed with the county's shared secret."""


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """What the provider sends in X-Powts-Signature for this body (also for the provider's set-up and tests)."""
    return "sha256=" + hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()


def check_signature(*, secret: str, timestamp: str, sent: str, body: bytes, now: float | None = None) -> None:
    if not secret:
        raise SignatureRefused("bounce reports are not accepted here: no shared secret is set for a mail provider",
                               field="signature")
    if not timestamp or not sent:
        raise SignatureRefused("the X-Powts-Timestamp and X-Powts-Signature headers are required", field="signature")
    try:
        signed_at = int(timestamp)
    except ValueError:
        raise SignatureRefused("X-Powts-Timestamp is not a Unix time in seconds", field="signature") from None
    if abs((time.time() if now is None else now) - signed_at) > TOLERANCE_SECONDS:
        raise SignatureRefused("the report was signed more than five minutes from now; it is not accepted",
                               field="signature")
    if not hmac.compare_digest(signature(secret, timestamp, body), sent.strip()):
        raise SignatureRefused("the signature does not match the body signed with the shared secret", field="signature")


def _bounce(item, at_most: dt.datetime, index: str) -> tuple[str, str, bool, dt.datetime]:
    if not isinstance(item, dict):
        raise BounceRefused(f"{index}: each bounce is an object with recipient and reason", field="body")
    recipient = fields.text("recipient", item.get("recipient"), max_length=254, required=True).lower()
    if "@" not in recipient:
        raise BounceRefused(f"{index}recipient {recipient[:60]!r} is not an e-mail address", field="recipient")
    reason = fields.text("reason", item.get("reason") or "", max_length=300)
    status = fields.text("status", item.get("status") or "", max_length=20)
    permanent = item.get("permanent", True)
    if not isinstance(permanent, bool):
        raise BounceRefused(f"{index}permanent must be true or false", field="permanent")
    at = at_most
    if item.get("bounced_at"):
        raw = str(item["bounced_at"])[:40]
        at = parse_datetime(raw)
        if at is None:
            raise BounceRefused(f"{index}bounced_at {raw!r} is not a date and time (ISO 8601)", field="bounced_at")
        if at.tzinfo is None:
            at = at.replace(tzinfo=dt.timezone.utc)
        at = min(at, at_most)
    return recipient, f"{status} {reason}".strip() or "bounced", permanent and not status.startswith("4"), at


def read_body(body: bytes) -> list:
    if len(body) > MAX_BYTES:
        raise BounceRefused(f"the body is larger than a bounce report ({len(body):,} bytes)", field="body")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise BounceRefused("the body is not JSON", field="body") from None
    items = data if isinstance(data, list) else [data]
    if not items or len(items) > MAX_BOUNCES:
        raise BounceRefused(f"a report holds 1 to {MAX_BOUNCES} bounces", field="body")
    return items


def bounces_receive(*, body: bytes, now: dt.datetime) -> dict:
    """Every bounce in the body checked first, then all recorded in one transaction (a bad one records none)."""
    items = read_body(body)
    checked = [_bounce(item, now, f"bounce {i + 1}: " if len(items) > 1 else "") for i, item in enumerate(items)]
    out = {"bounced": 0, "unmatched": [], "not_permanent": []}
    with transaction.atomic():
        for recipient, reason, permanent, at in checked:
            if not permanent:
                out["not_permanent"].append(recipient)
                continue
            marked = bounce_record(recipient=recipient, reason=reason, at=at)
            out["bounced"] += len(marked)
            if not marked:
                out["unmatched"].append(recipient)
    return out


@csrf_exempt  # a mail provider's server posts here: the signature, not a session, is its proof
@require_POST
def bounce_webhook(request):
    from django.utils import timezone

    from powts.audit.choices import Channel
    from powts.audit.context import acting

    body = request.body
    try:
        check_signature(secret=settings.POWTS_BOUNCE_WEBHOOK_SECRET, timestamp=request.headers.get("X-Powts-Timestamp", ""),
                        sent=request.headers.get("X-Powts-Signature", ""), body=body)
    except SignatureRefused as exc:
        return JsonResponse(exc.as_dict(), status=403)
    try:
        with acting(channel=Channel.API, actor_label="mail provider's bounce report"):
            out = bounces_receive(body=body, now=timezone.now())
    except Refused as exc:  # BounceRefused, or a field the bounded parser refused
        return JsonResponse(exc.as_dict(), status=400)
    return JsonResponse(out)
