"""The replaced system's components abandoned when the replacement is installed (the profile's
replacement_abandonment rule): the installing plumber records them, and final approval waits for that record."""
from __future__ import annotations

import datetime as dt

from django.db import transaction

from powts.audit.services import audit_create
from powts.maintenance.choices import AbandonmentMethod
from powts.permits import choices as c
from powts.permits import rules
from powts.permits.models import ComponentAbandonment, Permit
from powts.permits.services._common import _event, _lock, checked, refuse


def _rule(permit: Permit) -> dict:
    return rules.permit_rules(permit.slug).get("replacement_abandonment") or {}


@transaction.atomic
def replaced_components_abandon(*, permit: Permit, plumber, components: str, method: str,
                                abandoned_on: dt.date) -> ComponentAbandonment:
    """Record the components of the existing system, not in the replacement's design, as abandoned."""
    permit = _lock(permit)
    rule = _rule(permit)
    if not rule:
        refuse("this county's ordinance does not ask the installing plumber to record the abandonment; the owner "
               "files the abandonment's final report in the maintenance program", field="components")
    cite = rule["citation"]
    if not permit.replaces_system:
        refuse(f"permit {permit.number} does not replace an existing system", cite, "components")
    if permit.status != c.PermitStatus.ISSUED:
        refuse(f"permit {permit.number} is {permit.get_status_display().lower()}; the abandonment is recorded while "
               "the replacement is installed under an issued permit", cite)
    if rule.get("by_installing_plumber") and (plumber is None or plumber.pk != permit.plumber_id):
        refuse(f"the abandonment is done by the plumber installing the system ({permit.plumber})", cite, "plumber")
    if method not in AbandonmentMethod.values:
        refuse(f"method {method!r} is not one of {', '.join(AbandonmentMethod.values)}", cite, "method")
    if permit.issued_on and abandoned_on < permit.issued_on:
        refuse(f"abandoned_on {abandoned_on.isoformat()} is before the permit was issued "
               f"({permit.issued_on.isoformat()})", cite, "abandoned_on")
    components = (components or "").strip()
    if not components:
        refuse("name the components abandoned", cite, "components")
    done = ComponentAbandonment(permit=permit, plumber=plumber, components=components, method=method,
                                abandoned_on=abandoned_on, citation=cite)
    checked(done)
    done.save()
    audit_create(done, action=f"replaced components abandoned: {components} ({method})")
    _event(permit, step="components_abandoned", on=abandoned_on, citation=cite,
           summary=f"Components of the replaced system abandoned ({AbandonmentMethod(method).label.lower()}): {components}")
    return done


def abandonment_blocking_final_approval(permit: Permit, on: dt.date) -> tuple[str, str]:
    """Why final approval must wait for the abandonment record ("" when it need not), and the citation."""
    rule = _rule(permit)
    if not rule or not permit.replaces_system:
        return "", ""
    if not permit.abandonments.filter(abandoned_on__lte=on).exists():
        return ("the components of the replaced system not in the new design are not yet recorded as abandoned "
                "by the plumber installing the system", rule["citation"])
    return "", rule["citation"]
