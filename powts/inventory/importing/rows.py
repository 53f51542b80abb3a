"""One inventory row: checked and normalised, or refused with every reason at once."""
from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, field
from decimal import Decimal

from powts.core.refusals import Refused
from powts.inventory.choices import SystemStatus
from powts.inventory.importing import values, vocabulary
from powts.inventory.importing.columns import KNOWN, REQUIRED
from powts.kernel.precision import period_start


class RowRejected(Refused):
    """A row that is not stored; the message names every problem with it."""


_CHECKS = (
    ("tank_capacity_gallons", values.parse_count, 1_000_000),
    ("design_flow_gpd", values.parse_count, 1_000_000),
    ("bedrooms", values.parse_count, 1_000),
    ("latitude", values.parse_coordinate, 90),
    ("longitude", values.parse_coordinate, 180),
    ("sewered", values.parse_yes_no, None),
)


@functools.cache  # read once, after Django's apps are ready (this module is imported before)
def max_lengths() -> dict[str, int]:
    """Each text column's longest value, from the model field it is stored in."""
    from powts.inventory.models import Owner, Parcel, System

    where = {"system_id": System, "parcel_id": (Parcel, "parcel_number"), "owner_name": (Owner, "name"),
             "site_address": Parcel, "municipality": Parcel, "permit_number": System, "site_zip": Parcel}
    # legal_description is a TextField: bounded like the mailing address, against absurd cells
    out = {}
    for column, target in where.items():
        model, name = target if isinstance(target, tuple) else (target, column)
        out[column] = model._meta.get_field(name).max_length
    out["owner_mailing_address"] = MAX_EXTRA_LENGTH  # a TextField: bounded only against absurd cells
    out["legal_description"] = MAX_LEGAL_LENGTH
    return out


MAX_EXTRA_LENGTH = 2000  # a column powts does not know, kept in System.extra
MAX_LEGAL_LENGTH = 5000  # a parcel's legal description (the edit form's bound too: inventory/edit_fields.py)


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
    installed_on_precision: str = "day"
    legal_description: str = ""
    sewered: bool = False
    language: str = ""  # the owner's letter language; "" when the file has none (stored owners keep theirs)
    site_zip: str = ""


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

    language = ""
    if cells["language"]:
        language = vocabulary.language(cells["language"])
        if language is None:
            problems.append(f"language {cells['language']!r} is not one powts writes letters in (English, Spanish, Hmong)")
    parsed = {}
    try:
        parsed["installed_on"], parsed["installed_on_precision"] = values.parse_partial_date(
            "installed_on", raw.get("installed_on"), today=today)
    except values.BadValue as exc:
        problems.append(str(exc))
    try:
        parsed["last_serviced_on"] = values.parse_date("last_serviced_on", raw.get("last_serviced_on"), today=today)
    except values.BadValue as exc:
        problems.append(str(exc))
    for column, parse, arg in _CHECKS:
        try:
            parsed[column] = parse(column, raw.get(column), arg) if arg is not None else parse(column, raw.get(column))
        except values.BadValue as exc:
            problems.append(str(exc))
    for column in ("installed_on", "last_serviced_on"):
        if parsed.get(column) and parsed[column] > today:
            problems.append(f"{column} {parsed[column].isoformat()} is in the future")
    earliest = period_start(parsed.get("installed_on"), parsed.get("installed_on_precision", "day"))
    if earliest and parsed.get("last_serviced_on") and parsed["last_serviced_on"] < earliest:
        problems.append("last_serviced_on is before installed_on")
    # Checked here, against the columns' sizes, so that one long value is that row's reject rather than a
    # database error that fails the whole file (PostgreSQL enforces lengths; SQLite does not).
    for column, limit in max_lengths().items():
        if len(cells[column]) > limit:
            problems.append(f"{column} is {len(cells[column]):,} characters long; at most {limit:,} are allowed")
    for column, cell in cells.items():
        if "\x00" in cell:
            problems.append(f"{column} contains a NUL character, which is not allowed in text")
    extra = {k: values.text(v) for k, v in raw.items() if k not in KNOWN and k and values.text(v) != ""}
    for name, cell in extra.items():
        if "\x00" in name or "\x00" in cell:
            problems.append(f"column {name.replace(chr(0), '')!r} contains a NUL character, which is not allowed in text")
        elif len(cell) > MAX_EXTRA_LENGTH:
            problems.append(f"column {name!r} is {len(cell):,} characters long; at most {MAX_EXTRA_LENGTH:,} are allowed")
    if problems:
        raise RowRejected("; ".join(problems))

    return InventoryRow(
        system_id=cells["system_id"], parcel_id=cells["parcel_id"], system_type=system_type,
        owner_name=cells["owner_name"], site_address=cells["site_address"], municipality=cells["municipality"],
        owner_mailing_address=cells["owner_mailing_address"], status=status, legal_description=cells["legal_description"],
        permit_number=cells["permit_number"], extra=extra, language=str(language or ""), site_zip=cells["site_zip"], **parsed,
    )
