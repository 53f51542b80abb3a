"""The set-based import leaves the database exactly as the per-row import did.

`fixtures/import_same_state.json` was written by the per-row import (before it became set-based) from the
two files below: a first import, then a second file with every kind of row (new systems on new and stored
parcels, for new and stored owners, under another owner; changed, unchanged, and rejected rows of every
reason). The test imports the same files with today's code and compares every table the import writes
(owners, parcels, ownerships, systems, tank components, audit events with their content) by natural keys,
and the counts and rejection reasons. Run with RECORD_IMPORT_STATE=1 to write the fixture again.
"""
import datetime as dt
import json
import os
from pathlib import Path

from django.utils import timezone

from powts.audit.models import AuditEvent
from powts.inventory.importing.service import import_inventory
from powts.inventory.models import Component, Owner, Ownership, Parcel, System

FIXTURE = Path(__file__).parent / "fixtures" / "import_same_state.json"
TODAY = dt.date(2026, 11, 29)
HEADER = ["system_id", "parcel_id", "system_type", "owner_name", "owner_mailing_address", "site_address", "municipality",
          "installed_on", "last_serviced_on", "status", "tank_capacity_gallons", "design_flow_gpd", "bedrooms", "latitude",
          "longitude", "permit_number", "legal_description", "sewered", "language", "site_zip", "legacy_code"]


def row(system_id, parcel, kind="mound", owner="Jane Smith", **cells):
    values = {"system_id": system_id, "parcel_id": parcel, "system_type": kind, "owner_name": owner, **cells}
    return [values.get(h, "") for h in HEADER]


FIRST = [
    row("D-1", "P-1", installed_on="1990-05-01", tank_capacity_gallons="1000", site_address="1 Main St",
        municipality="Town of Dunn", latitude="43.0731", longitude="-89.4012"),
    row("D-2", "P-2", "conventional", "Bob Olson", owner_mailing_address="PO Box 1, Madison", installed_on="1987"),
    row("D-3", "P-3", "holding tank", "Sunset Supper Club LLC", tank_capacity_gallons="3000", sewered="no"),
    row("D-4", "P-4", owner="Ana Vang", language="Hmong", installed_on="6/1999"),
    row("D-5", "P-5", owner="Ana Vang", legacy_code="X-1"),
    row("D-6", "P-6", "at-grade", "Carl Berg", installed_on="2001-02-03", last_serviced_on="2020-01-02"),
    row("D-7", "P-7", owner="Dee Krueger", tank_capacity_gallons="1200"),
]

