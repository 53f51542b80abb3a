"""Suspension, reinstatement and revocation of a permit, each with its written notice."""
from __future__ import annotations

import datetime as dt

from django.db import transaction

from powts.audit.services import audit_create, snapshot
from powts.permits import choices as c
from powts.permits import rules
from powts.permits.models import Notice, Permit
from powts.permits.services._common import _event, _lock, _move, _save, refuse

# -- suspension and revocation -------------------------------------------------------------

def _revocation_rule(permit: Permit) -> dict:
    rule = rules.permit_rules(permit.slug).get("revocation")
    if not rule:
        refuse(f"the {permit.jurisdiction.name} profile has no suspension or revocation rule (its ordinance text is "
               "silent); use a stop-work or enforcement order instead")
    return rule


def _written_notice(permit: Permit, kind: str, on: dt.date, reasons: list[str], rule: dict) -> Notice:
    reasons = [x.strip() for x in reasons or [] if x and x.strip()]
    if not reasons:
        refuse("the owner must be notified in writing of the reasons", rule["citation"], "reasons")
    notice = Notice.objects.create(permit=permit, kind=kind, issued_on=on, recipients=rule.get("notify", ["owner"]),
                                   reasons=reasons, citation=rule["citation"])
    audit_create(notice, action=f"{notice.get_kind_display().lower()} for {permit.number}")
    return notice


@transaction.atomic
def permit_suspend(*, permit: Permit, on: dt.date, reasons: list[str]) -> Notice:
    """Suspend for a false statement or inaccuracy on the application; no work while suspended."""
    permit = _lock(permit)
    rule = _revocation_rule(permit)
    before = snapshot(permit, ["status"])
    _move(permit, to=c.PermitStatus.SUSPENDED, allowed_from={c.PermitStatus.ISSUED}, verb="suspended", citation=rule["citation"])
    _save(permit, before, "permit suspended")
    notice = _written_notice(permit, c.NoticeKind.SUSPENSION, on, reasons, rule)
    _event(permit, step="suspended", on=on, citation=rule["citation"], summary="Suspended: " + "; ".join(notice.reasons))
    return notice


@transaction.atomic
def permit_reinstate(*, permit: Permit, on: dt.date, note: str = "") -> Permit:
    permit = _lock(permit)
    rule = _revocation_rule(permit)
    before = snapshot(permit, ["status"])
    _move(permit, to=c.PermitStatus.ISSUED, allowed_from={c.PermitStatus.SUSPENDED}, verb="reinstated", citation=rule["citation"])
    _save(permit, before, "suspension lifted")
    _event(permit, step="reinstated", on=on, citation=rule["citation"], summary="Suspension lifted" + (f": {note}" if note else ""))
    return permit


@transaction.atomic
def permit_revoke(*, permit: Permit, on: dt.date, reasons: list[str]) -> Notice:
    permit = _lock(permit)
    rule = _revocation_rule(permit)
    before = snapshot(permit, ["status"])
    _move(permit, to=c.PermitStatus.REVOKED, allowed_from={c.PermitStatus.APPROVED, c.PermitStatus.ISSUED, c.PermitStatus.SUSPENDED},
          verb="revoked", citation=rule["citation"])
    _save(permit, before, "permit revoked")
    notice = _written_notice(permit, c.NoticeKind.REVOCATION, on, reasons, rule)
    _event(permit, step="revoked", on=on, citation=rule["citation"],
           summary="Revoked: " + "; ".join(notice.reasons) + "; a new permit must be obtained before any work resumes")
    return notice
