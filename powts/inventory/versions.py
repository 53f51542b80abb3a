"""Two people editing one record never silently overwrite each other.

Each editable record carries an integer `version`. An edit names the version its editor saw; the
service moves the row to the next version in one conditional UPDATE (`... WHERE version = seen`), so of
two edits made from the same page only the first applies. The second is refused with StaleEdit, which
lists what the other person changed (read from the audit trail, where every edit records its version
step), and the form keeps the second person's input for them to check and save again.
"""
from __future__ import annotations

from django.contrib.contenttypes.models import ContentType
from django.db.models import F
from django.utils import timezone

from powts.core import fields
from powts.core.refusals import Refused


class StaleEdit(Refused):
    """The record was saved by someone else after the editor opened it."""

    def __init__(self, message: str, *, current_version: int, changes: list[str]):
        super().__init__(message, field="version")
        self.current_version = current_version
        self.changes = changes

    def as_dict(self) -> dict:
        return {**super().as_dict(), "current_version": self.current_version, "changes": self.changes}


def with_reason(action: str, reason: str) -> str:
    """The audited action with the editor's reason, as the history shows it: "system edited: wrong year"."""
    reason = " ".join((reason or "").split())
    return f"{action}: {reason}"[:300] if reason else action


def claim_version(record, seen) -> None:
    """Move `record` to its next version, or raise StaleEdit when `seen` is no longer its version.

    `seen` None: an internal change (an import, a permit's approval) that no editor saw; it still moves
    the version on, so an editor with the page open is told about it."""
    model = type(record)
    rows = model.objects.filter(pk=record.pk)
    if seen is None:
        rows.update(version=F("version") + 1)
    else:
        seen = fields.integer("version", seen, minimum=1, required=True)
        if not rows.filter(version=seen).update(version=F("version") + 1):
            current = rows.values_list("version", flat=True).first()
            if current is None:
                raise Refused(f"{record} was removed meanwhile", field="version")
            raise stale(record, seen=seen, current=current)
    record.version = rows.values_list("version", flat=True).get()


def versioned_save(record, data: dict, *, version, refusal: type[Refused], action: str, reason: str = "",
                   check=None):
    """An editor's `data` applied to `record`: the version they saw claimed (StaleEdit when someone saved
    meanwhile), the fields set, `check(record)` and the model's own rules (raised as `refusal`), saved, and
    audited with the version step and the editor's reason."""
    from powts.audit.services import audit_update, snapshot
    from powts.core.refusals import refuse_invalid

    before = snapshot(record, [*data, "version"])
    claim_version(record, version)
    for field, value in data.items():
        setattr(record, field, value)
    if check is not None:
        check(record)
    refuse_invalid(record, refusal)
    record.save()
    audit_update(record, before=before, action=with_reason(action, reason))
    return record


def stale(record, *, seen: int, current: int) -> StaleEdit:
    changes = changes_since(record, seen)
    listed = "; ".join(changes) if changes else "the record was changed"
    return StaleEdit(f"Someone else saved {record} after you opened it: {listed}. "
                     "Your changes have not been saved; they are still in the form. Check them and save again.",
                     current_version=current, changes=changes)


def changes_since(record, seen: int, *, limit: int = 200) -> list[str]:
    """What was changed in `record` from version `seen` on, oldest first, in words: who, when, what."""
    from powts.audit.models import AuditEvent

    ct = ContentType.objects.get_for_model(record, for_concrete_model=True)
    events = (AuditEvent.objects.filter(content_type=ct, object_id=record.pk).select_related("actor")
              .order_by("-at", "-id")[:limit])
    out = []
    for event in events:
        step = (event.changes or {}).get("version")
        if not (isinstance(step, list) and isinstance(step[0], int) and step[0] >= seen):
            continue
        who = event.actor.display_name if event.actor_id else (event.actor_label or "the system")
        when = timezone.localtime(event.at).strftime("%b %d, %Y %I:%M %p")
        what = ", ".join(f"{name} {_shown(pair[0])} → {_shown(pair[1])}" for name, pair in event.changes.items()
                         if name != "version" and isinstance(pair, list) and len(pair) == 2)
        out.append(f"{who} ({when}) {event.action}" + (f" [{what}]" if what else ""))
    return out[::-1]


def _shown(value) -> str:
    if value in (None, ""):
        return "(blank)"
    text = str(value)
    return text if len(text) <= 60 else text[:60] + "…"
