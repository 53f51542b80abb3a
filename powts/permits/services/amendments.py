"""Amending an application after filing and before the decision: each field's old and new value, who and
when, kept as a PermitChange of kind "amendment"; whether the review restarts is the county's rule
(permits.yaml `amendment`, cited)."""
from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from powts.audit.services import audit_create, snapshot
from powts.calendars import inspection_rules_for
from powts.permits import choices as c
from powts.permits import rules
from powts.permits.models import Permit, PermitChange
from powts.permits.services._common import _actor, _event, _lock, _save, checked, refuse

# What a plumber or staff may change in a filed application (flows, building use, the plans' flags ...).
# The parcel, owner and plumber change through their own steps (transfer, change of plumber, parcel merge).
AMENDABLE = ("work", "building_use", "lot_dimensions", "driving_directions", "reference_points",
             "estimated_daily_flow_gpd", "design_flow_gpd", "bedrooms", "system_type", "has_pumps", "plans_signed",
             "state_plan_required", "plan_stamped_by_designer", "existing_system_on_lot", "recording_required")
MAX_REASON = 500


def _shown(permit: Permit, name: str, value) -> str:
    """A value as people read it: labels for choices, yes/no for flags, "(blank)" for nothing."""
    if value is None or value == "":
        return "(blank)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    field = Permit._meta.get_field(name)
    if field.choices:
        return str(dict(field.flatchoices).get(value, value))
    return str(value)


LABELS = {"estimated_daily_flow_gpd": "estimated daily flow (gallons a day)",
          "design_flow_gpd": "design flow (gallons a day)", "has_pumps": "has pumps or siphons",
          "state_plan_required": "state plan approval required", "plans_signed": "plans signed"}


def _label(name: str) -> str:
    return LABELS.get(name) or str(Permit._meta.get_field(name).verbose_name)


def amendment_rule(slug: str) -> dict:
    return rules.permit_rules(slug)["amendment"]


@transaction.atomic
def permit_amend(*, permit: Permit, data: dict, on: dt.date | None = None, reason: str = "") -> PermitChange:
    """Change fields of a filed application under review; refused after the decision (approval, denial ...)."""
    permit = _lock(permit)
    rule = amendment_rule(permit.slug)
    on = on or timezone.localdate()
    if permit.status not in (c.PermitStatus.APPLIED, c.PermitStatus.HELD):
        refuse(f"permit {permit.number} is {permit.get_status_display().lower()}; an application is amended before "
               "the county decides on it (after that: a plan revision, a transfer or a change of plumber)",
               rule["citation"])
    if on < permit.filed_on:
        refuse(f"the amendment date {on.isoformat()} is before the application was filed "
               f"({permit.filed_on.isoformat()})", field="on")
    if len(reason or "") > MAX_REASON:
        refuse(f"reason: at most {MAX_REASON} characters", field="reason")
    for name in data:
        if name not in AMENDABLE:
            refuse(f"{name} cannot be amended here", field=name)
    if data.get("system_type"):
        known = inspection_rules_for(permit.slug).system_types
        if data["system_type"] not in known:
            refuse(f"system_type {data['system_type']!r} is not one of {', '.join(known)}", field="system_type")
    changed = [(name, getattr(permit, name), value) for name, value in data.items() if getattr(permit, name) != value]
    if not changed:
        refuse("nothing to amend: every value given is already the application's", field="data")
    before = snapshot(permit, [name for name, _, _ in changed] + ["status"])
    for name, _, value in changed:
        setattr(permit, name, value)
    restarts = bool(rule.get("restarts_review")) and permit.status == c.PermitStatus.HELD
    if restarts:
        permit.status = c.PermitStatus.APPLIED
    lines = [{"field": name, "label": _label(name), "old": _shown(permit, name, old), "new": _shown(permit, name, new)}
             for name, old, new in changed]
    _save(permit, before, "application amended")
    change = PermitChange(permit=permit, kind=c.ChangeKind.AMENDMENT, status=c.ChangeStatus.RECORDED, received_on=on,
                          changed_fields=lines, by=_actor(), at=timezone.now(), explanation=(reason or "").strip(),
                          citation=rule["citation"])
    checked(change)
    change.save()
    words = "; ".join(f"{x['label']}: {x['old']} → {x['new']}" for x in lines)
    audit_create(change, action=f"application {permit.number} amended: {words}")
    summary = f"Application amended: {words}"
    if restarts:
        summary += "; the corrected application is back under review"
    _event(permit, step="amended", on=on, summary=summary, citation=rule["citation"])
    return change


def _plan_words(plan: dict, result: dict | None = None) -> str:
    n = len((plan or {}).get("features") or [])
    text = f"{n} feature{'s' if n != 1 else ''}"
    if result is not None:
        count = result.get("violation_count", len(result.get("violations") or []))
        text += ", complies with the setbacks" if result.get("complies") else f", {count} setback violation(s)"
    return text


def record_plan_amendment(*, permit: Permit, old: dict, new: dict, on: dt.date) -> PermitChange:
    """A filed application's plot plan replaced: recorded like any amendment (called by permit_set_plot_plan)."""
    rule = amendment_rule(permit.slug)
    line = {"field": "plot_plan", "label": "plot plan", "old": _plan_words(old),
            "new": _plan_words(new, permit.setback_result)}
    change = PermitChange(permit=permit, kind=c.ChangeKind.AMENDMENT, status=c.ChangeStatus.RECORDED, received_on=on,
                          changed_fields=[line], by=_actor(), at=timezone.now(), citation=rule["citation"])
    checked(change)
    change.save()
    audit_create(change, action=f"application {permit.number} amended: plot plan {line['old']} → {line['new']}")
    return change
