"""Every write to permits, fees and inspections goes through here.

Each service is keyword-only, runs in one transaction, validates against the county profile before
it writes, and writes its audit event (powts.audit) and its timeline entry in that transaction. A
refused move raises django.core.exceptions.ValidationError whose message names the rule and its
citation ("... [Dane County Code s. 46.08(8)]"), keyed by the field at fault; nothing is saved.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from powts.audit.context import current
from powts.audit.services import audit_create, audit_update, snapshot
from powts.calendars import CalendarError, calendar_for, deadline, inspection_rules_for, required_stages, review_request
from powts.permits import choices as c
from powts.permits import rules
from powts.permits.models import (Inspection, Invoice, Notice, Payment, Permit, PermitChange, PermitDocument,
                                  PermitEvent)

ZERO = Decimal("0.00")


def refuse(message: str, citation: str = "", field: str = "status"):
    raise ValidationError({field: f"{message} [{citation}]" if citation else message})


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
    permit.full_clean()
    permit.save()
    audit_update(permit, before=before, action=action)
    return permit


def _not_expired(permit: Permit, on: dt.date, what: str) -> None:
    if permit.expires_on and on > permit.expires_on:
        rule = rules.permit_rules(permit.slug)["expiry"]
        refuse(f"permit {permit.number} expired on {permit.expires_on.isoformat()} (the day after is {on.isoformat()} "
               f"or later); {what} needs a valid permit", rule["citation"])


# -- fees ----------------------------------------------------------------------------------

@transaction.atomic
def invoice_raise(*, jurisdiction, fee_code: str, on: dt.date, permit: Permit | None = None, payer: str = "",
                  due_on: dt.date | None = None, note: str = "") -> Invoice | None:
    """An invoice for `fee_code` at the amount in the schedule in force `on`; None for a zero fee."""
    try:
        fee = rules.fee_for(jurisdiction.profile_slug, fee_code, on)
    except rules.RuleError as exc:
        refuse(str(exc), field="fee_code")
    if fee.amount == ZERO:
        return None
    due_citation = ""
    if due_on is None and fee.due_working_days:
        due_on = calendar_for(jurisdiction.profile_slug).add_working_days(on, fee.due_working_days)
        due_citation = fee.due_citation
    invoice = Invoice(jurisdiction=jurisdiction, permit=permit, fee_code=fee_code,
                      description=fee.label + (f" ({note})" if note else ""), amount=fee.amount,
                      authority=fee.authority, amount_citation=fee.amount_citation, schedule_id=fee.schedule_id,
                      issued_on=on, due_on=due_on, due_citation=due_citation, payer=payer)
    invoice.full_clean()
    invoice.save()
    audit_create(invoice, action=f"fee charged: {fee.label} ${fee.amount} [{fee.authority}]")
    if permit is not None:
        _event(permit, step="fee", on=on, citation=fee.authority,
               summary=f"Fee charged: {invoice.description}, ${fee.amount}" + (f", due {due_on.isoformat()}" if due_on else ""))
    return invoice


def _refresh_invoice(invoice: Invoice) -> None:
    before = snapshot(invoice, ["status"])
    if invoice.status != c.InvoiceStatus.VOID:
        invoice.status = c.InvoiceStatus.PAID if invoice.balance <= ZERO else c.InvoiceStatus.OPEN
    invoice.save(update_fields=["status"])
    audit_update(invoice, before=before, action="invoice status")


@transaction.atomic
def payment_record(*, invoice: Invoice, amount: Decimal, received_on: dt.date, method: str = c.PaymentMethod.CHECK,
                   reference: str = "") -> Payment:
    """Money received. No card processing: the county records what it was paid and how."""
    invoice = Invoice.objects.select_for_update().get(pk=invoice.pk)
    amount = Decimal(str(amount))
    if amount <= ZERO:
        refuse(f"amount {amount} must be more than zero", field="amount")
    if amount != rules.cents(amount):
        refuse(f"amount {amount} has fractions of a cent", field="amount")
    if invoice.status == c.InvoiceStatus.VOID:
        refuse(f"invoice {invoice.pk} is void", field="invoice")
    if amount > invoice.balance:
        refuse(f"amount {amount} is more than the balance due {invoice.balance}", field="amount")
    if received_on < invoice.issued_on:
        refuse(f"received_on {received_on.isoformat()} is before the invoice date {invoice.issued_on.isoformat()}",
               field="received_on")
    if method in (c.PaymentMethod.REFUND, c.PaymentMethod.RETURNED):
        refuse(f"method {method!r} is recorded by the refund and returned-check services", field="method")
    payment = Payment(invoice=invoice, amount=amount, received_on=received_on, method=method, reference=reference,
                      recorded_by=_actor())
    payment.full_clean()
    payment.save()
    audit_create(payment, action=f"payment of ${amount} recorded on invoice {invoice.pk}")
    _refresh_invoice(invoice)
    if invoice.permit_id:
        _event(invoice.permit, step="payment", on=received_on, summary=f"Payment ${amount} ({payment.get_method_display()}"
               f"{' ' + reference if reference else ''}) for {invoice.description}")
    return payment


@transaction.atomic
def payment_returned(*, payment: Payment, on: dt.date) -> Invoice | None:
    """A check that bounced: the payment is reversed and the returned-check fee charged."""
    invoice = payment.invoice
    if payment.method != c.PaymentMethod.CHECK:
        refuse("only a check can be returned", field="payment")
    reversal = Payment.objects.create(invoice=invoice, amount=-payment.amount, received_on=on, method=c.PaymentMethod.RETURNED,
                                      reference=f"returned: {payment.reference}", recorded_by=_actor())
    audit_create(reversal, action=f"check {payment.reference} returned")
    _refresh_invoice(invoice)
    return invoice_raise(jurisdiction=invoice.jurisdiction, fee_code="returned_check", on=on, permit=invoice.permit,
                         payer=invoice.payer, note=f"check {payment.reference}")


def unpaid_invoices(permit: Permit):
    return [i for i in permit.invoices.exclude(status=c.InvoiceStatus.VOID) if i.balance > ZERO]


# -- application ---------------------------------------------------------------------------

APPLICATION_FIELDS = ("kind", "system_type", "work", "building_use", "lot_dimensions", "driving_directions",
                      "reference_points", "estimated_daily_flow_gpd", "design_flow_gpd", "bedrooms", "has_pumps",
                      "plans_signed", "state_plan_required", "plan_stamped_by_designer", "existing_system_on_lot",
                      "recording_required", "system", "soil_evaluation")


def _next_number(jurisdiction, year: int) -> str:
    prefix = f"{year}-"
    taken = Permit.objects.filter(jurisdiction=jurisdiction, number__startswith=prefix).values_list("number", flat=True)
    n = max((int(x[len(prefix):]) for x in taken if x[len(prefix):].isdigit()), default=0) + 1
    return f"{prefix}{n:04d}"


def _check_applicant(jurisdiction, plumber, on: dt.date) -> None:
    r = rules.permit_rules(jurisdiction.profile_slug)
    if plumber is None:
        refuse("an application needs the licensed master plumber who signs it", r["applicant_citation"], "plumber")
    if plumber.kind not in r["applicant_license_kinds"]:
        refuse(f"{plumber} may not sign a sanitary permit application; it must be a "
               f"{' or '.join(k.replace('_', ' ') for k in r['applicant_license_kinds'])}", r["applicant_citation"], "plumber")
    if plumber.expires_on and plumber.expires_on < on:
        refuse(f"license {plumber.number} expired on {plumber.expires_on.isoformat()}", r["applicant_citation"], "plumber")


@transaction.atomic
def permit_file(*, jurisdiction, parcel, owner, plumber, filed_on: dt.date | None = None, filed_by=None,
                plot_plan: dict | None = None, documents: list[dict] | None = None, **fields) -> Permit:
    """A master plumber files an application for the owner; the application fee is charged."""
    filed_on = filed_on or timezone.localdate()
    unknown = set(fields) - set(APPLICATION_FIELDS)
    if unknown:
        refuse(f"unknown application field(s): {', '.join(sorted(unknown))}", field=sorted(unknown)[0])
    if parcel.jurisdiction_id != jurisdiction.pk:
        refuse(f"parcel {parcel.parcel_number} is in another county", field="parcel")
    if owner is None or owner.jurisdiction_id != jurisdiction.pk:
        refuse("the owner must be a property owner on record in this county", field="owner")
    _check_applicant(jurisdiction, plumber, filed_on)
    if fields.get("system_type"):
        known = inspection_rules_for(jurisdiction.profile_slug).system_types
        if fields["system_type"] not in known:
            refuse(f"system_type {fields['system_type']!r} is not one of {', '.join(known)}", field="system_type")
    permit = Permit(jurisdiction=jurisdiction, number=_next_number(jurisdiction, filed_on.year), parcel=parcel,
                    owner=owner, plumber=plumber, filed_by=filed_by, filed_on=filed_on, **fields)
    permit.full_clean()
    permit.save()
    audit_create(permit, action=f"sanitary permit application {permit.number} filed by {plumber.holder_name}")
    r = rules.permit_rules(jurisdiction.profile_slug)
    _event(permit, step="filed", on=filed_on, citation=r["applicant_citation"],
           summary=f"Application filed by {plumber} for {owner.name}")
    for doc in documents or []:
        permit_add_document(permit=permit, **doc)
    if plot_plan is not None:
        permit_set_plot_plan(permit=permit, plot_plan=plot_plan, on=filed_on)
    invoice_raise(jurisdiction=jurisdiction, fee_code="application", on=filed_on, permit=permit, payer=owner.name)
    return permit


@transaction.atomic
def permit_add_document(*, permit: Permit, kind: str, received_on: dt.date | None = None, title: str = "",
                        recorded: bool = False, file=None) -> PermitDocument:
    if permit.status not in (c.PermitStatus.APPLIED, c.PermitStatus.HELD):
        refuse(f"documents are added to an application under review; permit {permit.number} is "
               f"{permit.get_status_display().lower()}", field="kind")
    if kind not in c.DOCUMENT_KINDS:
        refuse(f"document kind {kind!r} is not one of {', '.join(c.DOCUMENT_KINDS)}", field="kind")
    doc = PermitDocument(permit=permit, kind=kind, title=title, received_on=received_on or timezone.localdate(),
                         recorded=recorded)
    if file is not None:
        doc.file = file
    doc.full_clean()
    doc.save()
    label = c.DOCUMENT_KINDS.get(kind, kind)  # people read the kind's name, not its code
    audit_create(doc, action=f"document added to {permit.number}: {label}")
    _event(permit, step="document", on=doc.received_on, summary=f"Document received: {label}{' - ' + title if title else ''}")
    return doc


@transaction.atomic
def document_verify_recording(*, document: PermitDocument, recording_number: str, recorded_on: dt.date,
                              verified_on: dt.date | None = None) -> PermitDocument:
    """Staff verify that a document was recorded: the register of deeds' recording number and date."""
    number = recording_number.strip() if isinstance(recording_number, str) else ""
    if len(number) > 60:
        refuse("recording_number is longer than 60 characters", field="recording_number")
    if not number:
        refuse("recording_number is required: the register of deeds' document number", field="recording_number")
    verified_on = verified_on or timezone.localdate()
    if not isinstance(recorded_on, dt.date):
        refuse("recorded_on is required: the date the document was recorded", field="recorded_on")
    if recorded_on > verified_on:
        refuse(f"recorded_on {recorded_on.isoformat()} is after the verification date", field="recorded_on")
    before = snapshot(document, ["recorded", "recording_number", "recorded_on", "recording_verified_on",
                                 "recording_verified_by_id"])
    document.recorded, document.recording_number, document.recorded_on = True, number, recorded_on
    document.recording_verified_on, document.recording_verified_by = verified_on, _actor()
    document.save()
    audit_update(document, before=before, action=f"recording of {document.kind} verified: {number}")
    _event(document.permit, step="document", on=verified_on,
           summary=f"Recording verified: {document.kind} recorded {recorded_on.isoformat()} as {number}")
    return document


