"""Writes one chunk of checked rows: new systems staged and written set-based (staging.py), changed ones
through the services."""
from __future__ import annotations


from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.utils import timezone

from powts.audit.context import current
from powts.inventory import services
from powts.inventory.choices import ComponentKind
from powts.inventory.importing.spool import Chunk
from powts.inventory.importing.staging import Stage, staged_values
from powts.inventory.models import Component, Owner, Parcel, System
from powts.kernel.precision import display

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


class ChunkWriter:
    def __init__(self, *, jurisdiction, action: str, provided: set[str]):
        self.jurisdiction = jurisdiction
        self.action = action
        self.provided = provided
        self.stage: Stage | None = None  # the new systems, staged by write() and written by finish()
        self.empty_at_start = None  # asked once, by write()
        self.had_systems = None  # asked once, by compare()
        ctx = current()
        actor = ctx.resolved_actor()
        self.actor_id = getattr(actor, "pk", None)
        self.actor_label = actor.username if self.actor_id else ctx.actor_label
        self.channel = ctx.channel
        self.batch = ctx.batch
        self.ct = {m: ContentType.objects.get_for_model(m).pk for m in (System, Parcel, Owner)}

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
        # A cell the import left empty (a warning) says nothing of the stored value: it is not compared.
        provided = self.provided - row.skipped if row.skipped else self.provided
        for name in SYSTEM_FIELDS:
            if SET_BY.get(name, name) in provided and not (name == "status" and row.status is None):
                if stored[name] != getattr(row, name):
                    out[name] = (stored[name], getattr(row, name))
        if stored["parcel__parcel_number"] != row.parcel_id:
            out["parcel_id"] = (stored["parcel__parcel_number"], row.parcel_id)
        for column, attr in PARCEL_FIELDS.items():
            if column in provided and stored[f"parcel__{attr}"] != getattr(row, column):
                out[column] = (stored[f"parcel__{attr}"], getattr(row, column))
        if stored["parcel__owner__name"] != row.owner_name:
            out["owner_name"] = (stored["parcel__owner__name"], row.owner_name)
        if "owner_mailing_address" in provided and (stored["parcel__owner__mailing_address"] or "") != row.owner_mailing_address:
            out["owner_mailing_address"] = (stored["parcel__owner__mailing_address"], row.owner_mailing_address)
        if "language" in provided and row.language and stored["parcel__owner__language"] != row.language:
            out["language"] = (stored["parcel__owner__language"], row.language)
        if "tank_capacity_gallons" in provided and stored["tank_capacity_gallons"] != row.tank_capacity_gallons:
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
    def write(self, chunk: Chunk) -> dict:
        # adapted once per chunk (on SQLite a string), not once per audit row
        self.now = connection.ops.adapt_datetimefield_value(timezone.now())
        if self.empty_at_start is None:
            # SQLite's write transaction locks out every other writer: a county without systems at its start
            # has none to compare with until this import adds them (PostgreSQL's other writers may add some).
            self.empty_at_start = (connection.vendor == "sqlite"
                                   and not System.objects.filter(jurisdiction=self.jurisdiction).exists())
        if self.empty_at_start:
            self._stage().add(chunk.values())  # every row new: staged as the spool kept it
            return {"created": len(chunk), "updated": 0, "unchanged": 0}
        rows = chunk.rows()
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
            self._stage().add([staged_values(r) for r in new_rows])
        return {"created": len(new_rows), "updated": updated, "unchanged": unchanged}

    def _stage(self) -> Stage:
        if self.stage is None:
            self.stage = Stage(jurisdiction_id=self.jurisdiction.pk, action=self.action, audit={
                "now": self.now, "actor_id": self.actor_id, "actor_label": self.actor_label, "channel": self.channel,
                "batch": self.batch, "content_types": {"owner": self.ct[Owner], "parcel": self.ct[Parcel],
                                                       "system": self.ct[System]}})
        return self.stage

    def finish(self) -> None:
        """Write the staged new systems set-based and index them (called once, before the transaction commits)."""
        if self.stage is not None:
            self.stage.write(self._change_owner)
            self.stage = None

    def _change_owner(self, parcel_id: int, owner_id: int) -> None:
        services.parcel_change_owner(parcel=Parcel.objects.get(pk=parcel_id), owner=Owner.objects.get(pk=owner_id),
                                     action=f"owner changed ({self.action})")
