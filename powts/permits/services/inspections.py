"""Inspections: the plumber's notice and the county's deadline, results and fees, final approval."""
from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from powts.accounts.conflicts import permit_parties, refuse_if_conflicted
from powts.audit.services import audit_create, audit_update, snapshot
from powts.calendars import CalendarError, deadline, inspection_rules_for, review_request
from powts.core.news import publish
from powts.permits import choices as c
from powts.permits import rules
from powts.permits.models import Inspection, Notice, Permit
from powts.permits.selectors import stages_for
from powts.permits.services._common import _actor, _event, _lock, _move, _not_expired, _save, checked, refuse
from powts.permits.services.fees import invoice_raise
from powts.permits.services.abandonment import abandonment_blocking_final_approval
from powts.permits.services.testing import tests_blocking_final_approval

# -- inspections ---------------------------------------------------------------------------

@transaction.atomic
def inspection_request(*, permit: Permit, stage: str, notice_at: dt.datetime, requested_day: dt.date | None = None,
                       requested_by=None) -> Inspection:
    """The plumber's notice that the system (or a stage of it) will be ready; the county's deadline follows."""
    permit = _lock(permit)
    slug = permit.slug
    if permit.status != c.PermitStatus.ISSUED:
        refuse(f"inspections are for an issued permit; permit {permit.number} is {permit.get_status_display().lower()}",
               rules.step_citation(slug, "inspection_needs_issued_permit"))
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
    checked(insp)
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
    """Give the inspection to `inspector` (a county administrator reassigns one an inspector may not do)."""
    refuse_if_conflicted(parties=permit_parties(inspection.permit), user=inspector,
                         what=f"be assigned the inspection of permit {inspection.permit.number}")
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
    refuse_if_conflicted(parties=permit_parties(permit), what=f"inspect permit {permit.number}")
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
        # A fee is waivable only where the county's fee schedule cites a waiver for it.
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
    refuse_if_conflicted(parties=permit_parties(permit), what=f"give final approval to permit {permit.number}")
    before = snapshot(permit, ["status", "completed_on"])
    _move(permit, to=c.PermitStatus.COMPLETED, allowed_from={c.PermitStatus.ISSUED}, verb="given final approval")
    _not_expired(permit, on, "final approval")
    passed = set(permit.inspections.filter(result=c.InspectionResult.PASSED).values_list("stage", flat=True))
    needed = [s for s in stages_for(permit) if not s.optional and s.id not in passed]
    if needed:
        refuse("inspections not yet passed: " + "; ".join(f"{s.id} ({s.when})" for s in needed), needed[0].citation)
    open_tests, cite = tests_blocking_final_approval(permit)
    if open_tests:
        refuse("component tests not yet verified as passed: " + "; ".join(t.component for t in open_tests), cite)
    waiting, cite = abandonment_blocking_final_approval(permit, on)
    if waiting:
        refuse(waiting, cite)
    permit.completed_on = on
    _save(permit, before, "installed and approved")
    _event(permit, step="completed", on=on, summary="Final approval: the system is installed, inspected and approved; "
           "the permit card may come down", citation=rules.step_citation(permit.slug, "final_approval"))
    publish("permit.final_approved", permit=permit, on=on)  # the inventory records the system; maintenance restarts its cycle
    return permit