@transaction.atomic
def permit_update_application(*, permit: Permit, data: dict) -> Permit:
    permit = _lock(permit)
    if permit.status not in (c.PermitStatus.APPLIED, c.PermitStatus.HELD):
        refuse(f"permit {permit.number} is {permit.get_status_display().lower()}; only an application under review "
               "can be amended")
    before = snapshot(permit, [f if f not in ("system", "soil_evaluation") else f + "_id" for f in data])
    for k, v in data.items():
        if k not in APPLICATION_FIELDS:
            refuse(f"{k} cannot be changed here", field=k)
        setattr(permit, k, v)
    return _save(permit, before, "application amended")


def setback_violation_count(result: dict) -> int:
    """Results stored before the count was kept list every violation."""
    return result.get("violation_count", len(result.get("violations", [])))


@transaction.atomic
def permit_set_plot_plan(*, permit: Permit, plot_plan: dict, on: dt.date | None = None) -> Permit:
    """Store the plot plan and its setback check (powts.setbacks) against the county profile."""
    from powts.setbacks import PlanError, check_plan, parse_plan, rules_for

    try:
        plan = parse_plan(plot_plan)
    except PlanError as exc:
        refuse(f"plot plan: {exc}", field="plot_plan")
    result = check_plan(plan, rules_for(permit.slug))
    before = snapshot(permit, ["plot_plan", "setback_result"])
    permit.plot_plan = plot_plan
    # the count is complete; the list stops at 200, so the stored result and the pages stay small
    permit.setback_result = result.as_json(limit=200)
    permit.save(update_fields=["plot_plan", "setback_result"])
    audit_update(permit, before=before, action="plot plan stored and checked")
    n = setback_violation_count(permit.setback_result)
    _event(permit, step="plot_plan", on=on or timezone.localdate(),
           summary="Plot plan checked: complies with the setbacks" if result.complies else
           f"Plot plan checked: {n} setback violation(s): " + "; ".join(
               f"{v['feature']} {v['measured_ft']} ft from {v['other']}, needs {v['required_ft']} ft [{v['citation']}]"
               for v in permit.setback_result["violations"][:5]))
    return permit


