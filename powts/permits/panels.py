"""The permits section of the inventory's system page (registered in PermitsConfig.ready)."""
from powts.core.prepared import Prepared


def system_context(system) -> dict:
    return {"system": system, "system_permits": list(system.permits.order_by("-id")[:20])}


def _service_names() -> dict:
    from powts.permits.services.enforcement import SERVICES

    return {s["service_code"]: s["service_name"] for s in SERVICES}


def system_complaints(system) -> dict:
    """Complaints linked to the system (by address or by staff), newest first."""
    names = _service_names()
    rows = list(system.complaints.order_by("-requested_at")[:20])
    for row in rows:
        row.service_name = names.get(row.service_code, row.service_code)
    return {"system": system, "system_complaints": rows}


def _open_complaints(unit_id, status):
    from powts.permits.models import Complaint

    return Complaint.objects.filter(jurisdiction_id=unit_id, status=status)


# the dashboard's two lists of complaints, compiled once (powts.core.prepared): read on every visit
_complaints_to_link = Prepared(lambda unit_id, status, queued: _open_complaints(unit_id, status).filter(link=queued)
                               .order_by("requested_at")[:25])
_complaints_linked = Prepared(lambda unit_id, status: _open_complaints(unit_id, status).filter(system__isnull=False)
                              .select_related("system").order_by("-requested_at")[:25])


def dashboard_complaints(unit, user) -> dict:
    """The dashboard's complaints: those staff must link to a system, and open ones already linked."""
    from powts.permits import policies
    from powts.permits.choices import ComplaintLink, ComplaintStatus

    names = _service_names()
    to_link = _complaints_to_link(unit.pk, ComplaintStatus.OPEN.value, ComplaintLink.QUEUED.value)
    linked = _complaints_linked(unit.pk, ComplaintStatus.OPEN.value)
    for row in [*to_link, *linked]:
        row.service_name = names.get(row.service_code, row.service_code)
    return {"complaints_to_link": to_link, "complaints_linked": linked,
            "can_link": policies.is_county_staff_for(user, unit.pk)}


def dashboard_new_parcels(unit, user) -> dict:
    """Applications for new construction whose parcel staff have not yet confirmed (they cannot be approved)."""
    from powts.permits.choices import OPEN_STATUSES
    from powts.permits.models import Permit

    rows = (Permit.objects.filter(jurisdiction_id=unit.pk, parcel__pending=True, status__in=OPEN_STATUSES)
            .select_related("parcel").order_by("filed_on", "id"))
    first = list(rows[:25])
    # fewer than a page: that is all of them, and the count needs no query of its own
    return {"new_parcels": first, "new_parcels_count": len(first) if len(first) < 25 else rows.count()}
