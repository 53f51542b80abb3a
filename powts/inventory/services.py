"""Every write to the inventory goes through here, and every write is audited in its transaction."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from powts.audit.services import audit_create, audit_delete, audit_update, build_event, snapshot
from powts.core.refusals import refuse_invalid
from powts.inventory.choices import ComponentKind, OwnerKind, SystemStatus, SystemType
from powts.inventory.errors import InventoryRefused
from powts.inventory.models import Assignment, Component, Owner, Ownership, Parcel, System
from powts.inventory.search import search_text_for
from powts.inventory.versions import claim_version, versioned_save, with_reason

SYSTEM_EDITABLE = ("system_type", "status", "installed_on", "installed_on_precision", "last_serviced_on", "design_flow_gpd", "bedrooms",
                   "structures_served", "permit_number")


class EditRefused(InventoryRefused):
    """An edit that breaks a rule of the inventory (a date order, a retired system, a number already used)."""


def check_system_dates(system: System) -> None:
    """A system is serviced after it is installed (the import refuses the same row: importing/rows.py)."""
    if system.installed_on and system.last_serviced_on and system.last_serviced_on < system.installed_on:
        raise EditRefused(f"installed_on {system.installed_on.isoformat()} is after the last service "
                          f"(last_serviced_on {system.last_serviced_on.isoformat()}): last_serviced_on is before installed_on",
                          field="installed_on")


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
    refuse_invalid(owner, InventoryRefused)
    owner.save()
    audit_create(owner, action=action)
    return owner


@transaction.atomic
def parcel_change_owner(*, parcel: Parcel, owner: Owner, action: str = "owner changed", on=None, seen_version=None) -> Parcel:
    """Close the current ownership and open the new one: the parcel keeps its ownership history.
    `seen_version`: the parcel's version the editor saw (a sale entered on its page)."""
    if parcel.owner_id == owner.pk:
        return parcel
    on = on or timezone.localdate()
    before = snapshot(parcel, ["owner_id", "version"])
    claim_version(parcel, seen_version)
    Ownership.objects.filter(parcel=parcel, ended_on__isnull=True).update(ended_on=on)
    Ownership.objects.create(parcel=parcel, owner=owner, started_on=on)
    previous = parcel.owner.name if parcel.owner_id else None
    parcel.owner = owner
    parcel.save(update_fields=["owner"])
    event = audit_update(parcel, before=before, action=action)
    if event:  # the names, not just ids, for the timeline
        event.changes = {"owner": [previous, owner.name], "version": event.changes.get("version")}
        event.save(update_fields=["changes"])
    refresh_search_text(parcel=parcel)
    return parcel


@transaction.atomic
def system_update(*, system: System, data: dict, action: str = "system edited", version: int | None = None,
                  reason: str = "") -> System:
    """Change a system's own fields. `version` is the one the editor saw (web form, API): a stale one is
    refused with what changed meanwhile (StaleEdit). Internal callers (permits, enforcement) pass none."""
    _only(data, SYSTEM_EDITABLE)
    # a status change alone leaves old records as they are; a date change is checked against the other date
    dated = {"installed_on", "last_serviced_on"} & set(data)
    return versioned_save(system, data, version=version, refusal=InventoryRefused, action=action, reason=reason,
                          check=check_system_dates if dated else None)


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
    parcel_fields = {k: getattr(row, k) for k in ("site_address", "municipality", "latitude", "longitude", "legal_description",
                                                  "sewered", "site_zip") if k in differences}
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
    if getattr(row, "language", "") and parcel.owner_id and parcel.owner.language != row.language:
        owner = parcel.owner
        before = snapshot(owner, ["language"])
        owner.language = row.language
        owner.save(update_fields=["language"])
        audit_update(owner, before=before, action=action)

    fields = [f for f in ("system_type", "status", "installed_on", "installed_on_precision", "last_serviced_on",
                          "design_flow_gpd", "bedrooms", "permit_number", "extra") if f in differences]
    before = snapshot(system, [*fields, "parcel_id", "version"])
    claim_version(system, None)  # an editor with the page open is told the import changed it
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
    """A new system; its parcel and owner are found or created. Raises InventoryRefused naming the field."""
    if System.objects.filter(jurisdiction=jurisdiction, system_id=system_id).exists():
        raise InventoryRefused(f"system_id {system_id!r} is already in the inventory", field="system_id")
    parcel = Parcel.objects.filter(jurisdiction=jurisdiction, parcel_number=parcel_number).first()
    owner = owner_get_or_create(jurisdiction=jurisdiction, name=owner_name, mailing_address=owner_mailing_address, action=action)
    if parcel is None:
        parcel = Parcel(jurisdiction=jurisdiction, parcel_number=parcel_number, site_address=site_address,
                        municipality=municipality, site_zip=site_zip, owner=owner)
        refuse_invalid(parcel, InventoryRefused)
        parcel.save()
        Ownership.objects.create(parcel=parcel, owner=owner)
        audit_create(parcel, action=action)
    else:
        parcel_change_owner(parcel=parcel, owner=owner, action=f"owner changed ({action})")
    system = System(jurisdiction=jurisdiction, system_id=system_id, parcel=parcel, system_type=system_type,
                    search_text=search_text_for(system_id, parcel.parcel_number, parcel.site_address, parcel.municipality, owner.name),
                    **fields)
    refuse_invalid(system, InventoryRefused)
    system.save()
    audit_create(system, action=action)
    return system


