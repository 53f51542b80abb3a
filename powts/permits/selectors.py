"""Reads, always scoped to what the user may see."""
from django.shortcuts import get_object_or_404

from powts.permits.models import Inspection, Permit


def permit_list(*, user):
    return Permit.objects.restrict(user, "view").select_related("jurisdiction", "parcel", "owner", "plumber")


def permit_get(*, user, pk: int) -> Permit:
    return get_object_or_404(permit_list(user=user), pk=pk)


def inspection_get(*, user, pk: int) -> Inspection:
    return get_object_or_404(Inspection.objects.select_related("permit__jurisdiction", "permit__plumber")
                             .filter(permit__in=permit_list(user=user)), pk=pk)


def complaint_jurisdiction(slug):
    """The county a public complaint names by slug, or None. Anything but a short text without NUL is None
    before it reaches the database (PostgreSQL refuses NUL in text: that was a 500)."""
    from powts.jurisdictions.models import Jurisdiction

    if not isinstance(slug, str) or not slug or len(slug) > 50 or "\x00" in slug:
        return None
    return Jurisdiction.objects.filter(slug=slug).first()
