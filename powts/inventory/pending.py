"""Parcels named for new construction: created pending by a permit application, then confirmed by
county staff as entered, or merged into the parcel already on record that it turned out to be.

A pending parcel carries its application but is left out of the inventory's filters and counts
(selectors filter `pending=False`); its permit cannot be approved until staff confirm it, so no
system reaches the inventory on a parcel nobody checked. Other apps learn of the confirmation or the
merge through record news (powts.core.news) and move their own records.
"""
from __future__ import annotations

from django.db import transaction
from django.db.models import F, ProtectedError, Value
from django.db.models.functions import Lower, Replace

from powts.audit.services import audit_create, audit_delete, audit_update, snapshot
from powts.core import fields
from powts.core.news import publish
from powts.core.refusals import refuse_invalid
from powts.inventory.errors import InventoryRefused
from powts.inventory.models import Ownership, Parcel
from powts.inventory.search import compact

MAX_PARCEL_NUMBER = 60


def _bare_number():
    """The parcel number lower-cased without dashes, spaces, dots or slashes, as search.compact makes it."""
    expr = Lower("parcel_number")
    for sep in ("-", " ", ".", "/"):
        expr = Replace(expr, Value(sep), Value(""))
    return expr


def _same_number(jurisdiction, parcel_number: str, *, exclude=None) -> Parcel | None:
    """The county's parcel with this number, written with or without dashes and spaces."""
    parcels = Parcel.objects.filter(jurisdiction=jurisdiction)
    if exclude is not None:
        parcels = parcels.exclude(pk=exclude.pk)
    hit = parcels.filter(parcel_number=parcel_number).first()
    bare = compact(parcel_number)
    if hit is not None or not bare:
        return hit
    # Same characters, other separators ("0810-123-4567-0" vs "0810 123 4567 0"). A rare write (a new parcel, a
    # merge), so the numbers that start alike are compared whole, in the database.
    head = parcel_number.strip()[:1]
    return (parcels.filter(parcel_number__startswith=head).alias(bare=_bare_number()).filter(bare=bare)
            .order_by("pk").first())


@transaction.atomic
def parcel_create_pending(*, jurisdiction, parcel_number: str, site_address: str = "", municipality: str = "",
                          legal_description: str = "", owner=None, cause: str) -> Parcel:
    """A parcel not yet in the inventory, named by the plumber who applies for it: created pending.

    Refused, naming the field, when the number is already on record (pending or not): the applicant
    then picks that parcel instead of creating a second one."""
    number = fields.text("parcel_number", parcel_number, max_length=MAX_PARCEL_NUMBER, required=True)
    address = fields.text("site_address", site_address, max_length=200)
    place = fields.text("municipality", municipality, max_length=100)
    legal = fields.text("legal_description", legal_description, max_length=2000)
    if not address:
        raise InventoryRefused("site_address is required for a parcel not yet in the inventory (the site address "
                               "or, for a vacant lot, the road it fronts)", field="site_address")
    if not place:
        raise InventoryRefused("municipality is required for a parcel not yet in the inventory (the town, village "
                               "or city)", field="municipality")
    existing = _same_number(jurisdiction, number)
    if existing is not None:
        state = "already named in an application and waiting for the county to confirm it" if existing.pending \
            else "already in the inventory"
        raise InventoryRefused(f"parcel {existing.parcel_number} is {state}; choose it instead of entering it as new",
                               field="parcel_number")
    parcel = Parcel(jurisdiction=jurisdiction, parcel_number=number, site_address=address, municipality=place,
                    legal_description=legal, owner=owner, pending=True)
    refuse_invalid(parcel, InventoryRefused)
    parcel.save()
    if owner is not None:
        Ownership.objects.create(parcel=parcel, owner=owner)
    audit_create(parcel, action=f"parcel {number} entered as new, pending the county's confirmation ({cause})")
    return parcel


