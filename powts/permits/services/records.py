"""Records around a permit after review: servicing contract changes, the connection of the structure,
a transfer that was never filed, appeals of a decision to the county's appeal body."""
from __future__ import annotations

import datetime as dt

from django.db import transaction

from powts.audit.services import audit_create, audit_update, snapshot
from powts.permits import choices as c
from powts.permits import rules
from powts.permits.models import Appeal, Notice, Permit, PermitDocument
from powts.permits.services._common import _event, _lock, _save, checked, refuse

# -- servicing contracts of holding tanks -------------------------------------------------------------

@transaction.atomic
def servicing_contract_change_file(*, permit: Permit, changed_on: dt.date, received_on: dt.date,
                                   title: str = "") -> PermitDocument:
    """The owner files a change to the holding tank's servicing contract (or a new one). A filing after the
    county's period (working days) is kept and marked late for staff to act on, never refused."""
    permit = _lock(permit)
    if not permit.holding_tank:
        refuse(f"permit {permit.number} is not for a holding tank; servicing contract changes are filed for holding tanks",
               field="changed_on")
    if permit.status not in (c.PermitStatus.APPROVED, c.PermitStatus.ISSUED, c.PermitStatus.SUSPENDED,
                             c.PermitStatus.COMPLETED):
        refuse(f"permit {permit.number} is {permit.get_status_display().lower()}; a contract change is filed for an "
               "approved, issued or completed holding tank permit", field="changed_on")
    if changed_on > received_on:
        refuse(f"changed_on {changed_on.isoformat()} is after the filing was received ({received_on.isoformat()})",
               field="changed_on")
    due_on, rule = rules.contract_change_due(permit.slug, changed_on)
    if not rule:
        refuse(f"the {permit.jurisdiction.name} profile has no rule on servicing contract changes", field="changed_on")
    late_days = (received_on - due_on).days if due_on and received_on > due_on else 0
    doc = PermitDocument(permit=permit, kind="servicing_contract_change", title=(title or "").strip()[:200],
                         received_on=received_on, changed_on=changed_on, due_on=due_on, late_days=late_days)
    checked(doc)
    doc.save()
    late = (f"; filed {late_days} day(s) late: due within {rule['business_days']} business days of the change, by "
            f"{due_on.isoformat()}" if late_days else "")
    audit_create(doc, action=f"servicing contract change for {permit.number} filed{late}")
    _event(permit, step="contract_change", on=received_on, citation=rule["citation"],
           summary=f"Servicing contract changed on {changed_on.isoformat()}, copy filed {received_on.isoformat()}{late}")
    return doc


# -- connecting the structure ------------------------------------------------------------------------

@transaction.atomic
def permit_record_connection(*, permit: Permit, connected_on: dt.date) -> Permit:
    """The structure is connected to the installed and approved system. Where the county limits the time
    between installation and connection, a later connection is refused: it needs a new permit."""
    permit = _lock(permit)
    if permit.status != c.PermitStatus.COMPLETED or not permit.completed_on:
        refuse(f"permit {permit.number} is {permit.get_status_display().lower()}; a connection is recorded for a "
               "system installed and approved", field="connected_on")
    if connected_on < permit.completed_on:
        refuse(f"connected_on {connected_on.isoformat()} is before the final approval {permit.completed_on.isoformat()}",
               field="connected_on")
    verdict = rules.check_delayed_connection(permit.slug, installed_on=permit.completed_on, connected_on=connected_on)
    if not verdict.ok:
        refuse(verdict.message, verdict.citation, "connected_on")
    before = snapshot(permit, ["connected_on"])
    permit.connected_on = connected_on
    _save(permit, before, f"structure connected on {connected_on.isoformat()}")
    _event(permit, step="connected", on=connected_on, citation=verdict.citation,
           summary=f"Structure connected to the system: {verdict.message}")
    return permit


# -- a change of ownership without the transfer form ---------------------------------------------------

@transaction.atomic
def permit_void_for_missing_transfer(*, permit: Permit, on: dt.date, new_owner_name: str) -> Permit:
    """The property changed hands and no transfer form was submitted: where the county's text says so, the
    permit is invalid (status void, with the reason on its timeline)."""
    permit = _lock(permit)
    rule = rules.permit_rules(permit.slug)["transfer"]
    name = (new_owner_name or "").strip()
    if not rule.get("missing_form_invalidates"):
        refuse(f"the {permit.jurisdiction.name} ordinance does not make a permit invalid for a missing transfer form",
               rule["citation"], "status")
    if not name or len(name) > 200:
        refuse("new_owner_name is required: who the property passed to (at most 200 characters)", field="new_owner_name")
    if permit.status not in (c.PermitStatus.APPROVED, c.PermitStatus.ISSUED, c.PermitStatus.SUSPENDED):
        refuse(f"permit {permit.number} is {permit.get_status_display().lower()}; only an approved or issued permit "
               "not yet installed can be invalidated", rule["citation"])
    if permit.documents.filter(kind=rule["form_document"]).exists():
        refuse("a transfer form is on file: decide the transfer instead", rule["form_citation"], "status")
    before = snapshot(permit, ["status"])
    permit.status = c.PermitStatus.VOID
    _save(permit, before, f"permit void: property passed to {name} without a transfer form")
    _event(permit, step="void", on=on, citation=rule["form_citation"],
           summary=f"Void: the property passed to {name} and no permit transfer form was submitted; a new permit is "
                   "needed before installation")
    return permit


