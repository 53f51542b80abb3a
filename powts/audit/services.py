"""Writing audit events. Called by other apps' services, inside their transactions."""
from __future__ import annotations

import datetime as dt
from contextlib import contextmanager
from contextvars import ContextVar
from decimal import Decimal

from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone

from powts.audit.context import current
from powts.audit.models import AuditEvent
from powts.core import prepared_writes


# Events held back by written_together() (None outside one): written by one INSERT at its end.
_held: ContextVar[list | None] = ContextVar("powts_audit_held", default=None)


@contextmanager
def written_together():
    """The audit rows of a block written by one INSERT at its end, not one each (a report writes three;
    the report API's hot path). Use inside the caller's transaction: the rows then commit or
    roll back with the changes they record. An exception in the block writes none. Nested blocks leave
    the writing to the outermost one."""
    if _held.get() is not None:
        yield
        return
    events: list[AuditEvent] = []
    token = _held.set(events)
    try:
        yield
        if events:
            prepared_writes.insert(events)  # bulk_create(events), its INSERT compiled once per number of rows
    finally:
        _held.reset(token)


def _write(event: AuditEvent) -> AuditEvent:
    held = _held.get()
    if held is None:
        event.save()
    else:
        held.append(event)  # saved with the others when the block ends (no id until then)
    return event


def jsonable(value):
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, models.Model):
        return str(value)
    return value


def snapshot(obj: models.Model, fields: list[str] | None = None) -> dict:
    """The audited values of a record: concrete fields, foreign keys by id."""
    names = fields or [f.attname for f in obj._meta.concrete_fields if f.name != "id"]
    return {name: jsonable(getattr(obj, name)) for name in names}


def diff(before: dict, after: dict) -> dict:
    return {k: [before.get(k), after.get(k)] for k in sorted(set(before) | set(after)) if before.get(k) != after.get(k)}


def build_event(obj: models.Model, *, action: str, verb: str, changes: dict, at=None) -> AuditEvent:
    """An unsaved event for `obj` with the current actor and channel (for bulk writers)."""
    ctx = current()
    actor = ctx.resolved_actor()
    actor = actor if getattr(actor, "pk", None) else None
    return AuditEvent(
        at=at or timezone.now(),
        actor=actor,
        actor_label=actor.username if actor else ctx.actor_label,
        channel=ctx.channel,
        action=action,
        verb=verb,
        content_type=ContentType.objects.get_for_model(obj, for_concrete_model=True),
        object_id=obj.pk,
        object_repr=str(obj)[:200],
        changes=changes,
        batch=ctx.batch,
    )


def audit_create(obj: models.Model, *, action: str) -> AuditEvent:
    after = snapshot(obj)
    return _write(build_event(obj, action=action, verb="create", changes={k: [None, v] for k, v in after.items() if v not in (None, "", {}, [])}))


def audit_update(obj: models.Model, *, before: dict, action: str) -> AuditEvent | None:
    """Records the fields that changed since `before` (a snapshot); nothing when none did."""
    changes = diff(before, snapshot(obj, list(before)))
    if not changes:
        return None
    return _write(build_event(obj, action=action, verb="update", changes=changes))


def audit_delete(obj: models.Model, *, action: str) -> AuditEvent:
    return _write(build_event(obj, action=action, verb="delete", changes={k: [v, None] for k, v in snapshot(obj).items()}))