def _attr(permit: Permit, path: str):
    if path.startswith("documents."):
        return permit.documents.filter(kind=path.split(".", 1)[1]).exists()
    value = permit
    for part in path.split("."):
        value = getattr(value, part, None)
        if value is None:
            return None
    return value


def missing_items(permit: Permit) -> list[dict]:
    """What the application lacks, each item with its label and citation (empty when complete)."""
    out = []
    for req in rules.permit_rules(permit.slug).get("application_requirements") or []:
        cond = req.get("applies_if")
        if cond and not _attr(permit, cond):
            continue
        if "field" in req:
            ok = _attr(permit, req["field"]) not in (None, "", False)
        elif "any_of" in req:
            ok = any(_attr(permit, p) not in (None, "", False) for p in req["any_of"])
        elif "document" in req:
            docs = permit.documents.filter(kind=req["document"])
            if req.get("recording_verified"):
                docs = docs.filter(recording_verified_on__isnull=False)
            ok = docs.exists()
        else:
            fee_invoices = permit.invoices.filter(fee_code=req["fee_paid"]).exclude(status=c.InvoiceStatus.VOID)
            ok = fee_invoices.exists() and all(i.balance <= ZERO for i in fee_invoices)
        if not ok:
            out.append({"id": req["id"], "label": req["label"], "citation": req["citation"]})
    return out


