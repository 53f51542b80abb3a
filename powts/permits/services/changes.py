"""Changes to a permit: renewal, transfer, change of plumber; the expiry sweep."""
from __future__ import annotations

import datetime as dt

from django.db import transaction

from powts.audit.services import audit_create, audit_update, snapshot
from powts.permits import choices as c
from powts.permits import rules
from powts.permits.models import Permit, PermitChange
from powts.permits.services._common import ZERO, _event, _lock, _not_expired, _save, checked, refuse
from powts.permits.services.applications import _check_applicant
from powts.permits.services.fees import invoice_raise

# -- expiry and changes -------------------------------------------------------------------

def _pending_timely_renewal(permit: Permit) -> bool:
    return permit.changes.filter(kind=c.ChangeKind.RENEWAL, status=c.ChangeStatus.REQUESTED).exists()


@transaction.atomic
def permits_expire(*, today: dt.date, jurisdiction=None) -> list[Permit]:
    """The expiry sweep: issued permits past their expiry date, not installed and approved, expire.

    A renewal received on time but not yet granted holds the permit open until it is decided.
    """
    qs = Permit.objects.select_for_update().filter(status__in=[c.PermitStatus.ISSUED, c.PermitStatus.SUSPENDED],
                                                   expires_on__lt=today)
    if jurisdiction is not None:
        qs = qs.filter(jurisdiction=jurisdiction)
    expired = []
    for permit in qs.select_related("jurisdiction"):
        if _pending_timely_renewal(permit):
            continue
        before = snapshot(permit, ["status"])
        permit.status = c.PermitStatus.EXPIRED
        _save(permit, before, "permit expired")
        citation = rules.permit_rules(permit.slug)["expiry"]["citation"]
        _event(permit, step="expired", on=permit.expires_on + dt.timedelta(days=1), citation=citation,
               summary=f"Expired: not installed and approved by {permit.expires_on.isoformat()}; a new permit is needed before work")
        expired.append(permit)
    return expired


@transaction.atomic
def permit_request_change(*, permit: Permit, kind: str, received_on: dt.date, new_owner=None, new_plumber=None,
                          new_state_approval: bool = False, new_owner_name: str = "",
                          new_owner_mailing_address: str = "") -> PermitChange:
    """Apply for a renewal, a transfer to a new owner or a change of plumber; the fee is charged.

    A transfer names its new owner as `new_owner`, or by `new_owner_name` (and address): that owner is put on
    record here, audited, in this transaction, so a refused transfer leaves no owner behind."""
    permit = _lock(permit)
    slug = permit.slug
    r = rules.permit_rules(slug)
    key = {"renewal": "renewal", "transfer": "transfer", "plumber_change": "plumber_change"}.get(kind)
    if key is None:
        refuse(f"kind {kind!r} is not one of renewal, transfer, plumber_change", field="kind")
    rule = r[key]
    cite = rule["citation"]
    explanation = ""
    if received_on < permit.filed_on:
        refuse(f"received_on {received_on.isoformat()} is before the application was filed ({permit.filed_on.isoformat()})",
               field="received_on")
    if kind == c.ChangeKind.RENEWAL:
        if permit.status not in (c.PermitStatus.ISSUED, c.PermitStatus.SUSPENDED):
            refuse(f"only an issued permit not yet installed and approved can be renewed; permit {permit.number} is "
                   f"{permit.get_status_display().lower()}", cite)
        if permit.changes.filter(kind=kind, status=c.ChangeStatus.REQUESTED).exists():
            refuse("a renewal application is already pending", cite)
        verdict = rules.check_renewal(slug, expires_on=permit.expires_on, received_on=received_on,
                                      renewals_so_far=permit.renewals)
        if not verdict.ok:
            refuse(verdict.message, verdict.citation, "received_on")
        explanation = verdict.message
    else:
        if permit.status not in (c.PermitStatus.APPROVED, c.PermitStatus.ISSUED):
            refuse(f"permit {permit.number} is {permit.get_status_display().lower()}; a {c.ChangeKind(kind).label.lower()} "
                   "needs an approved or issued permit", cite)
        _not_expired(permit, received_on, c.ChangeKind(kind).label.lower())
        if rule.get("before_installation") and permit.installation_started:
            refuse(f"a {c.ChangeKind(kind).label.lower()} must be approved before the installation; inspections of "
                   f"permit {permit.number} have begun", cite)
        if kind == c.ChangeKind.TRANSFER:
            if new_owner is None and (new_owner_name or "").strip():
                from powts.inventory.services import owner_get_or_create

                new_owner = owner_get_or_create(jurisdiction=permit.jurisdiction, name=new_owner_name.strip(),
                                                mailing_address=(new_owner_mailing_address or "").strip(),
                                                action=f"owner named in a transfer of permit {permit.number}")
            if new_owner is None or new_owner.pk == permit.owner_id:
                refuse("a transfer needs the new owner", cite, "new_owner")
            explanation = f"to {new_owner.name}; the expiration date {permit.expires_on or '(set at issuance)'} is unchanged"
        else:
            if new_plumber is None or new_plumber.pk == permit.plumber_id:
                refuse("a change of plumber needs the new plumber", cite, "new_plumber")
            _check_applicant(permit.jurisdiction, new_plumber, received_on)
            if (rule.get("state_plan_needs_stamp_or_new_approval") and permit.state_plan_required
                    and not permit.plan_stamped_by_designer and not new_state_approval):
                refuse("this system needs state plan approval: the permit may pass to another plumber only if the plan "
                       "bears an architect's, engineer's or plumbing designer's stamp, or the new plumber obtains a "
                       "state approval", cite, "new_state_approval")
            explanation = f"from {permit.plumber} to {new_plumber}"
    change = PermitChange(permit=permit, kind=kind, received_on=received_on, new_owner=new_owner, new_plumber=new_plumber,
                          new_state_approval=new_state_approval, explanation=explanation, citation=cite)
    checked(change)
    change.save()
    change.invoice = invoice_raise(jurisdiction=permit.jurisdiction, fee_code=kind, on=received_on, permit=permit,
                                   payer=(new_owner or permit.owner).name)
    change.save(update_fields=["invoice"])
    audit_create(change, action=f"{c.ChangeKind(kind).label.lower()} of {permit.number} requested")
    _event(permit, step=f"{kind}_requested", on=received_on, citation=cite,
           summary=f"{c.ChangeKind(kind).label} applied for: {explanation}")
    return change


