"""Fees (schedules per county and year, invoices, payments) and inspections on working days."""
import datetime as dt
from decimal import Decimal

import pytest

from powts.permits import choices as c
from powts.permits import rules, selectors, services
from powts.permits.errors import PermitRefused
from powts.permits.models import Invoice, Notice
from powts.permits.tests.conftest import issue, pay_all

D = dt.date
T = dt.datetime
BOTH = pytest.mark.parametrize("county", ["dane", "lincoln"], indirect=True)


def err(exc) -> str:
    return f"{exc.value.message} [{exc.value.citation}]"


# -- fee schedules ------------------------------------------------------------------------

@pytest.mark.parametrize("slug", ["dane", "lincoln"])
def test_every_fee_is_cited_and_amount_marked_outside_texts(slug):
    for code in rules.fee_codes(slug, D(2026, 6, 1)):
        fee = rules.fee_for(slug, code, D(2026, 6, 1))
        assert fee.authority and fee.amount_citation
        assert fee.amount_outside_texts  # no amount is in the texts
        assert fee.amount == fee.amount.quantize(Decimal("0.01"))


def test_lincoln_schedule_is_per_year_and_a_gap_is_an_error():
    assert rules.fee_for("lincoln", "renewal", D(2026, 12, 31)).schedule_id == "lincoln-2026"
    assert rules.fee_for("lincoln", "renewal", D(2025, 12, 31)).schedule_id == "lincoln-2025"
    assert rules.fee_for("lincoln", "renewal", D(2027, 1, 1)).schedule_id == "lincoln-2027"
    with pytest.raises(rules.RuleError, match="no fee schedule of lincoln covers 2031-01-01"):
        rules.fee_for("lincoln", "renewal", D(2031, 1, 1))


def test_state_minimum_has_no_fees():
    with pytest.raises(rules.RuleError):
        rules.fee_for("state", "application", D(2026, 1, 1))


@BOTH
def test_payment_cannot_exceed_balance_and_marks_paid(county, master):
    from powts.permits.tests.conftest import file_complete

    permit = file_complete(county, master, pay=False)
    invoice = permit.invoices.get(fee_code="application")
    with pytest.raises(PermitRefused) as exc:
        services.payment_record(invoice=invoice, amount=invoice.amount + Decimal("0.01"), received_on=D(2026, 3, 2))
    assert exc.value.field == "amount"
    with pytest.raises(PermitRefused):
        services.payment_record(invoice=invoice, amount=Decimal("0.001"), received_on=D(2026, 3, 2))
    services.payment_record(invoice=invoice, amount=Decimal("100.00"), received_on=D(2026, 3, 2))
    assert Invoice.objects.get(pk=invoice.pk).status == c.InvoiceStatus.OPEN
    services.payment_record(invoice=invoice, amount=invoice.amount - Decimal("100.00"), received_on=D(2026, 3, 3))
    assert Invoice.objects.get(pk=invoice.pk).status == c.InvoiceStatus.PAID


def test_returned_check_reopens_invoice_and_charges_fee(dane, master):
    from powts.permits.tests.conftest import file_complete

    permit = file_complete(dane, master)
    invoice = permit.invoices.get(fee_code="application")
    payment = invoice.payments.get()
    fee_invoice = services.payment_returned(payment=payment, on=D(2026, 3, 10))
    invoice.refresh_from_db()
    assert invoice.status == c.InvoiceStatus.OPEN and invoice.balance == invoice.amount
    assert fee_invoice.fee_code == "returned_check"


# -- inspections: Dane s. 46.11(1) ---------------------------------------------------------

def test_dane_notice_by_9am_inspect_by_end_of_next_workday(dane, master):
    permit = issue(dane, master, issued_on=D(2026, 4, 1))
    insp = services.inspection_request(permit=permit, stage="before_backfill", notice_at=T(2026, 11, 24, 8, 59),
                                       requested_day=D(2026, 11, 24))
    assert insp.deadline_day == D(2026, 11, 25)
    assert insp.deadline_citation == "Dane County Code s. 46.11(1)"
    # Wednesday before Thanksgiving: the next workday is Friday
    insp2 = services.inspection_request(permit=permit, stage="before_backfill", notice_at=T(2026, 11, 25, 8, 0),
                                        requested_day=D(2026, 11, 25))
    assert insp2.deadline_day == D(2026, 11, 27)