# -- review --------------------------------------------------------------------------------

@transaction.atomic
def permit_hold(*, permit: Permit, on: dt.date, reasons: list[str] | None = None, respond_by: dt.date | None = None) -> Notice:
    """Return the application for correction, listing what is missing (the county assists the applicant)."""
    permit = _lock(permit)
    before = snapshot(permit, ["status"])
    _move(permit, to=c.PermitStatus.HELD, allowed_from={c.PermitStatus.APPLIED}, verb="held for correction")
    items = [f"{m['label']} [{m['citation']}]" for m in missing_items(permit)] + list(reasons or [])
    if not items:
        refuse("nothing to correct: the application is complete and no reason was given", field="reasons")
    _save(permit, before, "application held for correction")
    notice = Notice.objects.create(permit=permit, kind=c.NoticeKind.HOLD, issued_on=on, recipients=["applicant", "owner"],
                                   reasons=items, respond_by=respond_by,
                                   citation="Dane County Code s. 46.08(6)(d); Lincoln County Ch. 22 (draft), Application Requirements (5)")
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
    before = snapshot(permit, ["status", "decided_on"])
    _move(permit, to=c.PermitStatus.APPROVED, allowed_from={c.PermitStatus.APPLIED}, verb="approved")
    if on < permit.filed_on:
        refuse(f"approval date {on.isoformat()} is before the filing date {permit.filed_on.isoformat()}", field="on")
    missing = missing_items(permit)
    if missing:
        refuse("the application is incomplete: " + "; ".join(f"{m['label']} [{m['citation']}]" for m in missing))
    soil = permit.soil_evaluation
    if soil is not None and soil.verification in (c.SoilVerification.HOLD, c.SoilVerification.DENY):
        refuse(f"the soil and site evaluation is {soil.get_verification_display().lower()}",
               "Lincoln County Ch. 22 (draft), Soil and Site Evaluation (3)(c)-(d)")
    if permit.setback_result and not permit.setback_result.get("complies"):
        v = permit.setback_result["violations"][0]
        refuse(f"the plot plan breaks {setback_violation_count(permit.setback_result)} setback(s), e.g. {v['feature']} is "
               f"{v['measured_ft']} ft from {v['other']}, {v['required_ft']} ft required", v["citation"])
    permit.decided_on = on
    _save(permit, before, "application approved")
    _charge_additional_inspections(permit, on)
    _event(permit, step="approved", on=on, summary="Application approved; the permit issues when every fee is paid",
           citation="Dane County Code s. 46.08(6)(d); Lincoln County Ch. 22 (draft), Sanitary Permits")
    return permit


