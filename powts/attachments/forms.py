"""Reading an upload form's fields (the same for the web pages and the API's multipart posts)."""
from __future__ import annotations

from powts.attachments import choices as c
from powts.core import fields
from powts.core.refusals import Refused


def upload_fields(data) -> dict:
    """kind, title, recording_number and recorded_on from a POST, each bounded; a bad one is Refused naming it."""
    kind = (data.get("kind") or "").strip()
    if kind not in c.Kind.values:
        raise Refused(f"kind must be one of: {', '.join(c.Kind.values)}", field="kind")
    raw_on = (data.get("recorded_on") or "").strip()
    recorded_on = fields.date("recorded_on", raw_on) if raw_on else None
    return {"kind": kind, "title": (data.get("title") or "")[:201], "recording_number": (data.get("recording_number") or "")[:61],
            "recorded_on": recorded_on}