def test_dane_notice_after_9am_for_same_day_refused_with_earliest_day(dane, master):
    permit = issue(dane, master, issued_on=D(2026, 4, 1))
    with pytest.raises(PermitRefused) as exc:
        services.inspection_request(permit=permit, stage="before_backfill", notice_at=T(2026, 11, 24, 9, 1),
                                    requested_day=D(2026, 11, 24))
    assert "earliest allowed day is Wednesday 2026-11-25" in err(exc) and "46.11(1)" in err(exc)
    assert not permit.inspections.exists()


def test_unknown_stage_lists_the_stages(dane, master):
    permit = issue(dane, master, issued_on=D(2026, 4, 1))
    with pytest.raises(PermitRefused) as exc:
        services.inspection_request(permit=permit, stage="plowed", notice_at=T(2026, 5, 4, 8, 0))
    assert "before_backfill" in err(exc)


def test_inspection_after_expiry_refused(dane, master):
    permit = issue(dane, master, issued_on=D(2026, 4, 1))
    services.inspection_request(permit=permit, stage="before_backfill", notice_at=T(2028, 3, 31, 8, 0),
                                requested_day=D(2028, 3, 31))
    with pytest.raises(PermitRefused) as exc:
        services.inspection_request(permit=permit, stage="before_backfill", notice_at=T(2028, 4, 3, 8, 0),
                                    requested_day=D(2028, 4, 3))
    assert "expired on 2028-04-01" in err(exc)


# -- inspections: Lincoln -----------------------------------------------------------------

def test_lincoln_mound_stages_and_working_day_prior_notice(lincoln, master):
    permit = issue(lincoln, master, issued_on=D(2026, 4, 1), system_type="mound")
    assert [s.id for s in selectors.stages_for(permit)] == ["plowed", "distribution_piping", "final"]
    with pytest.raises(PermitRefused) as exc:  # notice Friday for Monday: fine; notice Monday for Monday: refused
        services.inspection_request(permit=permit, stage="plowed", notice_at=T(2026, 5, 4, 7, 0), requested_day=D(2026, 5, 4))
    assert "Mound and At-Grade Systems (1)" in err(exc)
    insp = services.inspection_request(permit=permit, stage="plowed", notice_at=T(2026, 5, 1, 7, 0), requested_day=D(2026, 5, 4))
    assert insp.requested_day == D(2026, 5, 4)


def test_lincoln_late_24_hour_notice_charges_fee_not_refusal(lincoln, master):
    permit = issue(lincoln, master, issued_on=D(2026, 4, 1))
    services.inspection_request(permit=permit, stage="final", notice_at=T(2026, 5, 4, 7, 0), requested_day=D(2026, 5, 4))
    assert permit.invoices.filter(fee_code="late_inspection_notice").count() == 1   # same-day notice: under 24 hours
    services.inspection_request(permit=permit, stage="final", notice_at=T(2026, 5, 4, 14, 0), requested_day=D(2026, 5, 5))
    assert permit.invoices.filter(fee_code="late_inspection_notice").count() == 1   # next day, from 14:00: no fee


def test_lincoln_failed_inspection_reinspection_fee_due_in_10_working_days(lincoln, master):
    permit = issue(lincoln, master, issued_on=D(2026, 4, 1))
    insp = services.inspection_request(permit=permit, stage="final", notice_at=T(2026, 11, 16, 8, 0),
                                       requested_day=D(2026, 11, 18))
    with pytest.raises(PermitRefused) as exc:
        services.inspection_record(inspection=insp, result="failed", on=D(2026, 11, 18))
    assert exc.value.field == "failed_items"
    services.inspection_record(inspection=insp, result="failed", on=D(2026, 11, 18), failed_items=["Inspection port missing"])
    fee = permit.invoices.get(fee_code="reinspection")
    # 10 working days after Wed 2026-11-18, skipping Thanksgiving (Nov 26) and the weekends
    assert fee.due_on == D(2026, 12, 3)
    assert fee.due_citation == "Lincoln County Ch. 22 (draft), Reinspection (2)"
    assert Notice.objects.get(kind=c.NoticeKind.REINSPECTION_FEE).respond_by == D(2026, 12, 3)