INCLUDED_INSPECTIONS = 2  # Lincoln County Ch. 22 (draft), Inspections; General (2)


def _charge_additional_inspections(permit: Permit, on: dt.date) -> None:
    """A fee for each required inspection beyond two, where the county's schedule has one."""
    if "additional_inspection" not in rules.fee_codes(permit.slug, on):
        return
    required = [s for s in stages_for(permit) if not s.optional]
    for stage in required[INCLUDED_INSPECTIONS:]:
        invoice_raise(jurisdiction=permit.jurisdiction, fee_code="additional_inspection", on=on, permit=permit,
                      payer=permit.owner.name, note=f"inspection {stage.id}")


@transaction.atomic
def permit_deny(*, permit: Permit, on: dt.date, reasons: list[str], amendments: list[str] | None = None,
                minor_technical: bool = False, failure_to_correct: bool = False) -> Notice:
    """Deny in writing: the specific reasons, the amendments that would make it approvable, the right to appeal."""
    permit = _lock(permit)
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
    before = snapshot(permit, ["status", "issued_on", "expires_on", "code_basis_on"])
    _move(permit, to=c.PermitStatus.ISSUED, allowed_from={c.PermitStatus.APPROVED}, verb="issued")
    if permit.decided_on and on < permit.decided_on:
        refuse(f"issue date {on.isoformat()} is before the approval {permit.decided_on.isoformat()}", field="on")
    unpaid = unpaid_invoices(permit)
    if unpaid:
        refuse("fees are unpaid: " + "; ".join(f"{i.description} ${i.balance}" for i in unpaid) +
               "; a permit is not issued with fees unpaid", unpaid[0].authority)
    permit.issued_on = on
    permit.expires_on, citation = rules.expiry_date(permit.slug, on)
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

    Dane s. 46.09(3)(e): a revision approved by DSPS or the designated agent reaches the county within
    5 working days of that approval; every change is approved before it is installed.
    """
    permit = _lock(permit)
    cite = "Dane County Code s. 46.09(3)(e); Lincoln County Ch. 22 (draft), Plans (6)"
    if permit.status not in (c.PermitStatus.APPROVED, c.PermitStatus.ISSUED):
        refuse(f"permit {permit.number} is {permit.get_status_display().lower()}; plan revisions are for an approved or "
               "issued permit", cite)
    _not_expired(permit, on, "a plan revision")
    # The county's copy period (Dane: 5 working days after the approval) is a filing duty: a late copy is
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


def overdue_invoices(*, jurisdiction, today: dt.date):
    """Open invoices past their due date (Lincoln, Reinspection (2): unpaid in 10 working days is a violation)."""
    return [i for i in Invoice.objects.filter(jurisdiction=jurisdiction, status=c.InvoiceStatus.OPEN, due_on__lt=today)
            .select_related("permit")]


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
    record here, audited, in this transaction, so a refused transfer leaves no owner behind (issue 8)."""
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
    change.full_clean()
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
            summary += "; a new on-site inspection is required, at the applicant's cost [Dane County Code s. 46.08(5)]"
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


