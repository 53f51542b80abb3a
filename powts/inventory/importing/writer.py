"""Writes one chunk of checked rows: new systems set-based, changed ones through the services."""
from __future__ import annotations

import hashlib

import orjson
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.utils import timezone

from powts.audit.context import current
from powts.audit.models import AuditEvent
from powts.core.bulk import allocate_ids, insert_rows
from powts.inventory import services
from powts.inventory.choices import ComponentKind, SystemType
from powts.inventory.models import Component, Owner, Ownership, Parcel, System
from powts.inventory.search import BulkIndexer, search_text_for
from powts.kernel.precision import display
from powts.inventory.services import owner_kind

# file column -> (what it sets) for comparing a row with what is stored
SYSTEM_FIELDS = ("system_type", "status", "installed_on", "installed_on_precision", "last_serviced_on", "design_flow_gpd",
                 "bedrooms", "permit_number")
# fields a file sets without a column of the same name: the column that sets them
SET_BY = {"installed_on_precision": "installed_on"}
PARCEL_FIELDS = {"site_address": "site_address", "municipality": "municipality", "latitude": "latitude", "longitude": "longitude",
                 "legal_description": "legal_description", "sewered": "sewered", "site_zip": "site_zip"}
TANK_KINDS = (ComponentKind.SEPTIC_TANK, ComponentKind.HOLDING_TANK)
SAMPLE = 50  # rows of each outcome an import preview shows


def _shown(value) -> str:
    if value is None or value == "" or value == {}:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def created_sample(row, line) -> dict:
    return {"line": line, "system_id": row.system_id, "parcel_id": row.parcel_id, "owner_name": row.owner_name,
            "system_type": row.system_type, "site_address": row.site_address,
            "installed": display(row.installed_on, row.installed_on_precision, style="iso")}


def updated_sample(row, stored: dict, differences: dict, line) -> dict:
    """The changed columns as old -> new, dates as precisely as they are known."""
    changes = []
    for column, (old, new) in differences.items():
        if column == "installed_on_precision":
            if "installed_on" in differences:
                continue
            column, old, new = "installed_on", stored["installed_on"], row.installed_on
        if column == "installed_on":
            old = display(old, stored["installed_on_precision"], style="iso")
            new = display(new, row.installed_on_precision, style="iso")
        changes.append({"column": column, "old": _shown(old), "new": _shown(new)})
    return {"line": line, "system_id": row.system_id, "changes": changes}


def owner_key(name: str, mailing_address: str) -> bytes:
    return hashlib.blake2b(f"{name}\x1f{mailing_address}".encode(), digest_size=16).digest()


def tank_kind(system_type: str) -> str:
    return ComponentKind.HOLDING_TANK if system_type == SystemType.HOLDING_TANK else ComponentKind.SEPTIC_TANK


