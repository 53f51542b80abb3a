"""Every write to the inventory goes through here, and every write is audited in its transaction."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from powts.audit.services import audit_create, audit_update, snapshot
from powts.inventory.choices import ComponentKind, OwnerKind, SystemType
from powts.inventory.models import Assignment, Component, Owner, Ownership, Parcel, System
from powts.inventory.search import search_text_for

SYSTEM_EDITABLE = ("system_type", "status", "installed_on", "last_serviced_on", "design_flow_gpd", "bedrooms",
                   "structures_served", "permit_number")


BUSINESS_WORDS = (" llc", " inc", " corp", " co.", " company", " church", " club", " association", " trust", " farms")


def owner_kind(name: str) -> str:
    """A business when the name says so ("Sunset Supper Club LLC"); a person otherwise."""
    lowered = f" {name.lower()}"
    return OwnerKind.BUSINESS if any(w in lowered for w in BUSINESS_WORDS) else OwnerKind.PERSON


def refresh_search_text(*, parcel: Parcel) -> None:
    """Keep the search index in step after a parcel's address or owner changes."""
    owner_name = parcel.owner.name if parcel.owner_id else ""
    for system in System.objects.filter(parcel=parcel):
        text = search_text_for(system.system_id, parcel.parcel_number, parcel.site_address, parcel.municipality, owner_name)
        if text != system.search_text:
            System.objects.filter(pk=system.pk).update(search_text=text)


def owner_get_or_create(*, jurisdiction, name: str, mailing_address: str = "", action: str) -> Owner:
    owner = Owner.objects.filter(jurisdiction=jurisdiction, name=name, mailing_address=mailing_address).first()
    if owner:
        return owner
    owner = Owner(jurisdiction=jurisdiction, name=name, mailing_address=mailing_address, kind=owner_kind(name))
    owner.full_clean()
    owner.save()
    audit_create(owner, action=action)
    return owner


@transaction.atomic
def parcel_change_owner(*, parcel: Parcel, owner: Owner, action: str = "owner changed", on=None) -> Parcel:
    """Close the current ownership and open the new one: the parcel keeps its ownership history."""
    if parcel.owner_id == owner.pk:
        return parcel
    on = on or timezone.localdate()
    Ownership.objects.filter(parcel=parcel, ended_on__isnull=True).update(ended_on=on)
    Ownership.objects.create(parcel=parcel, owner=owner, started_on=on)
    before = snapshot(parcel, ["owner_id"])
    previous = parcel.owner.name if parcel.owner_id else None
    parcel.owner = owner
    parcel.save(update_fields=["owner"])
    event = audit_update(parcel, before=before, action=action)
    if event:  # the names, not just ids, for the timeline
        event.changes = {"owner": [previous, owner.name]}
        event.save(update_fields=["changes"])
    refresh_search_text(parcel=parcel)
    return parcel


@transaction.atomic
def system_update(*, system: System, data: dict, action: str = "system edited") -> System:
    before = snapshot(system, [f for f in data if f in SYSTEM_EDITABLE])
    for field, value in data.items():
        if field not in SYSTEM_EDITABLE:
            raise ValueError(f"{field} cannot be changed here")
        setattr(system, field, value)
    system.full_clean()
    system.save()
    audit_update(system, before=before, action=action)
    return system


def _set_tank_capacity(system: System, gallons: int | None, action: str) -> None:
    kinds = (ComponentKind.SEPTIC_TANK, ComponentKind.HOLDING_TANK)
    tank = system.components.filter(kind__in=kinds).order_by("id").first()
    if tank is None and gallons is not None:
        kind = ComponentKind.HOLDING_TANK if system.system_type == SystemType.HOLDING_TANK else ComponentKind.SEPTIC_TANK
        tank = Component.objects.create(system=system, kind=kind, capacity_gallons=gallons, installed_on=system.installed_on)
        audit_create(tank, action=action)
    elif tank is not None:
        before = snapshot(tank, ["capacity_gallons"])
        tank.capacity_gallons = gallons
        tank.save(update_fields=["capacity_gallons"])
        audit_update(tank, before=before, action=action)