# -- inspections ---------------------------------------------------------------------------

def stages_for(permit: Permit):
    return required_stages(permit.slug, permit.system_type)


@transaction.atomic
def inspection_request(*, permit: Permit, stage: str, notice_at: dt.datetime, requested_day: dt.date | None = None,
                       requested_by=None) -> Inspection:
    """The plumber's notice that the system (or a stage of it) will be ready; the county's deadline follows."""
    permit = _lock(permit)
    slug = permit.slug
    if permit.status != c.PermitStatus.ISSUED:
        refuse(f"inspections are for an issued permit; permit {permit.number} is {permit.get_status_display().lower()}",
               "Dane County Code s. 46.08(7); Lincoln County Ch. 22 (draft), Permit Expiration (4)")
    stages = {s.id: s for s in stages_for(permit)}
    if stage not in stages:
        refuse(f"stage {stage!r} is not an inspection a {permit.get_system_type_display().lower()} system needs here; "
               f"the stages are: {', '.join(stages)}", field="stage")
    if timezone.is_naive(notice_at):
        notice_at = timezone.make_aware(notice_at)
    try:
        decision = review_request(slug, notice_at, system=permit.system_type, requested_day=requested_day)
    except CalendarError as exc:
        refuse(str(exc), field="requested_day")
    if not decision.allowed:
        refuse("; ".join(f"{f.message} [{f.citation}]" for f in decision.refusals), field="requested_day")
    day = decision.requested_day
    _not_expired(permit, day, "an inspection")
    due = deadline(slug, "inspection", notice_at, system=permit.system_type, requested_day=day)
    backfill = None
    if "backfill" in inspection_rules_for(slug).deadlines:
        backfill = deadline(slug, "backfill", notice_at, system=permit.system_type, requested_day=day).day
    insp = Inspection(permit=permit, stage=stage, stage_citation=stages[stage].citation, notice_at=notice_at,
                      requested_day=day, deadline_day=due.day, deadline_citation=due.citation, backfill_after=backfill,
                      notice_findings=[{"rule": f.rule_id, "ok": f.ok, "message": f.message, "citation": f.citation}
                                       for f in decision.findings], requested_by=requested_by or _actor())
    insp.full_clean()
    insp.save()
    audit_create(insp, action=f"inspection ({stage}) requested for {day.isoformat()}")
    _event(permit, step="inspection_requested", on=notice_at.date(), citation=due.citation,
           summary=f"Inspection '{stage}' requested for {day:%A %Y-%m-%d}; the county inspects by the end of "
                   f"{due.day:%A %Y-%m-%d}" + ("; not inspected by then, the plumber may backfill" if backfill else ""))
    for f in decision.fees:
        invoice_raise(jurisdiction=permit.jurisdiction, fee_code="late_inspection_notice", on=notice_at.date(), permit=permit,
                      payer=permit.plumber.holder_name, note=f.citation)
    return insp


@transaction.atomic
def inspection_assign(*, inspection: Inspection, inspector) -> Inspection:
    before = snapshot(inspection, ["inspector_id"])
    inspection.inspector = inspector
    inspection.save(update_fields=["inspector"])
    audit_update(inspection, before=before, action=f"inspector {inspector.username} assigned")
    return inspection