class ChunkWriter:
    def __init__(self, *, jurisdiction, action: str, provided: set[str]):
        self.jurisdiction = jurisdiction
        self.action = action
        self.provided = provided
        # owner key digest -> id for every owner this import met: 16-byte digests, not the names and
        # addresses themselves, keep a million-owner import's memory flat.
        self.owner_cache: dict[bytes, int] = {}
        # A first import into an empty county has nothing to look up: every owner is in owner_cache.
        self.had_owners = Owner.objects.filter(jurisdiction=jurisdiction).exists()
        self.had_systems = None  # asked once, by compare()
        ctx = current()
        actor = ctx.resolved_actor()
        self.actor_id = getattr(actor, "pk", None)
        self.actor_label = actor.username if self.actor_id else ctx.actor_label
        self.channel = ctx.channel
        self.batch = ctx.batch
        self.ct = {m: ContentType.objects.get_for_model(m).pk for m in (System, Parcel, Owner)}
        self.indexer = BulkIndexer()

    @staticmethod
    def to_json(value) -> str:
        """JSON text for a JSON column (PostgreSQL casts the untyped text to jsonb); dates as ISO."""
        return orjson.dumps(value, default=str).decode()

    # -- reading what is there -------------------------------------------------------------
    def _existing(self, rows) -> dict[str, dict]:
        found = {
            s["system_id"]: s
            for s in System.objects.filter(jurisdiction=self.jurisdiction, system_id__in=[r.system_id for r in rows]).values(
                "id", "system_id", *SYSTEM_FIELDS, "extra", "parcel_id", "parcel__parcel_number",
                "parcel__site_address", "parcel__municipality", "parcel__latitude", "parcel__longitude", "parcel__site_zip",
                "parcel__legal_description", "parcel__sewered", "parcel__owner__name", "parcel__owner__mailing_address",
                "parcel__owner__language",
            )
        }
        if found:
            tanks = Component.objects.filter(system_id__in=[s["id"] for s in found.values()], kind__in=TANK_KINDS)
            capacity = {}
            for system_id, gallons in tanks.order_by("id").values_list("system_id", "capacity_gallons"):
                capacity.setdefault(system_id, gallons)
            for s in found.values():
                s["tank_capacity_gallons"] = capacity.get(s["id"])
        return found

    def _differences(self, row, stored: dict) -> dict:
        """{column: (stored, incoming)} for the columns this file provides."""
        out = {}
        for name in SYSTEM_FIELDS:
            if SET_BY.get(name, name) in self.provided and not (name == "status" and row.status is None):
                if stored[name] != getattr(row, name):
                    out[name] = (stored[name], getattr(row, name))
        if stored["parcel__parcel_number"] != row.parcel_id:
            out["parcel_id"] = (stored["parcel__parcel_number"], row.parcel_id)
        for column, attr in PARCEL_FIELDS.items():
            if column in self.provided and stored[f"parcel__{attr}"] != getattr(row, column):
                out[column] = (stored[f"parcel__{attr}"], getattr(row, column))
        if stored["parcel__owner__name"] != row.owner_name:
            out["owner_name"] = (stored["parcel__owner__name"], row.owner_name)
        if "owner_mailing_address" in self.provided and (stored["parcel__owner__mailing_address"] or "") != row.owner_mailing_address:
            out["owner_mailing_address"] = (stored["parcel__owner__mailing_address"], row.owner_mailing_address)
        if "language" in self.provided and row.language and stored["parcel__owner__language"] != row.language:
            out["language"] = (stored["parcel__owner__language"], row.language)
        if "tank_capacity_gallons" in self.provided and stored["tank_capacity_gallons"] != row.tank_capacity_gallons:
            out["tank_capacity_gallons"] = (stored["tank_capacity_gallons"], row.tank_capacity_gallons)
        if stored["extra"] != row.extra:
            out["extra"] = (stored["extra"], row.extra)
        return out

    # Set by the import's check phase: {"created": [...], "updated": [...]} collects the first SAMPLE rows of
    # each for the preview; `lines` maps system_id -> line.
    samples: dict | None = None
    lines: dict | None = None

    def compare(self, rows) -> tuple[list, dict]:
        """Without writing: the rows that would create or change a system, and the counts write() would return."""
        samples, lines = self.samples, self.lines
        if self.had_systems is None:
            self.had_systems = System.objects.filter(jurisdiction=self.jurisdiction).exists()
        # A county's first import has nothing to compare with (what another writer adds meanwhile is
        # found when the write transaction compares again).
        existing = self._existing(rows) if self.had_systems else {}
        to_write, created, updated = [], 0, 0
        for row in rows:
            stored = existing.get(row.system_id)
            if stored is None:
                created += 1
                if samples is not None and len(samples["created"]) < SAMPLE:
                    samples["created"].append(created_sample(row, (lines or {}).get(row.system_id)))
            elif differences := self._differences(row, stored):
                updated += 1
                if samples is not None and len(samples["updated"]) < SAMPLE:
                    samples["updated"].append(updated_sample(row, stored, differences, (lines or {}).get(row.system_id)))
            else:
                continue
            to_write.append(row)
        return to_write, {"created": created, "updated": updated, "unchanged": len(rows) - len(to_write)}

    # -- writing ---------------------------------------------------------------------------
    def write(self, rows) -> dict:
        # adapted once per chunk (on SQLite a string), not once per audit row
        self.now = connection.ops.adapt_datetimefield_value(timezone.now())
        existing = self._existing(rows)
        new_rows, updated, unchanged = [], 0, 0
        for row in rows:
            stored = existing.get(row.system_id)
            if stored is None:
                new_rows.append(row)
                continue
            differences = self._differences(row, stored)
            if differences:
                services.system_apply_import_row(system_id=stored["id"], row=row, differences=differences, action=self.action)
                updated += 1
            else:
                unchanged += 1
        if new_rows:
            self._create(new_rows)
        return {"created": len(new_rows), "updated": updated, "unchanged": unchanged}

    def _owner_ids(self, rows, events) -> dict[tuple[str, str], int]:
        cache = self.owner_cache
        keys = {(r.owner_name, r.owner_mailing_address) for r in rows}
        keys = {k for k in keys if owner_key(*k) not in cache}
        if keys and self.had_owners:
            for oid, name, mailing in Owner.objects.filter(
                jurisdiction=self.jurisdiction, name__in={k[0] for k in keys}, mailing_address__in={k[1] for k in keys},
            ).values_list("id", "name", "mailing_address"):
                if (name, mailing) in keys:
                    cache.setdefault(owner_key(name, mailing), oid)
        missing = sorted(k for k in keys if owner_key(*k) not in cache)
        ids = allocate_ids(Owner, len(missing))
        languages = {}
        for r in rows:
            if r.language:
                languages.setdefault((r.owner_name, r.owner_mailing_address), r.language)
        owner_rows = []
        for oid, (name, mailing) in zip(ids, missing):
            kind = owner_kind(name)
            language = languages.get((name, mailing), "en")
            owner_rows.append((oid, self.jurisdiction.pk, name, kind, mailing, "", "", language))
            cache[owner_key(name, mailing)] = oid
            after = {"name": name, "kind": kind, "mailing_address": mailing}
            if language != "en":
                after["language"] = language
            events.append(self._event(Owner, oid, name, after))
        insert_rows(Owner, ["id", "jurisdiction_id", "name", "kind", "mailing_address", "email", "phone", "language"], owner_rows)
        return {(r.owner_name, r.owner_mailing_address): cache[owner_key(r.owner_name, r.owner_mailing_address)] for r in rows}

    def _parcel_ids(self, rows, owners, events) -> tuple[dict[str, int], dict[str, int | None]]:
        """Parcel ids for the rows, creating the new ones; and the owner of each parcel that was already there."""
        numbers = {r.parcel_id for r in rows}
        found, prior_owner = {}, {}
        for number, pid, owner_id in Parcel.objects.filter(
            jurisdiction=self.jurisdiction, parcel_number__in=numbers
        ).values_list("parcel_number", "id", "owner_id"):
            found[number], prior_owner[number] = pid, owner_id
        parcel_rows, ownership_rows, first = [], [], {}
        for r in rows:
            if r.parcel_id not in found and r.parcel_id not in first:
                first[r.parcel_id] = r
        ids = allocate_ids(Parcel, len(first))
        own_ids = allocate_ids(Ownership, len(first))
        now = self.now
        for pid, oid_, (number, r) in zip(ids, own_ids, first.items()):
            owner_id = owners[(r.owner_name, r.owner_mailing_address)]
            parcel_rows.append((pid, self.jurisdiction.pk, number, r.legal_description, r.site_address, r.municipality, r.sewered,
                                r.latitude, r.longitude, owner_id, r.site_zip))
            ownership_rows.append((oid_, pid, owner_id, None, None, now))
            found[number] = pid
            events.append(self._event(Parcel, pid, f"Parcel {number}", {
                "parcel_number": number, "site_address": r.site_address, "municipality": r.municipality,
                "latitude": r.latitude, "longitude": r.longitude, "owner": r.owner_name,
                "legal_description": r.legal_description, "sewered": r.sewered or None, "site_zip": r.site_zip,
            }))
        insert_rows(Parcel, ["id", "jurisdiction_id", "parcel_number", "legal_description", "site_address", "municipality",
                             "sewered", "latitude", "longitude", "owner_id", "site_zip"], parcel_rows)
        insert_rows(Ownership, ["id", "parcel_id", "owner_id", "started_on", "ended_on", "recorded_at"], ownership_rows)
        return found, prior_owner

    def _create(self, rows) -> None:
        events: list[tuple] = []
        owners = self._owner_ids(rows, events)
        parcels, prior_owner = self._parcel_ids(rows, owners, events)
        # A new system on a parcel the inventory already had, under another owner, is an owner change.
        for r in rows:
            owner_id = owners[(r.owner_name, r.owner_mailing_address)]
            if r.parcel_id in prior_owner and prior_owner[r.parcel_id] != owner_id:
                services.parcel_change_owner(parcel=Parcel.objects.get(pk=parcels[r.parcel_id]), owner=Owner.objects.get(pk=owner_id),
                                             action=f"owner changed ({self.action})")
                prior_owner[r.parcel_id] = owner_id
        ids = allocate_ids(System, len(rows))
        tanks = [r for r in rows if r.tank_capacity_gallons is not None]
        tank_ids = iter(allocate_ids(Component, len(tanks)))
        system_rows, component_rows = [], []
        for sid, r in zip(ids, rows):
            extra = self.to_json(r.extra)
            system_rows.append((
                sid, self.jurisdiction.pk, r.system_id, parcels[r.parcel_id], r.system_type, r.status, r.installed_on,
                r.installed_on_precision, r.last_serviced_on, r.design_flow_gpd, r.bedrooms, "", r.permit_number, extra,
                search_text_for(r.system_id, r.parcel_id, r.site_address, r.municipality, r.owner_name),
            ))
            after = {"system_id": r.system_id, "parcel": r.parcel_id, "owner": r.owner_name, "system_type": r.system_type,
                     "status": r.status, "installed_on": r.installed_on,
                     "installed_on_precision": r.installed_on_precision if r.installed_on_precision != "day" else None,
                     "last_serviced_on": r.last_serviced_on,
                     "design_flow_gpd": r.design_flow_gpd, "bedrooms": r.bedrooms, "permit_number": r.permit_number}
            if r.tank_capacity_gallons is not None:
                component_rows.append((next(tank_ids), sid, tank_kind(r.system_type), r.tank_capacity_gallons, "", "", r.installed_on,
                                       r.installed_on_precision))
                after["tank_capacity_gallons"] = r.tank_capacity_gallons
            if r.extra:
                after["extra"] = r.extra
            events.append(self._event(System, sid, f"System {r.system_id}", after))
        with self.indexer.inserting(ids):
            insert_rows(System, ["id", "jurisdiction_id", "system_id", "parcel_id", "system_type", "status", "installed_on",
                                 "installed_on_precision", "last_serviced_on", "design_flow_gpd", "bedrooms", "structures_served", "permit_number",
                                 "extra", "search_text"], system_rows)
        insert_rows(Component, ["id", "system_id", "kind", "capacity_gallons", "manufacturer", "model", "installed_on",
                                "installed_on_precision"], component_rows)
        insert_rows(AuditEvent, ["at", "actor_id", "actor_label", "channel", "action", "verb", "content_type_id",
                                 "object_id", "object_repr", "changes", "batch"], events)

    def finish(self) -> None:
        """Index the systems this import created (called once, before the transaction commits)."""
        self.indexer.finish()

    def _event(self, model, object_id: int, label: str, after: dict) -> tuple:
        changes = {k: [None, v] for k, v in after.items() if v is not None and v != "" and v != {}}
        return (self.now, self.actor_id, self.actor_label, self.channel, self.action, "create",
                self.ct[model], object_id, label[:200], self.to_json(changes), self.batch)
