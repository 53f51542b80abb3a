"""A system's life as other records tell it: installed under a permit, failing, corrected, retired.

Each write is audited with the record that caused it ("replaced: permit 2026-0004, final approval
2026-06-12"), in the caller's transaction (powts.core.news runs these from the publishers').
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db import connections, router, transaction

from powts.audit.services import audit_create, audit_update, snapshot
from powts.core import server_prepared
from powts.core.news import publish
from powts.core.refusals import Refused
from powts.inventory.choices import RETIRED_STATUSES, ComponentKind, SystemStatus, SystemType
from powts.inventory.models import Component, System
from powts.inventory.search import search_text_for


@dataclass
class Installation:
    """What a final approval says was installed (read from the permit by the subscriber)."""

    jurisdiction: object
    parcel: object
    permit_number: str
    system_type: str
    installed_on: dt.date
    cause: str  # "permit 2026-0004, final approval 2026-06-12": named in every audit row
    design_flow_gpd: int | None = None
    bedrooms: int | None = None
    component_kinds: list[str] = field(default_factory=list)
    existing: System | None = None  # the system the permit modifies in place
    replaces: System | None = None  # the system the new one replaces


def _new_system_id(jurisdiction, permit_number: str) -> str:
    """The permit number, the county's handle for a system it permitted; -2, -3 ... if taken."""
    taken = set(System.objects.filter(jurisdiction=jurisdiction, system_id__startswith=permit_number)
                .values_list("system_id", flat=True))
    candidate, n = permit_number, 1
    while candidate in taken:
        n += 1
        candidate = f"{permit_number}-{n}"
    return candidate


def _permit_number_before(system: System, permit_number: str) -> str | None:
    """The system's permit number before `permit_number` was written over it (the replacing permit's
    issuance names the system it replaces), from its audit history; None when it was not."""
    from powts.audit.models import AuditEvent

    if system.permit_number != permit_number:
        return None
    events = AuditEvent.objects.filter(content_type__app_label="inventory", content_type__model="system",
                                       object_id=system.pk).order_by("-at", "-id").values_list("changes", flat=True)[:200]
    for changes in events:
        pair = (changes or {}).get("permit_number")
        if isinstance(pair, list) and len(pair) == 2 and pair[1] == permit_number:
            return pair[0] or ""
    return None


def _add_components(system: System, kinds: list[str], on: dt.date, action: str) -> None:
    have = set(system.components.filter(installed_on=on).values_list("kind", flat=True))
    for kind in kinds:
        if kind in have or kind not in ComponentKind.values:
            continue
        comp = Component(system=system, kind=kind, installed_on=on)
        comp.full_clean()
        comp.save()
        audit_create(comp, action=action)


@transaction.atomic
def system_install(*, installation: Installation, source=None) -> System:
    """Create the system a permit installed (or update the one it modified); mark the one it replaced.

    `source` (the permit) travels with the news so the apps built on the inventory can react.
    """
    i = installation
    if i.system_type not in SystemType.values:
        raise Refused(f"system_type {i.system_type!r} is not a known system type", field="system_type")
    action = f"installed: {i.cause}"
    if i.existing is not None:
        system = System.objects.select_for_update().get(pk=i.existing.pk)
        before = snapshot(system, ["system_type", "installed_on", "permit_number", "status", "design_flow_gpd", "bedrooms"])
        system.system_type, system.installed_on, system.permit_number = i.system_type, i.installed_on, i.permit_number
        system.status = SystemStatus.ACTIVE
        system.design_flow_gpd = i.design_flow_gpd or system.design_flow_gpd
        system.bedrooms = i.bedrooms or system.bedrooms
        system.full_clean()
        system.save()
        audit_update(system, before=before, action=f"modified: {i.cause}")
    else:
        parcel = i.parcel
        owner_name = parcel.owner.name if parcel.owner_id else ""
        system_id = _new_system_id(i.jurisdiction, i.permit_number)
        system = System(jurisdiction=i.jurisdiction, system_id=system_id, parcel=parcel, system_type=i.system_type,
                        installed_on=i.installed_on, permit_number=i.permit_number, design_flow_gpd=i.design_flow_gpd,
                        bedrooms=i.bedrooms, status=SystemStatus.ACTIVE,
                        search_text=search_text_for(system_id, parcel.parcel_number, parcel.site_address, parcel.municipality, owner_name))
        system.full_clean()
        system.save()
        audit_create(system, action=action)
    _add_components(system, i.component_kinds, i.installed_on, action)
    replaced = []
    if i.replaces is not None and i.replaces.pk != system.pk:
        replaced.append(system_retire(system=i.replaces, status=SystemStatus.REPLACED,
                                      cause=f"{i.cause}; replaced by system {system.system_id}", source=source,
                                      permit_number=_permit_number_before(i.replaces, i.permit_number)))
    publish("system.installed", system=system, replaced=replaced, source=source, cause=i.cause)
    return system