def _lincoln_inspection(lincoln, master):
    permit = issue(lincoln, master, issued_on=D(2026, 4, 1))
    return permit, services.inspection_request(permit=permit, stage="final", notice_at=T(2026, 11, 16, 8, 0),
                                               requested_day=D(2026, 11, 18))


def test_lincoln_inspections_general_5_return_inspection_fee_waived_for_good_cause(lincoln, master):
    """Lincoln Inspections; General (5): the inspector may waive the return-inspection fee if good cause is shown."""
    permit, insp = _lincoln_inspection(lincoln, master)
    with pytest.raises(PermitRefused) as exc:
        services.inspection_record(inspection=insp, result="not_ready", on=D(2026, 11, 18), waive_fee=True)
    assert exc.value.field == "notes" and "good cause" in err(exc)
    services.inspection_record(inspection=insp, result="not_ready", on=D(2026, 11, 18), waive_fee=True,
                               notes="Excavator broke down")
    assert not permit.invoices.filter(fee_code="return_inspection").exists()


def test_lincoln_inspections_general_5_return_inspection_fee_charged_without_waiver(lincoln, master):
    """Lincoln Inspections; General (5): without a waiver the plumber is charged the return-inspection fee."""
    permit, insp = _lincoln_inspection(lincoln, master)
    services.inspection_record(inspection=insp, result="not_ready", on=D(2026, 11, 18))
    assert permit.invoices.filter(fee_code="return_inspection").count() == 1


def test_lincoln_reinspection_1_fee_may_not_be_waived(lincoln, master):
    """Lincoln Reinspection (1): the reinspection fee "shall be assessed"; only (5)'s return-inspection fee is waivable."""
    permit, insp = _lincoln_inspection(lincoln, master)
    with pytest.raises(PermitRefused) as exc:
        services.inspection_record(inspection=insp, result="failed", on=D(2026, 11, 18), failed_items=["Port"],
                                   waive_fee=True, notes="Rain")
    assert exc.value.field == "waive_fee" and "may not be waived" in err(exc)
    assert "Reinspection (1)" in err(exc)
    insp.refresh_from_db()
    assert insp.result == c.InspectionResult.REQUESTED and not permit.invoices.filter(fee_code="reinspection").exists()


def test_dane_failed_inspection_charges_no_reinspection_fee(dane, master):
    permit = issue(dane, master, issued_on=D(2026, 4, 1))
    insp = services.inspection_request(permit=permit, stage="before_backfill", notice_at=T(2026, 5, 4, 8, 0))
    services.inspection_record(inspection=insp, result="failed", on=D(2026, 5, 4), failed_items=["Pipe slope"])
    assert not permit.invoices.filter(fee_code="reinspection").exists()


# -- final approval -------------------------------------------------------------------------

def test_lincoln_final_approval_needs_every_required_stage(lincoln, master):
    permit = issue(lincoln, master, issued_on=D(2026, 4, 1), system_type="mound")
    insp = services.inspection_request(permit=permit, stage="plowed", notice_at=T(2026, 5, 1, 7, 0), requested_day=D(2026, 5, 4))
    services.inspection_record(inspection=insp, result="passed", on=D(2026, 5, 4))
    with pytest.raises(PermitRefused) as exc:
        services.permit_final_approve(permit=permit, on=D(2026, 5, 5))
    assert "distribution_piping" in err(exc) and "final" not in err(exc).split("distribution_piping")[1][:5]
    insp = services.inspection_request(permit=permit, stage="distribution_piping", notice_at=T(2026, 5, 5, 7, 0),
                                       requested_day=D(2026, 5, 6))
    services.inspection_record(inspection=insp, result="passed", on=D(2026, 5, 6))
    services.permit_final_approve(permit=permit, on=D(2026, 5, 6))   # the final inspection is "as deemed necessary"
    permit.refresh_from_db()
    assert permit.status == c.PermitStatus.COMPLETED


