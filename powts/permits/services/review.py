"""Review: hold for correction, resubmit, approve, deny (with refunds), issue, plan revisions."""
from __future__ import annotations

import datetime as dt

from django.db import transaction

from powts.accounts.conflicts import permit_parties, refuse_if_conflicted
from powts.audit.services import audit_create, audit_update, snapshot
from powts.calendars import calendar_for
from powts.core import news
from powts.permits import choices as c
from powts.permits import rules
from powts.permits.models import Invoice, Notice, Payment, Permit, PermitDocument
from powts.permits.selectors import missing_items, setback_violation_count, stages_for, unpaid_invoices
from powts.permits.services import conditions
from powts.permits.services._common import ZERO, _actor, _event, _lock, _move, _not_expired, _save, refuse
from powts.permits.services.fees import invoice_raise

# -- review --------------------------------------------------------------------------------

@transaction.atomic
def permit_hold(*, permit: Permit, on: dt.date, reasons: list[str] | None = None, respond_by: dt.date | None = None) -> Notice:
    """Return the application for correction, listing what is missing (the county assists the applicant)."""
    permit = _lock(permit)
    refuse_if_conflicted(parties=permit_parties(permit), what=f"hold permit {permit.number}")
    before = snapshot(permit, ["status"])
    _move(permit, to=c.PermitStatus.HELD, allowed_from={c.PermitStatus.APPLIED}, verb="held for correction")
    items = [f"{m['label']} [{m['citation']}]" for m in missing_items(permit)] + list(reasons or [])
    if not items:
        refuse("nothing to correct: the application is complete and no reason was given", field="reasons")
    _save(permit, before, "application held for correction")
    notice = Notice.objects.create(permit=permit, kind=c.NoticeKind.HOLD, issued_on=on, recipients=["applicant", "owner"],
                                   reasons=items, respond_by=respond_by,
                                   citation=rules.step_citation(permit.slug, "hold"))
    audit_create(notice, action=f"request for correction of {permit.number}")
    _event(permit, step="held", on=on, citation=notice.citation, summary="Held for correction: " + "; ".join(items))
    return notice


@transaction.atomic
def permit_resubmit(*, permit: Permit, on: dt.date) -> Permit:
    permit = _lock(permit)
    before = snapshot(permit, ["status"])
    _move(permit, to=c.PermitStatus.APPLIED, allowed_from={c.PermitStatus.HELD}, verb="resubmitted")
    _save(permit, before, "corrected application resubmitted")
    _event(permit, step="resubmitted", on=on, summary="Corrected application resubmitted")
    return permit


@transaction.atomic
def permit_approve(*, permit: Permit, on: dt.date) -> Permit:
    """Approve a complete application. Issuance follows once every fee is paid."""
    permit = _lock(permit)
    refuse_if_conflicted(parties=permit_parties(permit), what=f"approve permit {permit.number}")
    before = snapshot(permit, ["status", "decided_on"])
    _move(permit, to=c.PermitStatus.APPROVED, allowed_from={c.PermitStatus.APPLIED}, verb="approved")
    if on < permit.filed_on:
        refuse(f"approval date {on.isoformat()} is before the filing date {permit.filed_on.isoformat()}", field="on")
    if permit.parcel.pending:  # new construction: no system reaches the inventory on a parcel nobody checked
        refuse(f"parcel {permit.parcel.parcel_number} was entered as new by the applicant; confirm it (or merge it into "
               "the parcel on record) before approving", rules.step_citation(permit.slug, "approval"), "parcel")
    missing = missing_items(permit)
    if missing:
        refuse("the application is incomplete: " + "; ".join(f"{m['label']} [{m['citation']}]" for m in missing))
    conditions.before_approval(permit)
    soil = permit.soil_evaluation
    # a holding tank's soil verification is read by conditions.before_approval: there a denial of suitable soil
    # is what allows the tank
    holding_tank_rule = permit.holding_tank and rules.holding_tank(permit.slug).get("soil_verification")
    if soil is not None and soil.verification in (c.SoilVerification.HOLD, c.SoilVerification.DENY) and not (
            holding_tank_rule and soil.verification == c.SoilVerification.DENY):
        outcomes = (rules.permit_rules(permit.slug).get("soil") or {}).get("verification_outcomes") or {}
        refuse(f"the soil and site evaluation is {soil.get_verification_display().lower()}", outcomes.get("citation", ""))
    if permit.setback_result and not permit.setback_result.get("complies"):
        v = permit.setback_result["violations"][0]
        refuse(f"the plot plan breaks {setback_violation_count(permit.setback_result)} setback(s), e.g. {v['feature']} is "
               f"{v['measured_ft']} ft from {v['other']}, {v['required_ft']} ft required", v["citation"])
    permit.decided_on = on
    _save(permit, before, "application approved")
    _charge_additional_inspections(permit, on)
    _event(permit, step="approved", on=on, summary="Application approved; the permit issues when every fee is paid",
           citation=rules.step_citation(permit.slug, "approval"))
    return permit


