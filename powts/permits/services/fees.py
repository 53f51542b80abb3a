"""Fees: invoices at the scheduled amount, payments, returned checks."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.db import transaction

from powts.audit.services import audit_create, audit_update, snapshot
from powts.calendars import calendar_for
from powts.permits import choices as c
from powts.permits import rules
from powts.permits.models import Invoice, Payment, Permit
from powts.permits.services._common import ZERO, _actor, _event, checked, refuse

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
    checked(invoice)
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
    checked(payment)
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