SECOND = [
    # unchanged
    FIRST[0], FIRST[4],
    # changed: a date, the owner, the parcel, the tank, the status, a parcel column, language, extra
    row("D-3", "P-3", "holding tank", "Sunset Supper Club LLC", tank_capacity_gallons="3500", sewered="no"),
    row("D-4", "P-4", owner="Ana Vang", language="Spanish", installed_on="6/1999", status="failing"),
    row("D-6", "P-60", "at-grade", "Carl Berg", installed_on="2001-02-03", last_serviced_on="2020-01-02"),
    row("D-7", "P-7", owner="Ed Krueger", owner_mailing_address="7 Elm", tank_capacity_gallons="1200",
        site_address="7 Elm St", legacy_code="old"),
    row("D-2", "P-2", "conventional", "Bob Olson", owner_mailing_address="PO Box 1, Madison", installed_on="1988"),
    # new: new parcel and owner; a stored parcel, same owner; a stored parcel, another owner; a stored owner;
    # two systems sharing a new parcel; a business; partial dates; coordinates; sewered; extra; zip
    row("N-1", "NP-1", "Mound", "Fay Hmong", language="hmn", site_address="11 Oak Rd", municipality="Town of Vienna",
        installed_on="2010-07-08", tank_capacity_gallons="1500", design_flow_gpd="450", bedrooms="3",
        latitude="43.1", longitude="-89.2", permit_number="SP-9", legal_description="NE 1/4", sewered="yes",
        site_zip="53597", legacy_code="L-9"),
    row("N-2", "P-1", "drip line", "Jane Smith", installed_on="2015", site_address="1 Main St",
        municipality="Town of Dunn", latitude="43.0731", longitude="-89.4012"),
    row("N-3", "P-6", "atu", "Gus New Owner", owner_mailing_address="9 Pine", installed_on="3/2012"),
    row("N-4", "NP-4", "privy", "Carl Berg", installed_on="2000-01-01", tank_capacity_gallons="500"),
    row("N-5", "NP-5", "holding", "Hal Farms Inc", tank_capacity_gallons="4000", status="inactive"),
    row("N-6", "NP-5", "seepage bed", "Hal Farms Inc", installed_on="44000"),
    row("N-7", "NP-7", "sand filter", "Ivy Olson", owner_mailing_address="1 Lake\nMadison WI", language="English",
        last_serviced_on="2024-03-04", installed_on="2000-02-29"),
    # rejected, one reason each (and one with several)
    row("", "RP-1"),
    row("R-2", "RP-2", "spaceship"),
    row("R-3", "RP-3", status="sleeping"),
    row("R-4", "RP-4", language="Klingon"),
    row("R-5", "RP-5", installed_on="yesterday"),
    row("R-6", "RP-6", installed_on="2030-01-01"),
    row("R-7", "RP-7", installed_on="2010-01-01", last_serviced_on="2009-01-01"),
    row("R-8", "RP-8", tank_capacity_gallons="2000000"),
    row("R-9", "RP-9", latitude="91"),
    row("R-10", "RP-10", sewered="maybe"),
    row("R-11", "RP-11", owner="x" * 201),
    row("N-1", "RP-12"),
    row("D-1", "P-1"),
    row("R-13", "RP-13", bedrooms="-1", last_serviced_on="2020"),
    row("R-14", "RP-14", legacy_code="y" * 2001),
    row("R-15", "RP-15", design_flow_gpd="abc", longitude="200", owner=""),
]


def _day(value):
    """Dates an import stamps with the real day (an ownership's start) are compared as "today"."""
    if value is None:
        return None
    value = str(value)
    return "today" if value == timezone.localdate().isoformat() else value


def _sorted(rows) -> list:
    return sorted(rows, key=lambda r: json.dumps(r, default=str))


def _by_key(changes: dict, ids: dict) -> dict:
    """Ids in an audit row's changes as natural keys: ids differ between databases (PostgreSQL's sequences
    are not rolled back with a test's transaction)."""
    out = {}
    for name, pair in changes.items():
        if name == "jurisdiction_id":
            pair = ["county" if v is not None else None for v in pair]
        elif name in ids:
            pair = [None if v is None else ids[name].get(v, v) for v in pair]
        out[name] = pair
    return out


def database_state(result_batches: list[str]) -> dict:
    owners = {o.pk: (o.name, o.mailing_address) for o in Owner.objects.all()}
    parcels = {p.pk: p.parcel_number for p in Parcel.objects.all()}
    systems = {s.pk: s.system_id for s in System.objects.all()}
    components = {c.pk: (systems[c.system_id], c.kind) for c in Component.objects.all()}
    keys = {"owner": owners, "parcel": parcels, "system": systems, "component": components}
    events = []
    for e in AuditEvent.objects.select_related("content_type").order_by("id"):
        model = e.content_type.model
        events.append([model, json.loads(json.dumps(keys[model].get(e.object_id), default=list)), e.verb, e.action,
                       e.channel, e.actor_label, result_batches.index(e.batch) if e.batch in result_batches else e.batch,
                       e.object_repr, _by_key(e.changes, {"parcel_id": parcels, "owner_id": owners})])
    # Order within one import is not part of the promise: compare as sorted lists.
    events.sort(key=lambda e: json.dumps(e, sort_keys=True))
    return {
        "owners": _sorted([o.name, o.mailing_address, o.kind, o.language, o.email, o.phone, o.version]
                         for o in Owner.objects.all()),
        "parcels": _sorted([p.parcel_number, p.legal_description, p.site_address, p.municipality, p.sewered,
                           None if p.latitude is None else str(p.latitude), None if p.longitude is None else str(p.longitude),
                           list(owners[p.owner_id]) if p.owner_id else None, p.site_zip, p.pending, p.version]
                          for p in Parcel.objects.all()),
        "ownerships": _sorted([parcels[o.parcel_id], list(owners[o.owner_id]), _day(o.started_on), _day(o.ended_on)]
                             for o in Ownership.objects.all()),
        "systems": _sorted([s.system_id, parcels[s.parcel_id], s.system_type, s.status, str(s.installed_on),
                           s.installed_on_precision, str(s.last_serviced_on), s.design_flow_gpd, s.bedrooms,
                           s.structures_served, s.permit_number, s.extra, s.search_text, s.version]
                          for s in System.objects.all()),
        "components": _sorted([systems[c.system_id], c.kind, c.capacity_gallons, c.manufacturer, c.model,
                              str(c.installed_on), c.installed_on_precision] for c in Component.objects.all()),
        "audit": events,
    }


