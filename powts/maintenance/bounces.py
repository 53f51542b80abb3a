"""Late e-mail bounces: a notice's e-mail accepted by the mail server, then returned as undeliverable.

A bounce arrives as a delivery status notification (RFC 3464: a multipart/report whose
message/delivery-status part names each Final-Recipient with its Action and Status). Those that say
"failed" (a 5.x.x status) mark the notices last e-mailed to that address as bounced, with the reason, so the
notices page and the system's letters say the e-mail did not reach the owner. The letter itself is on paper
already: every notice of a batch is printed into the batch's merged PDF for the print shop, e-mailed or not
(powts.maintenance.notices._deliver), so a bounce needs no second mailing, only the record.

`powts maintenance bounces read DIR` reads a folder of such messages (one file each, as a mailbox's
delivery folder keeps them) and moves each one it read into DIR/done/.
"""
from __future__ import annotations

import datetime as dt
import email
import email.policy
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from powts.audit.services import audit_update, snapshot
from powts.core.refusals import Refused
from powts.maintenance.models import Notice

MAX_BYTES = 2_000_000  # a delivery report is a few kilobytes; a bigger file is not one


class BounceRefused(Refused):
    """A file that is not a delivery status notification."""


@dataclass(frozen=True)
class Failure:
    recipient: str
    status: str
    reason: str


def failures(raw: bytes, *, name: str) -> tuple[list[Failure], dt.datetime | None]:
    """The failed recipients a delivery report names, and its date. `name`: the file, for the message."""
    if len(raw) > MAX_BYTES:
        raise BounceRefused(f"{name}: larger than a delivery report ({len(raw):,} bytes)", field="file")
    message = email.message_from_bytes(raw, policy=email.policy.compat32)
    report = next((part for part in message.walk() if part.get_content_type() == "message/delivery-status"), None)
    if report is None:
        raise BounceRefused(f"{name}: not a delivery status notification (no message/delivery-status part)", field="file")
    found = []
    # The part's payload is a list of header blocks: the first about the report, then one per recipient.
    for block in report.get_payload()[1:] if isinstance(report.get_payload(), list) else []:
        action = (block.get("Action") or "").strip().lower()
        status = (block.get("Status") or "").strip()
        recipient = (block.get("Final-Recipient") or block.get("Original-Recipient") or "").split(";")[-1].strip().strip("<>")
        if action == "failed" and status.startswith("5") and "@" in recipient:
            diagnostic = " ".join((block.get("Diagnostic-Code") or "").split(";")[-1].split())
            found.append(Failure(recipient.lower(), status, diagnostic or f"status {status}"))
    try:
        when = parsedate_to_datetime(message["Date"]) if message["Date"] else None
    except (TypeError, ValueError):
        when = None
    if when is not None and when.tzinfo is None:  # "-0000": a time in UTC whose zone the sender did not know
        when = when.replace(tzinfo=dt.timezone.utc)
    return found, when


@transaction.atomic
def bounce_record(*, recipient: str, reason: str, at: dt.datetime | None = None) -> list[Notice]:
    """Mark the notices last e-mailed to `recipient` (the latest batch's, e-mailed before `at`) as bounced.
    Returns them; none when no notice was e-mailed there (or its bounce is already recorded)."""
    at = at or timezone.now()
    emailed = Notice.objects.filter(to_email__iexact=recipient, emailed_at__isnull=False, emailed_at__lte=at)
    last = emailed.aggregate(last=Max("emailed_at"))["last"]
    if last is None:
        return []
    batch = emailed.filter(emailed_at=last).values_list("batch", flat=True).first()
    notices = list(emailed.filter(batch=batch, bounced_at__isnull=True).select_for_update())
    for notice in notices:
        before = snapshot(notice, ["bounced_at", "bounce_reason"])
        notice.bounced_at = at
        notice.bounce_reason = reason[:300]
        notice.save(update_fields=["bounced_at", "bounce_reason"])
        audit_update(notice, before=before, action="notice e-mail bounced; the letter went on paper")
    return notices


def read_folder(folder) -> dict:
    """Each file in `folder`: its failures recorded and the file moved into folder/done/; a file that is not a
    delivery report is named in `refused` and left where it is (nothing recorded from it)."""
    from pathlib import Path

    folder = Path(folder)
    done = folder / "done"
    out = {"files": 0, "bounced": 0, "unmatched": [], "refused": []}
    for path in sorted(p for p in folder.iterdir() if p.is_file()):
        out["files"] += 1
        try:
            found, when = failures(path.read_bytes(), name=path.name)
        except BounceRefused as exc:
            out["refused"].append(exc.message)
            continue
        with transaction.atomic():
            for failure in found:
                marked = bounce_record(recipient=failure.recipient, reason=f"{failure.status} {failure.reason}".strip(), at=when)
                out["bounced"] += len(marked)
                if not marked:
                    out["unmatched"].append(f"{path.name}: {failure.recipient}")
        done.mkdir(mode=0o700, exist_ok=True)
        path.rename(done / path.name)
    return out
