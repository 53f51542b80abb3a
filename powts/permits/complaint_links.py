"""A complaint tied to the system it is about: by its address when one system is there, else by staff.

Every link is audited with the complaint that caused it.
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from powts.audit.services import audit_update, snapshot
from powts.core.refusals import Refused
from powts.inventory.selectors import systems_at_address
from powts.permits.choices import ComplaintLink
from powts.permits.models import Complaint


def _set(complaint: Complaint, *, system, link: str, action: str) -> Complaint:
    before = snapshot(complaint, ["system_id", "link"])
    complaint.system, complaint.link, complaint.updated_at = system, link, timezone.now()
    complaint.save(update_fields=["system", "link", "updated_at"])
    audit_update(complaint, before=before, action=action)
    return complaint


@transaction.atomic
def complaint_link_by_address(*, complaint: Complaint) -> Complaint:
    """The one system in use at the complaint's address; none or several: queued for staff to link."""
    found = systems_at_address(jurisdiction=complaint.jurisdiction, address=complaint.address, limit=2) if complaint.address else []
    if len(found) == 1:
        return _set(complaint, system=found[0], link=ComplaintLink.ADDRESS,
                    action=f"linked to system {found[0].system_id} by its address ({complaint.address})")
    why = "several systems at its address" if found else "no system on record at its address"
    return _set(complaint, system=None, link=ComplaintLink.QUEUED, action=f"complaint queued for staff to link: {why}")


@transaction.atomic
def complaint_link(*, complaint: Complaint, system=None, no_system: bool = False) -> Complaint:
    """Staff link a complaint to a system of its county, or record that no system is on record there."""
    complaint = Complaint.objects.select_for_update().get(pk=complaint.pk)
    if no_system:
        return _set(complaint, system=None, link=ComplaintLink.NO_SYSTEM, action="staff: no system on record at this location")
    if system is None:
        raise Refused("choose the system this complaint is about", field="system_id")
    if system.jurisdiction_id != complaint.jurisdiction_id:
        raise Refused(f"system {system.system_id} is in another county", field="system_id")
    return _set(complaint, system=system, link=ComplaintLink.STAFF, action=f"linked to system {system.system_id} by staff")