@transaction.atomic
def inspection_record(*, inspection: Inspection, result: str, on: dt.date, failed_items: list[str] | None = None,
                      notes: str = "", waive_fee: bool = False) -> Inspection:
    """The result; a failed inspection lists the items that failed and charges the reinspection fee."""
    inspection = Inspection.objects.select_for_update().select_related("permit__jurisdiction").get(pk=inspection.pk)
    permit = inspection.permit
    if inspection.result != c.InspectionResult.REQUESTED:
        refuse(f"this inspection was already recorded as {inspection.get_result_display().lower()}", field="result")
    if result not in (c.InspectionResult.PASSED, c.InspectionResult.FAILED, c.InspectionResult.NOT_READY, c.InspectionResult.CANCELLED):
        refuse(f"result {result!r} is not one of passed, failed, not_ready, cancelled", field="result")
    if result != c.InspectionResult.CANCELLED and on < inspection.requested_day:
        refuse(f"inspected_on {on.isoformat()} is before the requested day {inspection.requested_day.isoformat()}",
               field="inspected_on")
    items = [x.strip() for x in failed_items or [] if x and x.strip()]
    if result == c.InspectionResult.FAILED and not items:
        refuse("a failed inspection lists the items that failed", field="failed_items")
    fee_code = {c.InspectionResult.FAILED: "reinspection", c.InspectionResult.NOT_READY: "return_inspection"}.get(result)
    charged = fee_code in rules.fee_codes(permit.slug, on) if fee_code else False
    if waive_fee and charged:
        # A fee is waivable only where the county's fee schedule cites a waiver (Lincoln: the return-inspection fee).
        fee = rules.fee_schedule(permit.slug, on)["fees"][fee_code]
        if not fee.get("waiver_citation"):
            refuse(f"the {fee.get('label', fee_code).lower()} fee may not be waived", fee["authority"], field="waive_fee")
        if not notes.strip():
            refuse("a waiver states the good cause shown (for example a mechanical breakdown or inclement weather)",
                   fee["waiver_citation"], field="notes")
    before = snapshot(inspection, ["result", "inspected_on", "failed_items", "notes"])
    inspection.result, inspection.inspected_on, inspection.failed_items, inspection.notes = result, on, items, notes
    inspection.save()
    audit_update(inspection, before=before, action=f"inspection {inspection.stage}: {result}")
    _event(permit, step=f"inspection_{result}", on=on, citation=inspection.stage_citation,
           summary=f"Inspection '{inspection.stage}': {inspection.get_result_display().lower()}"
                   + (": " + "; ".join(items) if items else "") + (f" ({notes})" if notes else ""))
    if charged and not waive_fee:
        invoice = invoice_raise(jurisdiction=permit.jurisdiction, fee_code=fee_code, on=on, permit=permit,
                                payer=permit.plumber.holder_name, note=f"inspection {inspection.stage} of {on.isoformat()}")
        if invoice is not None:
            notice = Notice.objects.create(permit=permit, kind=c.NoticeKind.REINSPECTION_FEE, issued_on=on,
                                           recipients=["plumber"], reasons=[invoice.description] + items,
                                           respond_by=invoice.due_on, citation=invoice.due_citation or invoice.authority)
            audit_create(notice, action="reinspection fee notice")
    return inspection


@transaction.atomic
def permit_final_approve(*, permit: Permit, on: dt.date) -> Permit:
    """Installed and approved: every inspection the system type needs has passed, within the permit's life."""
    permit = _lock(permit)
    before = snapshot(permit, ["status", "completed_on"])
    _move(permit, to=c.PermitStatus.COMPLETED, allowed_from={c.PermitStatus.ISSUED}, verb="given final approval")
    _not_expired(permit, on, "final approval")
    passed = set(permit.inspections.filter(result=c.InspectionResult.PASSED).values_list("stage", flat=True))
    needed = [s for s in stages_for(permit) if not s.optional and s.id not in passed]
    if needed:
        refuse("inspections not yet passed: " + "; ".join(f"{s.id} ({s.when})" for s in needed), needed[0].citation)
    permit.completed_on = on
    _save(permit, before, "installed and approved")
    _event(permit, step="completed", on=on, summary="Final approval: the system is installed, inspected and approved; "
           "the permit card may come down", citation="Dane County Code s. 46.08(6)(g); Lincoln County Ch. 22 (draft), Permit Cards (4)")
    return permit
