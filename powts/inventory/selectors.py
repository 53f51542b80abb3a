"""Reads of the inventory, always scoped to what the user may see."""
from __future__ import annotations

from django.core.cache import cache
from django.shortcuts import get_object_or_404

from powts.audit.selectors import history_for
from powts.inventory.models import Parcel, System


def system_list(*, user):
    # No join to the county: with statistics (ANALYZE) SQLite then starts from the one-row county table and
    # sorts the whole county's systems for every page (1.4 s at 1,000,000) instead of reading the
    # (county, system id) index in order (0.1 ms). Pages that show the county load it apart.
    return System.objects.restrict(user, "view").select_related("parcel", "parcel__owner")


def system_get(*, user, pk: int) -> System:
    return get_object_or_404(system_list(user=user).select_related("jurisdiction").prefetch_related("components"), pk=pk)


def system_history(*, system: System):
    """The system's timeline, with its parcel's and current owner's changes woven in."""
    return history_for(system, system.parcel, system.parcel.owner, *system.components.all())


def municipalities(*, jurisdiction_id: int | None) -> list[str]:
    """The municipalities in a county's inventory, for the filter (cached: a DISTINCT over every parcel)."""
    key = f"powts:municipalities:{jurisdiction_id}"
    found = cache.get(key)
    if found is None:
        qs = Parcel.objects.exclude(municipality="").filter(pending=False)  # a name typed for a new parcel waits for staff
        if jurisdiction_id:
            qs = qs.filter(jurisdiction_id=jurisdiction_id)
        found = list(qs.order_by("municipality").values_list("municipality", flat=True).distinct())
        cache.set(key, found, 300)
    return found


def systems_at_address(*, jurisdiction, address: str, limit: int = 10) -> list[System]:
    """The systems in use on the parcels whose site address is `address`, compared normalised
    ("12 Lake Road, Verona" finds "12 LAKE RD"). Empty when the address has no house number.

    Candidates come from the search index (powts.inventory.search), never a scan of the county's
    parcels: the house number when it has three characters or more, else the number and the next word
    as written; a complaint whose address is written too differently goes to staff to link."""
    from powts.inventory.addresses import house_number, normalised
    from powts.inventory.choices import RETIRED_STATUSES
    from powts.inventory.search import search

    wanted = normalised(address)
    number = house_number(address)
    if not number:
        return []
    words = wanted.split()
    if len(words) < 2:
        return []
    raw = (address or "").split(",", 1)[0].lower().split()
    live = System.objects.filter(jurisdiction=jurisdiction).exclude(status__in=RETIRED_STATUSES)
    # The number and the next word as written first (selective); the number alone when that finds nothing
    # ("County Road K" against "CTY RD K").
    for query in (" ".join(raw[:2]), number if len(number) >= 3 else ""):
        if len(query) < 3:
            continue
        found = [s for s in search(live, query).select_related("parcel").order_by()[:2000] if normalised(s.parcel.site_address) == wanted]
        if found:
            return sorted(found, key=lambda s: s.system_id)[:limit]
    return []


def parcels_matching(*, jurisdiction, query: str, limit: int = 10) -> list[dict]:
    """Confirmed parcels of one county whose number starts with `query` (with or without its dashes and
    spaces) or whose system's address matches it (the search index): number, site address and municipality,
    never the owner, for an applicant to pick the parcel. Pending parcels are not offered."""
    from powts.inventory.search import _PARCEL_LIKE, compact, search

    query = (query or "").strip()
    if len(query) < 3:
        return []
    columns = ("parcel_number", "site_address", "municipality")
    parcels = Parcel.objects.filter(jurisdiction=jurisdiction, pending=False)
    found = list(parcels.filter(parcel_number__startswith=query).order_by("parcel_number").values(*columns)[:limit])
    if len(found) < limit:
        systems = search(System.objects.filter(jurisdiction=jurisdiction), query)
        numbers = {p["parcel_number"] for p in found}
        # The search index's order (powts.inventory.search): the first matches, not all of them sorted.
        rows = systems.values("parcel__parcel_number", "parcel__site_address", "parcel__municipality", "parcel__pending")
        for row in rows[:limit * 3]:
            if row["parcel__pending"] or row["parcel__parcel_number"] in numbers:
                continue
            numbers.add(row["parcel__parcel_number"])
            found.append({"parcel_number": row["parcel__parcel_number"], "site_address": row["parcel__site_address"],
                          "municipality": row["parcel__municipality"]})
            if len(found) >= limit:
                break
    if not found and _PARCEL_LIKE.match(query):  # typed without the dashes of a parcel with no system yet
        bare = compact(query)
        head = query[:2]
        for p in parcels.filter(parcel_number__startswith=head).order_by("parcel_number").values(*columns)[:2000]:
            if compact(p["parcel_number"]).startswith(bare):
                found.append(p)
                if len(found) >= limit:
                    break
    return found


def import_columns_last(*, jurisdiction) -> dict:
    """The county's file headers (normalised) -> the import's columns, as its last imports mapped them."""
    from powts.inventory.models import ImportColumnMap

    stored = ImportColumnMap.objects.filter(jurisdiction=jurisdiction).first()
    return dict(stored.columns) if stored else {}
