"""What every permit service shares: the refusal, the actor, the timeline entry, the row lock."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from powts.audit.context import current
from powts.audit.services import audit_update
from powts.core.refusals import refuse_invalid
from powts.permits import choices as c
from powts.permits import rules
from powts.permits.errors import PermitRefused
from powts.permits.models import Permit, PermitEvent

ZERO = Decimal("0.00")


def refuse(message: str, citation: str = "", field: str = "status"):
    """Refuse the action: `field` names what is at fault ("status" when it is the permit's state)."""
    raise PermitRefused(message, field=field, citation=citation)


def checked(instance, **full_clean_kwargs):
    """full_clean, a model's refusal raised as a PermitRefused naming each field (never a bare ValidationError)."""
    return refuse_invalid(instance, PermitRefused, **full_clean_kwargs)


def _actor():
    ctx = current()
    actor = ctx.resolved_actor()
    return actor if getattr(actor, "pk", None) else None


def _event(permit: Permit, *, step: str, summary: str, citation: str = "", on: dt.date) -> PermitEvent:
    return PermitEvent.objects.create(permit=permit, at=timezone.now(), on=on, step=step, summary=summary,
                                      citation=citation, actor=_actor())


def _move(permit: Permit, *, to: str, allowed_from, verb: str, citation: str = ""):
    if permit.status not in allowed_from:
        names = ", ".join(c.PermitStatus(s).label.lower() for s in allowed_from)
        refuse(f"permit {permit.number} is {permit.get_status_display().lower()}; it can be {verb} only when {names}",
               citation)
    permit.status = to


def _lock(permit: Permit) -> Permit:
    """Re-read the permit under a row lock so two requests cannot move it at once."""
    return Permit.objects.select_for_update().select_related("jurisdiction").get(pk=permit.pk)


def _save(permit: Permit, before: dict, action: str) -> Permit:
    checked(permit)
    permit.save()
    audit_update(permit, before=before, action=action)
    return permit


def _not_expired(permit: Permit, on: dt.date, what: str) -> None:
    if permit.expires_on and on > permit.expires_on:
        rule = rules.permit_rules(permit.slug)["expiry"]
        refuse(f"permit {permit.number} expired on {permit.expires_on.isoformat()} (the day after is {on.isoformat()} "
               f"or later); {what} needs a valid permit", rule["citation"])
