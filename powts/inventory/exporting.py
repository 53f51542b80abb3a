"""Writing the inventory in the import's own columns, so that importing an export changes nothing.

Cells go through powts.core.spreadsheet (formula-safe; the import undoes its prefix); numeric columns
are written as numbers so that they stay numbers in a spreadsheet.
"""
from __future__ import annotations

from pathlib import Path

from powts.core import spreadsheet
from powts.core.progress import report
from powts.inventory.importing.columns import KNOWN
from powts.inventory.importing.writer import TANK_KINDS
from powts.inventory.models import Component, System
from powts.kernel.precision import display


def export_inventory(*, jurisdiction, path: Path, batch: int = 5000) -> int:
    """Streams every system of `jurisdiction` to CSV; returns the number of rows written."""
    systems = System.objects.filter(jurisdiction=jurisdiction)
    extra_keys: list[str] = []
    seen = set(KNOWN)
    for extra in systems.exclude(extra={}).values_list("extra", flat=True).iterator(chunk_size=batch):
        for key in extra:
            if key not in seen:
                seen.add(key)
                extra_keys.append(key)
    columns = [*KNOWN, *extra_keys]
    fields = ("id", "system_id", "parcel__parcel_number", "system_type", "parcel__owner__name", "parcel__site_address",
              "parcel__municipality", "parcel__owner__mailing_address", "installed_on", "last_serviced_on", "status",
              "design_flow_gpd", "bedrooms", "parcel__latitude", "parcel__longitude", "permit_number", "extra",
              "installed_on_precision", "parcel__legal_description", "parcel__sewered", "parcel__owner__language",
              "parcel__site_zip")
    written = 0
    total = systems.count()
    report(0, total, "systems")
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = spreadsheet.writer(handle)
        writer.writerow(columns)
        chunk = []
        for row in systems.order_by("id").values_list(*fields).iterator(chunk_size=batch):
            chunk.append(row)
            if len(chunk) >= batch:
                written += _write(writer, chunk, extra_keys)
                chunk = []
                report(written, total, "systems")
        written += _write(writer, chunk, extra_keys)
        report(written, total, "systems")
    return written


def _write(writer, chunk, extra_keys) -> int:
    if not chunk:
        return 0
    tanks: dict[int, int] = {}
    for system_id, gallons in (Component.objects.filter(system_id__in=[r[0] for r in chunk], kind__in=TANK_KINDS)
                               .order_by("id").values_list("system_id", "capacity_gallons")):
        tanks.setdefault(system_id, gallons)
    for (pk, system_id, parcel, stype, owner, address, town, mailing, installed, serviced, status, flow, beds, lat, lon,
         permit, extra, precision, legal, sewered, language, site_zip) in chunk:
        writer.writerow([
            # a year or month only is written as such ("1987"), which the import reads back the same
            system_id, parcel, stype, owner, address, town, mailing, display(installed, precision, style="iso"), serviced, status,
            tanks.get(pk), flow, beds, lat, lon, permit, legal, "yes" if sewered else "no", language, site_zip,
            *[extra.get(k, "") for k in extra_keys],
        ])
    return len(chunk)