@transaction.atomic
def system_apply_import_row(*, system_id: int, row, differences: dict, action: str) -> System:
    """Bring a stored system in line with an import row that differs from it."""
    system = System.objects.select_related("parcel__owner", "jurisdiction").get(pk=system_id)
    parcel = system.parcel
    if "parcel_id" in differences:
        parcel = Parcel.objects.filter(jurisdiction=system.jurisdiction, parcel_number=row.parcel_id).first()
        if parcel is None:
            parcel = Parcel(jurisdiction=system.jurisdiction, parcel_number=row.parcel_id)
            parcel.save()
            audit_create(parcel, action=action)
    parcel_fields = {k: getattr(row, k) for k in ("site_address", "municipality", "latitude", "longitude", "site_zip")
                     if k in differences}
    if parcel_fields:
        before = snapshot(parcel, list(parcel_fields))
        for k, v in parcel_fields.items():
            setattr(parcel, k, v)
        parcel.save()
        audit_update(parcel, before=before, action=action)
    if "owner_name" in differences or "owner_mailing_address" in differences or parcel.owner_id is None:
        owner = owner_get_or_create(jurisdiction=system.jurisdiction, name=row.owner_name,
                                    mailing_address=row.owner_mailing_address, action=action)
        parcel_change_owner(parcel=parcel, owner=owner, action=f"owner changed ({action})")

    fields = [f for f in ("system_type", "status", "installed_on", "last_serviced_on", "design_flow_gpd", "bedrooms",
                          "permit_number", "extra") if f in differences]
    before = snapshot(system, [*fields, "parcel_id"])
    for f in fields:
        setattr(system, f, getattr(row, f))
    system.parcel = parcel
    system.save()
    audit_update(system, before=before, action=action)
    if "tank_capacity_gallons" in differences:
        _set_tank_capacity(system, row.tank_capacity_gallons, action)
    refresh_search_text(parcel=parcel)
    return system


@transaction.atomic
def system_create(*, jurisdiction, system_id: str, parcel_number: str, system_type: str, owner_name: str,
                  owner_mailing_address: str = "", site_address: str = "", municipality: str = "",
                  site_zip: str = "", action: str = "system added", **fields) -> System:
    """A new system; its parcel and owner are found or created. Raises ValidationError naming the field."""
    from django.core.exceptions import ValidationError

    if System.objects.filter(jurisdiction=jurisdiction, system_id=system_id).exists():
        raise ValidationError({"system_id": f"system_id {system_id!r} is already in the inventory"})
    parcel = Parcel.objects.filter(jurisdiction=jurisdiction, parcel_number=parcel_number).first()
    owner = owner_get_or_create(jurisdiction=jurisdiction, name=owner_name, mailing_address=owner_mailing_address, action=action)
    if parcel is None:
        parcel = Parcel(jurisdiction=jurisdiction, parcel_number=parcel_number, site_address=site_address,
                        municipality=municipality, site_zip=site_zip, owner=owner)
        parcel.full_clean()
        parcel.save()
        Ownership.objects.create(parcel=parcel, owner=owner)
        audit_create(parcel, action=action)
    else:
        parcel_change_owner(parcel=parcel, owner=owner, action=f"owner changed ({action})")
    system = System(jurisdiction=jurisdiction, system_id=system_id, parcel=parcel, system_type=system_type,
                    search_text=search_text_for(system_id, parcel.parcel_number, parcel.site_address, parcel.municipality, owner.name),
                    **fields)
    system.full_clean()
    system.save()
    audit_create(system, action=action)
    return system


@transaction.atomic
def assignment_create(*, system: System, user, on=None, note: str = "") -> Assignment:
    """The county gives a contractor work on a system: they may then read it, its owner and its history."""
    from django.core.exceptions import ValidationError

    from powts.accounts.policies import is_contractor

    if not is_contractor(user):
        raise ValidationError({"user": f"{user.username} is not a licensed contractor"})
    found = Assignment.objects.filter(system=system, user=user).first()
    if found:
        return found
    assignment = Assignment(system=system, user=user, assigned_on=on or timezone.localdate(), note=note)
    assignment.full_clean()
    assignment.save()
    audit_create(assignment, action=f"system assigned to {user.display_name}")
    return assignment


@transaction.atomic
def assignment_end(*, assignment: Assignment) -> None:
    from powts.audit.services import audit_delete

    audit_delete(assignment, action=f"assignment to {assignment.user.display_name} ended")
    assignment.delete()