def _charge_additional_inspections(permit: Permit, on: dt.date) -> None:
    """A fee for each required inspection beyond those the application covers, where the county's schedule
    has one (the profile's included_inspections says how many are covered)."""
    if "additional_inspection" not in rules.fee_codes(permit.slug, on):
        return
    try:
        included, _ = rules.included_inspections(permit.slug)
    except rules.RuleError as exc:
        refuse(str(exc), field="status")
    required = [s for s in stages_for(permit) if not s.optional]
    for stage in required[included:]:
        invoice_raise(jurisdiction=permit.jurisdiction, fee_code="additional_inspection", on=on, permit=permit,
                      payer=permit.owner.name, note=f"inspection {stage.id}")


@transaction.atomic
def permit_deny(*, permit: Permit, on: dt.date, reasons: list[str], amendments: list[str] | None = None,
                minor_technical: bool = False, failure_to_correct: bool = False) -> Notice:
    """Deny in writing: the specific reasons, the amendments that would make it approvable, the right to appeal."""
    permit = _lock(permit)
    refuse_if_conflicted(parties=permit_parties(permit), what=f"deny permit {permit.number}")
    r = rules.permit_rules(permit.slug)["denial"]
    before = snapshot(permit, ["status", "decided_on"])
    _move(permit, to=c.PermitStatus.DENIED, allowed_from={c.PermitStatus.APPLIED, c.PermitStatus.HELD}, verb="denied",
          citation=r["citation"])
    reasons = [x.strip() for x in reasons or [] if x and x.strip()]
    amendments = [x.strip() for x in amendments or [] if x and x.strip()]
    if r.get("reasons_required") and not reasons:
        refuse("a denial must state the specific reasons", r["citation"], "reasons")
    if r.get("amendments_required") and not amendments:
        refuse("a denial must state the amendments that would make the application approvable "
               "(write 'none' if no amendment would)", r["citation"], "amendments")
    appeal = "" if (minor_technical and r.get("appeal_notice_unless_minor")) else r["appeal_notice"]
    permit.decided_on = on
    _save(permit, before, "application denied")
    notice = Notice.objects.create(permit=permit, kind=c.NoticeKind.DENIAL, issued_on=on, recipients=r.get("notify", []),
                                   reasons=reasons, amendments=amendments, appeal_rights=appeal, citation=r["citation"])
    audit_create(notice, action=f"notice of denial of {permit.number}")
    _event(permit, step="denied", on=on, citation=r["citation"], summary="Denied: " + "; ".join(reasons))
    for invoice in permit.invoices.exclude(status=c.InvoiceStatus.VOID):
        _settle_on_denial(permit, invoice, on, failure_to_correct)
    return notice


def _settle_on_denial(permit: Permit, invoice: Invoice, on: dt.date, failure_to_correct: bool) -> None:
    retention = rules.retained_on_disapproval(permit.slug, invoice.paid) if failure_to_correct else None
    before = snapshot(invoice, ["status", "retained"])
    if invoice.fee_code == "application" and retention is not None and invoice.paid > ZERO:
        kept, citation = retention
        refund = invoice.paid - kept
        invoice.retained = kept
        invoice.status = c.InvoiceStatus.PAID
        invoice.save(update_fields=["status", "retained"])
        if refund > ZERO:
            p = Payment.objects.create(invoice=invoice, amount=-refund, received_on=on, method=c.PaymentMethod.REFUND,
                                       reference="refund on disapproval", recorded_by=_actor())
            audit_create(p, action=f"refund of ${refund}; ${kept} retained [{citation}]")
        audit_update(invoice, before=before, action=f"half of the application fee retained [{citation}]")
        _event(permit, step="refund", on=on, citation=citation,
               summary=f"Disapproved for failure to correct: ${kept} of the application fee retained, ${refund} refunded")
    elif invoice.balance > ZERO and invoice.paid == ZERO:
        invoice.status = c.InvoiceStatus.VOID
        invoice.save(update_fields=["status"])
        audit_update(invoice, before=before, action="unpaid fee voided on denial")


