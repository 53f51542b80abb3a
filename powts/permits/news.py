"""What permits, fees and complaints do with other records' news (registered in PermitsConfig.ready)."""
from __future__ import annotations

from django.utils import timezone

from powts.core import news


def on_system_installed(*, system, replaced, source, cause) -> None:
    """The permit now points at the system it installed (its page lists the permit)."""
    from powts.audit.services import audit_update, snapshot
    from powts.permits.models import Permit

    if isinstance(source, Permit) and source.system_id != system.pk:
        before = snapshot(source, ["system_id"])
        source.system = system
        source.save(update_fields=["system"])
        audit_update(source, before=before, action=f"system {system.system_id} recorded in the inventory: {cause}")


def on_abandonment_reported(*, report) -> None:
    """The final report's fee, where the county's profile charges one (cited in its maintenance.yaml)."""
    from powts.maintenance.profile import maintenance_profile
    from powts.permits.services import invoice_raise

    unit = report.jurisdiction
    code = maintenance_profile(unit.profile_slug).abandonment_fee_code
    filed_on = timezone.localdate(report.filed_at)
    if code:  # a date the county's fee schedule does not cover refuses the report (never a silent zero fee)
        owner = report.system.parcel.owner if report.system and report.system.parcel.owner_id else None
        invoice_raise(jurisdiction=unit, fee_code=code, on=filed_on, payer=owner.name if owner else "",
                      note=f"system {report.system_ref}, work of {report.work_date.isoformat()}")


def on_complaint_received(*, complaint) -> None:
    from powts.permits.complaint_links import complaint_link_by_address

    complaint_link_by_address(complaint=complaint)


def on_parcel_confirmed(*, parcel, cause) -> None:
    """The applications on a new parcel say that staff confirmed it (they may now be approved)."""
    from powts.permits import choices as c
    from powts.permits.services._common import _event

    for permit in parcel.permits.filter(status__in=c.OPEN_STATUSES):
        _event(permit, step="parcel_confirmed", on=timezone.localdate(), summary=f"{cause[:1].upper()}{cause[1:]}")


def on_parcel_merging(*, pending, into, cause) -> None:
    """A new parcel that is one on record: the permits, soil reports, clearances and emergency work move to it."""
    from powts.audit.services import audit_update, snapshot
    from powts.permits.services._common import _event

    for permit in pending.permits.all():
        before = snapshot(permit, ["parcel_id"])
        permit.parcel = into
        permit.save(update_fields=["parcel"])
        audit_update(permit, before=before, action=cause)
        _event(permit, step="parcel_merged", on=timezone.localdate(), summary=f"{cause[:1].upper()}{cause[1:]}")
    for related in (pending.soil_evaluations, pending.clearances, pending.emergency_work):
        for record in related.all():
            before = snapshot(record, ["parcel_id"])
            record.parcel = into
            record.save(update_fields=["parcel"])
            audit_update(record, before=before, action=cause)


def register() -> None:
    news.subscribe("system.installed", on_system_installed)
    news.subscribe("abandonment.reported", on_abandonment_reported)
    news.subscribe("complaint.received", on_complaint_received)
    news.subscribe("parcel.confirmed", on_parcel_confirmed)
    news.subscribe("parcel.merging", on_parcel_merging)
