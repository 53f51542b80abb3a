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


def register() -> None:
    news.subscribe("system.installed", on_system_installed)
    news.subscribe("abandonment.reported", on_abandonment_reported)
    news.subscribe("complaint.received", on_complaint_received)
