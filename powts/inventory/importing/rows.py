"""One inventory row: checked and normalised, or refused with every reason at once."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from powts.inventory.choices import SystemStatus
from powts.inventory.importing import values, vocabulary
from powts.inventory.importing.columns import KNOWN, REQUIRED


class RowRejected(ValueError):
    pass


_CHECKS = (
    ("installed_on", values.parse_date, None),
    ("last_serviced_on", values.parse_date, None),
    ("tank_capacity_gallons", values.parse_count, 1_000_000),
    ("design_flow_gpd", values.parse_count, 1_000_000),
    ("bedrooms", values.parse_count, 1_000),
    ("latitude", values.parse_coordinate, 90),
    ("longitude", values.parse_coordinate, 180),
)


@dataclass(slots=True)
class InventoryRow:
    system_id: str
    parcel_id: str
    system_type: str
    owner_name: str
    site_address: str = ""
    municipality: str = ""
    owner_mailing_address: str = ""
    installed_on: dt.date | None = None
    last_serviced_on: dt.date | None = None
    status: str = SystemStatus.ACTIVE
    tank_capacity_gallons: int | None = None
    design_flow_gpd: int | None = None
    bedrooms: int | None = None
    latitude: Decimal | None = None
    longitude: Decimal | None = None
    permit_number: str = ""
    extra: dict = field(default_factory=dict)


def clean_row(raw: dict, *, today: dt.date) -> InventoryRow:
    """`raw` maps normalised header -> cell. Raises RowRejected naming each problem."""
    problems: list[str] = []
    cells = {k: values.text(raw.get(k)) for k in KNOWN}
    for column in REQUIRED:
        if not cells[column]:
            problems.append(f"{column} is empty")

    system_type = None
    if cells["system_type"]:
        system_type = vocabulary.system_type(cells["system_type"])
        if system_type is None:
            problems.append(f"system_type {cells['system_type']!r} is not a system type powts knows")
    status = SystemStatus.ACTIVE
    if cells["status"]:
        status = vocabulary.status(cells["status"])
        if status is None:
            problems.append(f"status {cells['status']!r} is not one of active, failing, abandoned, replaced")

    parsed = {}
    for column, parse, arg in _CHECKS:
        try:
            parsed[column] = parse(column, raw.get(column), arg) if arg is not None else parse(column, raw.get(column))
        except values.BadValue as exc:
            problems.append(str(exc))
    for column in ("installed_on", "last_serviced_on"):
        if parsed.get(column) and parsed[column] > today:
            problems.append(f"{column} {parsed[column].isoformat()} is in the future")
    if parsed.get("installed_on") and parsed.get("last_serviced_on") and parsed["last_serviced_on"] < parsed["installed_on"]:
        problems.append("last_serviced_on is before installed_on")
    for column in ("system_id", "parcel_id", "permit_number"):
        if len(cells[column]) > 60:
            problems.append(f"{column} is longer than 60 characters")
    if problems:
        raise RowRejected("; ".join(problems))

    extra = {k: values.text(v) for k, v in raw.items() if k not in KNOWN and k and values.text(v) != ""}
    return InventoryRow(
        system_id=cells["system_id"], parcel_id=cells["parcel_id"], system_type=system_type,
        owner_name=cells["owner_name"], site_address=cells["site_address"], municipality=cells["municipality"],
        owner_mailing_address=cells["owner_mailing_address"], status=status,
        permit_number=cells["permit_number"], extra=extra, **parsed,
    )
