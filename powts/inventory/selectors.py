"""Reads of the inventory, always scoped to what the user may see."""
from __future__ import annotations

from django.core.cache import cache
from django.shortcuts import get_object_or_404

from powts.audit.selectors import history_for
from powts.inventory.models import Parcel, System


def system_list(*, user):
    return System.objects.restrict(user, "view").select_related("parcel", "parcel__owner", "jurisdiction")


def system_get(*, user, pk: int) -> System:
    return get_object_or_404(system_list(user=user).prefetch_related("components"), pk=pk)


def system_history(*, system: System):
    """The system's timeline, with its parcel's and current owner's changes woven in."""
    return history_for(system, system.parcel, system.parcel.owner, *system.components.all())


def municipalities(*, jurisdiction_id: int | None) -> list[str]:
    """The municipalities in a county's inventory, for the filter (cached: a DISTINCT over every parcel)."""
    key = f"powts:municipalities:{jurisdiction_id}"
    found = cache.get(key)
    if found is None:
        qs = Parcel.objects.exclude(municipality="")
        if jurisdiction_id:
            qs = qs.filter(jurisdiction_id=jurisdiction_id)
        found = list(qs.order_by("municipality").values_list("municipality", flat=True).distinct())
        cache.set(key, found, 300)
    return found


def systems_at_address(*, jurisdiction, address: str, limit: int = 10) -> list[System]:
    """The systems in use on the parcels whose site address is `address`, compared normalised
    ("1234 County Road K, Madison" finds "1234 CTY RD K"). Empty when the address has no house number."""
    from powts.inventory.addresses import house_number, normalised
    from powts.inventory.choices import RETIRED_STATUSES

    wanted = normalised(address)
    number = house_number(address)
    if not number:
        return []
    # Narrowed by the house number in SQL, compared normalised in Python (a handful of rows).
    candidates = (Parcel.objects.filter(jurisdiction=jurisdiction, site_address__istartswith=number)
                  .values_list("pk", "site_address")[:500])
    parcels = [pk for pk, site in candidates if normalised(site) == wanted]
    if not parcels:
        return []
    return list(System.objects.filter(parcel_id__in=parcels).exclude(status__in=RETIRED_STATUSES)
                .select_related("parcel").order_by("system_id")[:limit])