@transaction.atomic
def permit_grant_change(*, change: PermitChange, on: dt.date, require_onsite_inspection: bool = False) -> Permit:
    change = PermitChange.objects.select_for_update().get(pk=change.pk)
    permit = _lock(change.permit)
    if change.status != c.ChangeStatus.REQUESTED:
        refuse(f"this {change.get_kind_display().lower()} was already {change.get_status_display().lower()}")
    if on < change.received_on:
        refuse(f"decision date {on.isoformat()} is before the application was received ({change.received_on.isoformat()})",
               field="on")
    if change.invoice_id and change.invoice.balance > ZERO:
        refuse(f"the {change.get_kind_display().lower()} fee ${change.invoice.balance} is unpaid; it is granted upon "
               "payment of the fee", change.invoice.authority)
    if change.kind != c.ChangeKind.RENEWAL:
        rule = rules.permit_rules(permit.slug)[change.kind]
        form = rule.get("form_document")
        if form and not permit.documents.filter(kind=form).exists():
            refuse(f"the {c.DOCUMENT_KINDS[form].lower()} is not on file; the {change.get_kind_display().lower()} is "
                   "granted once it is submitted", rule.get("form_citation") or rule["citation"], "documents")
    before = snapshot(permit, ["status", "expires_on", "renewals", "owner_id", "plumber_id", "code_basis_on"])
    if require_onsite_inspection and change.kind != c.ChangeKind.RENEWAL:
        refuse("a new on-site inspection is a condition of a renewal only", field="require_onsite_inspection")
    if change.kind == c.ChangeKind.RENEWAL:
        old = permit.expires_on
        permit.expires_on, cite = rules.renewed_expiry(permit.slug, old)
        permit.renewals += 1
        permit.code_basis_on = on
        if permit.status == c.PermitStatus.EXPIRED:
            permit.status = c.PermitStatus.ISSUED
        r = rules.permit_rules(permit.slug)["renewal"]
        summary = (f"Renewed: expires {permit.expires_on.isoformat()} (was {old.isoformat()}); the renewal conforms to "
                   f"the code in effect on {on.isoformat()}" + ("; a new permit card is issued" if r.get("new_card") else ""))
        if require_onsite_inspection:
            if not r.get("may_require_onsite_inspection"):
                refuse(f"the {permit.jurisdiction.name} profile gives no right to require a new on-site inspection on renewal",
                       r["citation"], "require_onsite_inspection")
            cite = r.get("onsite_inspection_citation") or r["citation"]
            summary += f"; a new on-site inspection is required, at the applicant's cost [{cite}]"
    elif change.kind == c.ChangeKind.TRANSFER:
        previous = permit.owner.name
        permit.owner = change.new_owner
        summary = f"Transferred from {previous} to {change.new_owner.name}; expiration date unchanged"
    else:
        previous = str(permit.plumber)
        permit.plumber = change.new_plumber
        summary = f"Plumber changed from {previous} to {change.new_plumber}"
    _save(permit, before, summary)
    cbefore = snapshot(change, ["status", "decided_on"])
    change.status, change.decided_on = c.ChangeStatus.GRANTED, on
    change.save(update_fields=["status", "decided_on"])
    audit_update(change, before=cbefore, action="granted")
    _event(permit, step=f"{change.kind}_granted", on=on, citation=change.citation, summary=summary)
    return permit


@transaction.atomic
def permit_refuse_change(*, change: PermitChange, on: dt.date, reason: str) -> PermitChange:
    if not reason.strip():
        refuse("a refusal states its reason", field="reason")
    if change.status != c.ChangeStatus.REQUESTED:
        refuse(f"this {change.get_kind_display().lower()} was already {change.get_status_display().lower()}")
    before = snapshot(change, ["status", "decided_on", "explanation"])
    change.status, change.decided_on = c.ChangeStatus.REFUSED, on
    change.explanation = f"{change.explanation}; refused: {reason}".strip("; ")
    change.save()
    audit_update(change, before=before, action="refused")
    _event(change.permit, step=f"{change.kind}_refused", on=on, citation=change.citation,
           summary=f"{change.get_kind_display()} refused: {reason}")
    return change