@transaction.atomic
def permit_issue(*, permit: Permit, on: dt.date) -> Permit:
    """Issue an approved permit once its fees are paid; it expires two years later unless installed and approved."""
    permit = _lock(permit)
    refuse_if_conflicted(parties=permit_parties(permit), what=f"issue permit {permit.number}")
    before = snapshot(permit, ["status", "issued_on", "expires_on", "code_basis_on"])
    _move(permit, to=c.PermitStatus.ISSUED, allowed_from={c.PermitStatus.APPROVED}, verb="issued")
    news.publish("permit.issuing", permit=permit, on=on)  # a subscriber may refuse (the department's hold)
    if permit.decided_on and on < permit.decided_on:
        refuse(f"issue date {on.isoformat()} is before the approval {permit.decided_on.isoformat()}", field="on")
    unpaid = unpaid_invoices(permit)
    if unpaid:
        refuse("fees are unpaid: " + "; ".join(f"{i.description} ${i.balance}" for i in unpaid) +
               "; a permit is not issued with fees unpaid", unpaid[0].authority)
    conditions.before_issue(permit, on)
    permit.issued_on = on
    permit.expires_on, citation = conditions.annual_expiry(permit, on) or rules.expiry_date(permit.slug, on)
    permit.code_basis_on = on
    _save(permit, before, "sanitary permit issued")
    _event(permit, step="issued", on=on, citation=citation,
           summary=f"Permit issued; expires {permit.expires_on.isoformat()} unless the system is installed and approved")
    if permit.system_id and permit.system.permit_number != permit.number:
        from powts.inventory.services import system_update

        system_update(system=permit.system, data={"permit_number": permit.number}, action=f"permit {permit.number} issued")
    return permit


@transaction.atomic
def permit_plan_revision(*, permit: Permit, on: dt.date, title: str = "", approved_elsewhere_on: dt.date | None = None) -> PermitDocument:
    """A revised plan for an approved or issued permit: filed, charged, approved before installation.

    Where the county sets a copy period (permits.yaml `plan_revision_copy`), a revision approved by DSPS or
    the designated agent reaches the county within it; every change is approved before it is installed.
    """
    permit = _lock(permit)
    cite = rules.step_citation(permit.slug, "plan_revision")
    if permit.status not in (c.PermitStatus.APPROVED, c.PermitStatus.ISSUED):
        refuse(f"permit {permit.number} is {permit.get_status_display().lower()}; plan revisions are for an approved or "
               "issued permit", cite)
    _not_expired(permit, on, "a plan revision")
    # The county's copy period (working days after the approval) is a filing duty: a late copy is
    # received and marked late for staff to act on, never refused (the revision still needs approval).
    due_on, late_days, late_note = None, 0, ""
    duty = rules.permit_rules(permit.slug).get("plan_revision_copy") or {}
    if approved_elsewhere_on is not None and duty.get("working_days") is not None:
        if approved_elsewhere_on > on:
            refuse(f"approved_elsewhere_on {approved_elsewhere_on.isoformat()} is after the copy was received "
                   f"({on.isoformat()})", field="approved_elsewhere_on")
        cal = calendar_for(permit.slug)
        due_on = cal.add_working_days(approved_elsewhere_on, int(duty["working_days"]))
        if on > due_on:
            late_days = (on - due_on).days  # calendar days after the due date
            late_note = (f"; received late: due within {duty['working_days']} working days of the approval of "
                         f"{approved_elsewhere_on.isoformat()}, by {due_on.isoformat()} [{duty['citation']}]")
    doc = PermitDocument.objects.create(permit=permit, kind="revised_plans", title=title, received_on=on,
                                        due_on=due_on, late_days=late_days)
    audit_create(doc, action=f"revised plans for {permit.number}{late_note}")
    _event(permit, step="plan_revision", on=on, citation=cite,
           summary=f"Revised plans received{': ' + title if title else ''}; to be approved before installation{late_note}")
    invoice_raise(jurisdiction=permit.jurisdiction, fee_code="plan_revision", on=on, permit=permit, payer=permit.owner.name)
    return doc