@transaction.atomic
def system_retire(*, system: System, status: str, cause: str, source=None, permit_number: str | None = None) -> System:
    """A system no longer in use: replaced or abandoned. Its maintenance cycle ends (the news says so).
    `permit_number`: the system's own permit number again, where the replacing permit's was written over it."""
    if status not in RETIRED_STATUSES:
        raise Refused(f"status {status!r} does not retire a system", field="status")
    given, system = system, System.objects.select_for_update().select_related("parcel", "jurisdiction").get(pk=system.pk)
    restore = permit_number is not None and permit_number != system.permit_number
    if system.status != status or restore:
        before = snapshot(system, ["status", "permit_number"])
        system.status = given.status = status
        if restore:
            system.permit_number = given.permit_number = permit_number
        system.save(update_fields=["status", "permit_number"])
        audit_update(system, before=before, action=f"{SystemStatus(status).label.lower()}: {cause}")
    publish("system.retired", system=system, source=source, cause=cause)
    return system


def system_mark_failing(*, system: System, cause: str) -> System:
    """A determination of failure: the system is failing until the order is corrected."""
    return _move_status(system, from_=SystemStatus.ACTIVE, to=SystemStatus.FAILING, action=f"failing: {cause}")


def system_clear_failing(*, system: System, cause: str) -> System:
    """The failure corrected: back in use. A replaced or abandoned system stays so."""
    return _move_status(system, from_=SystemStatus.FAILING, to=SystemStatus.ACTIVE, action=f"failure corrected: {cause}")


@transaction.atomic
def _move_status(given: System, *, from_: str, to: str, action: str) -> System:
    """The system's status from `from_` to `to`, audited; any other status is left as it is. The row is
    locked and re-read, and the caller's object follows."""
    system = System.objects.select_for_update().get(pk=given.pk)
    if system.status == from_:
        before = snapshot(system, ["status"])
        system.status = given.status = to
        system.save(update_fields=["status"])
        audit_update(system, before=before, action=action)
    return system


def _last_service_moved_on(pk: int, on: dt.date) -> int:
    """System.objects.filter(Q(last_serviced_on__isnull=True) | Q(last_serviced_on__lt=on), pk=pk)
    .update(last_serviced_on=on), the statement written once (the ORM built it on every report, a hot path).
    Conditional in the database: two reports at once must not set an older date after a newer one."""
    using = router.db_for_write(System)
    connection = connections[using]
    qn, field = connection.ops.quote_name, System._meta.get_field("last_serviced_on")
    table, col = qn(System._meta.db_table), qn(field.column)
    with server_prepared.cursor(using) as cursor:  # parsed and planned once per connection on PostgreSQL
        cursor.execute(f"UPDATE {table} SET {col} = %s WHERE ({col} IS NULL OR {col} < %s) AND {qn(System._meta.pk.column)} = %s",
                       [field.get_db_prep_save(on, connection), field.get_db_prep_value(on, connection), pk])
        return cursor.rowcount


# No savepoint: its one caller (a maintenance report) runs it in a transaction that fails as a whole.
@transaction.atomic(savepoint=False)
def system_record_service(*, system: System, on: dt.date, cause: str) -> System:
    """The last qualifying inspection or pumping the page shows: the date the maintenance cycle runs from."""
    if system.last_serviced_on is None or on > system.last_serviced_on:
        before = snapshot(system, ["last_serviced_on"])
        if _last_service_moved_on(system.pk, on):
            system.last_serviced_on = on
            audit_update(system, before=before, action=f"last serviced: {cause}")
        else:
            system.refresh_from_db(fields=["last_serviced_on"])
    return system