def test_dane_final_approval_on_expiry_day_but_not_after(dane, master):
    permit = issue(dane, master, issued_on=D(2026, 4, 1))
    insp = services.inspection_request(permit=permit, stage="before_backfill", notice_at=T(2028, 3, 31, 8, 0))
    services.inspection_record(inspection=insp, result="passed", on=D(2028, 3, 31))
    with pytest.raises(PermitRefused):
        services.permit_final_approve(permit=permit, on=D(2028, 4, 2))
    services.permit_final_approve(permit=permit, on=D(2028, 4, 1))


def test_lincoln_sand_filter_third_inspection_is_an_additional_fee(lincoln, master):
    from powts.permits.tests.conftest import file_complete

    permit = file_complete(lincoln, master, system_type="sand_filter")
    services.permit_approve(permit=permit, on=D(2026, 3, 10))
    extra = permit.invoices.filter(fee_code="additional_inspection")
    assert extra.count() == 1 and "final" in extra.get().description   # 3 required, 2 included (General (2))
    with pytest.raises(PermitRefused):
        services.permit_issue(permit=permit, on=D(2026, 3, 11))
    pay_all(permit, D(2026, 3, 11))
    services.permit_issue(permit=permit, on=D(2026, 3, 11))


def test_lincoln_mound_needs_no_additional_inspection_fee(lincoln, master):
    from powts.permits.tests.conftest import file_complete

    permit = file_complete(lincoln, master, system_type="mound")
    services.permit_approve(permit=permit, on=D(2026, 3, 10))
    assert not permit.invoices.filter(fee_code="additional_inspection").exists()


@pytest.mark.parametrize("received_on,late_days", [(D(2026, 11, 30), 0), (D(2026, 12, 1), 1)])
def test_dane_46_09_3_e_late_revision_copy_is_recorded_late_not_refused(dane, master, received_on, late_days):
    """Dane 46.09(3)(e): the approved revision's copy is due within 5 working days; a later copy is received and
    marked late (days after the due date) for staff to act on, not refused."""
    permit = issue(dane, master, issued_on=D(2026, 4, 1))
    # approved by DSPS Fri 2026-11-20; 5 working days: Nov 23, 24, 25, 27 (Thanksgiving skipped), 30
    doc = services.permit_plan_revision(permit=permit, on=received_on, approved_elsewhere_on=D(2026, 11, 20))
    assert doc.due_on == D(2026, 11, 30) and doc.late_days == late_days
    assert permit.invoices.filter(fee_code="plan_revision").count() == 1
    summary = permit.events.get(step="plan_revision").summary
    assert ("received late" in summary and "46.09(3)(e)" in summary) is bool(late_days)


def test_lincoln_sets_no_revision_copy_period(lincoln, master):
    """Lincoln Plans (6) sets no copy period: a revision is never marked late."""
    permit = issue(lincoln, master, issued_on=D(2026, 4, 1))
    doc = services.permit_plan_revision(permit=permit, on=D(2026, 12, 30), approved_elsewhere_on=D(2026, 11, 20))
    assert doc.due_on is None and doc.late_days == 0


def test_unpaid_reinspection_fee_overdue_after_10_working_days(lincoln, master):
    permit = issue(lincoln, master, issued_on=D(2026, 4, 1))
    insp = services.inspection_request(permit=permit, stage="final", notice_at=T(2026, 11, 16, 8, 0), requested_day=D(2026, 11, 18))
    services.inspection_record(inspection=insp, result="failed", on=D(2026, 11, 18), failed_items=["Port"])
    assert selectors.overdue_invoices(jurisdiction=lincoln, today=D(2026, 12, 3)) == []
    assert [i.fee_code for i in selectors.overdue_invoices(jurisdiction=lincoln, today=D(2026, 12, 4))] == ["reinspection"]