@transaction.atomic
def assignment_create(*, system: System, user, on=None, note: str = "") -> Assignment:
    """The county gives a contractor work on a system: they may then read it, its owner and its history."""
    from powts.accounts.policies import is_contractor

    if not is_contractor(user):
        raise InventoryRefused(f"{user.username} is not a licensed contractor", field="user")
    found = Assignment.objects.filter(system=system, user=user).first()
    if found:
        return found
    assignment = Assignment(system=system, user=user, assigned_on=on or timezone.localdate(), note=note)
    refuse_invalid(assignment, InventoryRefused)
    assignment.save()
    audit_create(assignment, action=f"system assigned to {user.display_name}")
    return assignment


@transaction.atomic
def assignment_end(*, assignment: Assignment) -> None:
    from powts.audit.services import audit_delete

    audit_delete(assignment, action=f"assignment to {assignment.user.display_name} ended")
    assignment.delete()


# ---------------------------------------------------------------- edits by county staff, from each record's page
# Each takes the version the editor saw and the reason they typed; each change is audited with that reason.

RETIRED = (SystemStatus.ABANDONED, SystemStatus.REPLACED)
COMPONENT_EDITABLE = ("kind", "capacity_gallons", "manufacturer", "model", "installed_on")
PARCEL_EDITABLE = ("parcel_number", "legal_description", "site_address", "municipality", "sewered", "latitude", "longitude")
OWNER_EDITABLE = ("name", "kind", "mailing_address", "email", "phone")


def _only(data: dict, allowed: tuple[str, ...]) -> None:
    for field in data:
        if field not in allowed:
            raise EditRefused(f"{field} cannot be changed here", field=field)


def _system_step(system: System, *, version, action: str, changes: dict) -> None:
    """A change to a part of the system (a component) moves the system's version, in the system's history."""
    before = system.version
    claim_version(system, version)
    build_event(system, action=action, verb="update", changes={**changes, "version": [before, system.version]}).save()


def _refuse_retired(system: System) -> None:
    if system.status in RETIRED:
        raise EditRefused(f"{system} is {system.get_status_display().lower()}: the components of a retired system "
                          "are kept as they were; change its status first if it is in use again", field=None)


@transaction.atomic
def component_add(*, system: System, data: dict, version, reason: str) -> Component:
    _only(data, COMPONENT_EDITABLE)
    _refuse_retired(system)
    component = Component(system=system, **data)
    refuse_invalid(component, EditRefused)
    component.save()
    action = with_reason("component added", reason)
    _system_step(system, version=version, action=action, changes={"component": [None, str(component)]})
    audit_create(component, action=action)
    return component


@transaction.atomic
def component_update(*, component: Component, data: dict, version, reason: str) -> Component:
    _only(data, COMPONENT_EDITABLE)
    system = component.system
    _refuse_retired(system)
    before, label = snapshot(component, list(data)), str(component)
    for field, value in data.items():
        setattr(component, field, value)
    refuse_invalid(component, EditRefused)
    action = with_reason("component edited", reason)
    _system_step(system, version=version, action=action, changes={"component": [label, str(component)]})
    component.save()
    audit_update(component, before=before, action=action)
    return component


@transaction.atomic
def component_remove(*, component: Component, version, reason: str) -> None:
    system = component.system
    _refuse_retired(system)
    action = with_reason("component removed", reason)
    _system_step(system, version=version, action=action, changes={"component": [str(component), None]})
    audit_delete(component, action=action)
    component.delete()