def _lock(parcel: Parcel) -> Parcel:
    return Parcel.objects.select_for_update().select_related("jurisdiction").get(pk=parcel.pk)


@transaction.atomic
def parcel_confirm(*, parcel: Parcel, reason: str) -> Parcel:
    """Staff confirm a pending parcel as entered: it joins the inventory's lists, filters and counts."""
    parcel = _lock(parcel)
    if not parcel.pending:
        raise InventoryRefused(f"parcel {parcel.parcel_number} is already confirmed", field="parcel")
    if _same_number(parcel.jurisdiction, parcel.parcel_number, exclude=parcel) is not None:
        raise InventoryRefused(f"another parcel numbered {parcel.parcel_number} is on record: merge into it instead",
                               field="parcel")
    before = snapshot(parcel, ["pending", "version"])
    parcel.pending = False
    parcel.version += 1
    parcel.save(update_fields=["pending", "version"])
    cause = f"parcel {parcel.parcel_number} confirmed by county staff" + (f": {reason.strip()}" if reason.strip() else "")
    audit_update(parcel, before=before, action=cause)
    publish("parcel.confirmed", parcel=parcel, cause=cause)
    return parcel


@transaction.atomic
def parcel_merge_pending(*, pending: Parcel, into_number: str, reason: str) -> Parcel:
    """Staff find that a pending parcel is one already on record (`into_number`): every record on the
    pending parcel moves to it (each app through record news) and the pending parcel is removed."""
    pending = _lock(pending)
    if not pending.pending:
        raise InventoryRefused(f"parcel {pending.parcel_number} is confirmed; only a pending parcel is merged",
                               field="parcel")
    number = fields.text("into_parcel_number", into_number, max_length=MAX_PARCEL_NUMBER, required=True)
    into = _same_number(pending.jurisdiction, number, exclude=pending)
    if into is None or into.pending:
        raise InventoryRefused(f"no confirmed parcel {number} in this county's inventory", field="into_parcel_number")
    cause = (f"pending parcel {pending.parcel_number} merged into parcel {into.parcel_number}"
             + (f": {reason.strip()}" if reason.strip() else ""))
    publish("parcel.merging", pending=pending, into=into, cause=cause)
    pending.ownerships.all().delete()
    audit_delete(pending, action=cause)
    try:
        with transaction.atomic():
            pending.delete()
    except ProtectedError:  # a record no app moved: refused whole, nothing merged
        raise InventoryRefused(f"parcel {pending.parcel_number} still has records that cannot be moved; "
                               "nothing was merged", field="parcel") from None
    return into


@transaction.atomic
def parcels_confirm_imported(*, jurisdiction, parcel_numbers, cause: str) -> list[Parcel]:
    """The county's own inventory file names parcels a plumber entered as new: the county's record now
    holds them, so they are confirmed, as staff would confirm them (parcel_confirm).

    Set-based, for the import: one query reads the county's pending parcels (a handful at a time, from a
    partial index) and keeps those among `parcel_numbers`; one UPDATE confirms them all; each is audited and
    announced (parcel.confirmed). The query does not grow with the file: a million numbers are not sent
    back to the database that was just given them."""
    numbers = parcel_numbers if isinstance(parcel_numbers, (set, frozenset)) else set(parcel_numbers)
    if not numbers:
        return []
    found = [p for p in Parcel.objects.select_for_update().filter(jurisdiction=jurisdiction, pending=True).order_by("pk")
             if p.parcel_number in numbers]
    if not found:
        return []
    Parcel.objects.filter(pk__in=[p.pk for p in found]).update(pending=False, version=F("version") + 1)
    for parcel in found:
        before = snapshot(parcel, ["pending", "version"])
        parcel.pending, parcel.version = False, parcel.version + 1
        text = f"parcel {parcel.parcel_number} confirmed: named in the county's inventory file ({cause})"
        audit_update(parcel, before=before, action=text)
        publish("parcel.confirmed", parcel=parcel, cause=text)
    return found