def test_the_set_based_import_leaves_what_the_per_row_import_left(dane, write_csv):
    # strict: every bad cell rejects its row, as when the fixture was recorded
    first = import_inventory(path=write_csv([HEADER, *FIRST], name="first.csv"), jurisdiction=dane, today=TODAY,
                             follow_up=False, strict=True)
    second = import_inventory(path=write_csv([HEADER, *SECOND], name="second.csv"), jurisdiction=dane, today=TODAY,
                              follow_up=False, strict=True)
    again = import_inventory(path=write_csv([HEADER, *SECOND], name="second.csv"), jurisdiction=dane, today=TODAY,
                             follow_up=False, strict=True)
    state = {
        "counts": [first.counts(), second.counts(), again.counts()],
        "rejects": [[r["line"], r["reason"]] for r in second.rejects_preview],
        "previews": [second.created_preview, second.updated_preview],
        **database_state([first.batch, second.batch, again.batch]),
    }
    state = json.loads(json.dumps(state, default=str))
    if os.environ.get("RECORD_IMPORT_STATE"):
        FIXTURE.parent.mkdir(exist_ok=True)
        FIXTURE.write_text(json.dumps(state, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    expected = json.loads(FIXTURE.read_text(encoding="utf-8"))
    for key in expected:
        assert state[key] == expected[key], key
    # a re-import of the same file changes nothing and audits nothing
    assert again.counts()["unchanged"] == second.counts()["created"] + second.counts()["updated"] + second.counts()["unchanged"]
    assert not AuditEvent.objects.filter(batch=again.batch).exists()


def test_new_systems_are_written_with_one_statement_per_table_whatever_the_number_of_chunks(dane, write_csv, monkeypatch):
    """Set-based writes. Ten new systems in five chunks of two: the per-row import wrote each
    table once a chunk (fifteen audit inserts); the staged import writes each table once for the whole file."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from powts.inventory.importing import service

    monkeypatch.setattr(service, "CHUNK", 2)
    rows = [HEADER] + [row(f"S-{i}", f"SP-{i}", owner=f"Owner {i}", tank_capacity_gallons="1000") for i in range(10)]
    with CaptureQueriesContext(connection) as queries:
        result = import_inventory(path=write_csv(rows), jurisdiction=dane, today=TODAY, follow_up=False)
    assert result.created == 10
    inserts = {}
    for q in queries.captured_queries:
        sql = q["sql"].lstrip().upper()
        sql = sql.split(" TIMES: ", 1)[1] if " TIMES: " in sql[:20] else sql  # how Django logs an executemany
        for table in ("AUDIT_AUDITEVENT", "INVENTORY_SYSTEM", "INVENTORY_PARCEL", "INVENTORY_OWNER", "INVENTORY_COMPONENT"):
            if sql.startswith(f'INSERT INTO {table} ') or sql.startswith(f'INSERT INTO "{table}" '):
                inserts[table] = inserts.get(table, 0) + 1
    assert inserts == {"AUDIT_AUDITEVENT": 3, "INVENTORY_SYSTEM": 1, "INVENTORY_PARCEL": 1, "INVENTORY_OWNER": 1,
                       "INVENTORY_COMPONENT": 1}
    assert AuditEvent.objects.filter(batch=result.batch).count() == 30