@transaction.atomic
def parcel_update(*, parcel: Parcel, data: dict, version, reason: str) -> Parcel:
    """Legal description, sewered flag, address, municipality, coordinates, even the parcel number (a
    re-numbering by the county's land records office), unique in the county."""
    _only(data, PARCEL_EDITABLE)
    number = data.get("parcel_number")
    if number is not None and number != parcel.parcel_number and \
            Parcel.objects.filter(jurisdiction_id=parcel.jurisdiction_id, parcel_number=number).exclude(pk=parcel.pk).exists():
        raise EditRefused(f"parcel_number {number!r} is already used by another parcel in this county", field="parcel_number")
    if ("latitude" in data or "longitude" in data) and \
            (data.get("latitude", parcel.latitude) is None) != (data.get("longitude", parcel.longitude) is None):
        raise EditRefused("latitude and longitude go together: give both or neither",
                          field="latitude" if data.get("latitude", parcel.latitude) is None else "longitude")
    versioned_save(parcel, data, version=version, refusal=EditRefused, action="parcel edited", reason=reason)
    refresh_search_text(parcel=parcel)
    return parcel


@transaction.atomic
def owner_update(*, owner: Owner, data: dict, version, reason: str) -> Owner:
    """Name, kind, mailing address (where notices go), email and phone."""
    _only(data, OWNER_EDITABLE)
    versioned_save(owner, data, version=version, refusal=EditRefused, action="owner edited", reason=reason)
    if "name" in data:
        for parcel in Parcel.objects.filter(owner=owner).select_related("owner"):
            refresh_search_text(parcel=parcel)
    return owner


@transaction.atomic
def owner_create(*, jurisdiction, data: dict, reason: str) -> Owner:
    """A new owner record (a buyer), audited with the reason."""
    _only(data, OWNER_EDITABLE)
    data = {"kind": owner_kind(data.get("name", "")), **{k: v for k, v in data.items() if v is not None}}
    owner = Owner(jurisdiction=jurisdiction, **data)
    refuse_invalid(owner, EditRefused)
    owner.save()
    audit_create(owner, action=with_reason("owner added", reason))
    return owner


@transaction.atomic
def ownership_transfer(*, parcel: Parcel, on, version, reason: str, owner: Owner | None = None,
                       buyer: dict | None = None) -> Ownership:
    """A sale: the current ownership ends on `on` and the buyer's starts that day. The buyer is `owner`, or
    from `buyer` (name, mailing address, email, phone): the county's owner record with that name and
    mailing address (the import's rule for one owner), or a new one made through owner_create."""
    if (owner is None) == (not buyer):
        raise EditRefused("name the buyer", field="name")
    if on is None:
        raise EditRefused("sold_on is required", field="sold_on")
    if on > timezone.localdate():
        raise EditRefused(f"sold_on {on.isoformat()} is in the future", field="sold_on")
    current = Ownership.objects.filter(parcel=parcel, ended_on__isnull=True).order_by("-started_on").first()
    if current and current.started_on and on < current.started_on:
        raise EditRefused(f"sold_on {on.isoformat()} is before the current owner's ownership began "
                          f"({current.started_on.isoformat()})", field="sold_on")
    if owner is None:
        owner = Owner.objects.filter(jurisdiction_id=parcel.jurisdiction_id, name=buyer.get("name", ""),
                                     mailing_address=buyer.get("mailing_address", "")).first()
    if owner is not None:
        if owner.jurisdiction_id != parcel.jurisdiction_id:
            raise EditRefused("that owner is not in this county's records", field="name")
        if owner.pk == parcel.owner_id:
            raise EditRefused(f"{owner.name} already owns this parcel", field="name")
    else:
        owner = owner_create(jurisdiction=parcel.jurisdiction, data=buyer, reason=reason)
    parcel_change_owner(parcel=parcel, owner=owner, action=with_reason(f"sold to {owner.name} on {on.isoformat()}", reason),
                        on=on, seen_version=version)
    return Ownership.objects.filter(parcel=parcel, owner=owner, ended_on__isnull=True).latest("id")


def import_columns_remember(*, jurisdiction, columns: dict, action: str = "column mapping used in an import") -> None:
    """Keep the mapping of the county's file headers that an import used, for the county's next upload. Only the
    headers that were mapped are kept; earlier ones of other files stay (a county has more than one export)."""
    from powts.inventory.importing.columns import normalise_header
    from powts.inventory.models import ImportColumnMap

    if not columns:
        return
    with transaction.atomic():
        stored, created = ImportColumnMap.objects.select_for_update().get_or_create(
            jurisdiction=jurisdiction, defaults={"updated_at": timezone.now()})
        before = snapshot(stored)
        merged = {**stored.columns, **{normalise_header(k): normalise_header(v) for k, v in columns.items()}}
        if not created and merged == stored.columns:
            return
        stored.columns, stored.updated_at = merged, timezone.now()
        stored.save()
        if created:
            audit_create(stored, action=action)
        else:
            audit_update(stored, before=before, action=action)