# -- appeals ------------------------------------------------------------------------------------------

def _body(permit: Permit) -> dict:
    body = (rules.section(permit.slug, "appeals") or {}).get("body")
    if not body:
        refuse(f"the {permit.jurisdiction.name} ordinance on record names no appeal body for permit decisions",
               field="decision")
    return body


@transaction.atomic
def appeal_file(*, permit: Permit, filed_on: dt.date, appellant: str, decision: str = "",
                notice: Notice | None = None) -> Appeal:
    """An appeal of a decision on the permit (a notice, or a decision described in words) to the appeal body."""
    body = _body(permit)
    appellant, decision = (appellant or "").strip(), (decision or "").strip()
    if not appellant:
        refuse("appellant is required: who appeals", body["citation"], "appellant")
    if notice is not None:
        if notice.permit_id != permit.pk:
            refuse("the notice appealed is not one of this permit's", field="notice")
        if filed_on < notice.issued_on:
            refuse(f"filed_on {filed_on.isoformat()} is before the decision appealed ({notice.issued_on.isoformat()})",
                   field="filed_on")
        decision = decision or f"{notice.get_kind_display()} of {notice.issued_on.isoformat()}"
    if not decision:
        refuse("decision is required: the decision appealed", body["citation"], "decision")
    appeal = Appeal(permit=permit, notice=notice, decision=decision[:300], appellant=appellant[:200], filed_on=filed_on,
                    body=body["value"], citation=body["citation"])
    checked(appeal)
    appeal.save()
    audit_create(appeal, action=f"appeal of {permit.number} filed with the {body['value']}")
    _event(permit, step="appeal_filed", on=filed_on, citation=body["citation"],
           summary=f"Appeal filed by {appellant} with the {body['value']}: {decision}")
    return appeal


@transaction.atomic
def appeal_schedule(*, appeal: Appeal, hearing_on: dt.date) -> Appeal:
    appeal = Appeal.objects.select_for_update().get(pk=appeal.pk)
    if appeal.outcome:
        refuse("this appeal is already decided", appeal.citation, "hearing_on")
    if hearing_on < appeal.filed_on:
        refuse(f"hearing_on {hearing_on.isoformat()} is before the appeal was filed ({appeal.filed_on.isoformat()})",
               field="hearing_on")
    before = snapshot(appeal, ["hearing_on"])
    appeal.hearing_on = hearing_on
    appeal.save(update_fields=["hearing_on"])
    audit_update(appeal, before=before, action=f"appeal hearing set for {hearing_on.isoformat()}")
    _event(appeal.permit, step="appeal_hearing", on=hearing_on, citation=appeal.citation,
           summary=f"Appeal hearing before the {appeal.body} on {hearing_on.isoformat()}")
    return appeal


@transaction.atomic
def appeal_decide(*, appeal: Appeal, outcome: str, decided_on: dt.date, note: str = "") -> Appeal:
    appeal = Appeal.objects.select_for_update().get(pk=appeal.pk)
    if appeal.outcome:
        refuse("this appeal is already decided", appeal.citation, "outcome")
    if outcome not in c.AppealOutcome.values or not outcome:
        refuse(f"outcome must be one of {', '.join(v for v in c.AppealOutcome.values if v)}", field="outcome")
    if outcome != c.AppealOutcome.WITHDRAWN and appeal.hearing_on is None:
        refuse("an appeal is decided after its hearing: set the hearing date first", appeal.citation, "outcome")
    if decided_on < (appeal.hearing_on or appeal.filed_on):
        refuse(f"decided_on {decided_on.isoformat()} is before the hearing or filing", field="decided_on")
    before = snapshot(appeal, ["outcome", "decided_on", "outcome_note"])
    appeal.outcome, appeal.decided_on, appeal.outcome_note = outcome, decided_on, (note or "").strip()
    appeal.save(update_fields=["outcome", "decided_on", "outcome_note"])
    label = c.AppealOutcome(outcome).label
    audit_update(appeal, before=before, action=f"appeal decided: {label.lower()}")
    _event(appeal.permit, step="appeal_decided", on=decided_on, citation=appeal.citation,
           summary=f"Appeal decided by the {appeal.body}: {label}" + (f" ({appeal.outcome_note})" if appeal.outcome_note else ""))
    return appeal
