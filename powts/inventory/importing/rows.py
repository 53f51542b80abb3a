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
from powts.kernel.precision import display, period_start


class RowRejected(Refused):
    """A row that is not stored; the message names every problem with it."""


_CHECKS = (
    ("tank_capacity_gallons", values.parse_quantity, 1_000_000),
    ("design_flow_gpd", values.parse_quantity, 1_000_000),
    ("bedrooms", values.parse_quantity, 1_000),
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
    # Optional cells that were not values of their column, left empty: a stored value of theirs is kept.
    skipped: frozenset = frozenset()
    # (column, cell, message) of each such cell and of each value read by a stated rule (a two-digit year)
    warnings: list = field(default_factory=list)


@dataclass(slots=True)
class CellWarning:
    column: str
    value: str
    problem: str  # what is wrong with the cell, as a refusal would say it
    action: str = "left empty"  # what the import did instead ("" when the problem says it)

    @property
    def message(self) -> str:
        return f"{self.problem}; {self.action}" if self.action else self.problem


def _accepted_types() -> str:
    from powts.inventory.choices import SystemType

    return ", ".join(SystemType.values)


def clean_row(raw: dict, *, today: dt.date, strict: bool = False) -> InventoryRow:
    """`raw` maps normalised header -> cell. Raises RowRejected naming each problem with a required column (or
    with any column, when `strict`). A bad optional cell is left empty and named in the row's warnings."""
    problems: list[str] = []
    warnings: list[CellWarning] = []
    cells = {}
    for k in KNOWN:
        cell = values.text(raw.get(k))
        cells[k] = "" if cell and values.means_empty(cell) else cell
    marked = {k for k in REQUIRED if not cells[k] and values.text(raw.get(k))}
    for column in REQUIRED:
        if not cells[column]:
            problems.append(f"{column} is empty" + (f" ({values.text(raw.get(column))!r} means no value)" if column in marked else ""))

    def bad(column: str, problem: str, action: str = "left empty", value=None):
        if strict:
            problems.append(problem)
        else:
            warnings.append(CellWarning(column, values.text(raw.get(column)) if value is None else value, problem, action))

    def cell(column: str):
        """The raw cell, or None where it is empty or means empty."""
        return raw.get(column) if cells[column] else None

    system_type = None
    if cells["system_type"]:  # one message for the import and the edit form (edit_fields)
        system_type = vocabulary.system_type(cells["system_type"])
        if system_type is None:
            problems.append(unknown_system_type("system_type", cells["system_type"]))
    status = SystemStatus.ACTIVE
    if cells["status"]:
        status = vocabulary.status(cells["status"])
        if status is None:
            bad("status", f"status {cells['status']!r} is not one of active, failing, abandoned, replaced",
                "left empty (a new system is active; a stored system keeps its status)")
            status = SystemStatus.ACTIVE

    language = ""
    if cells["language"]:
        language = vocabulary.language(cells["language"])
        if language is None:
            bad("language", f"language {cells['language']!r} is not one powts writes letters in (English, Spanish, Hmong)")
            language = ""
    parsed = {}
    notes: list[str] | None = None if strict else []
    try:
        parsed["installed_on"], parsed["installed_on_precision"] = values.parse_partial_date(
            "installed_on", cell("installed_on"), today=today, notes=notes)
    except values.BadValue as exc:
        bad("installed_on", str(exc))
        parsed["installed_on"], parsed["installed_on_precision"] = None, "day"
    for note in notes or ():
        warnings.append(CellWarning("installed_on", values.text(raw.get("installed_on")), note, ""))
    serviced_notes: list[str] | None = None if strict else []
    try:
        parsed["last_serviced_on"] = values.parse_date("last_serviced_on", cell("last_serviced_on"), today=today,
                                                       notes=serviced_notes)
    except values.BadValue as exc:
        bad("last_serviced_on", str(exc))
        parsed["last_serviced_on"] = None
    for note in serviced_notes or ():
        warnings.append(CellWarning("last_serviced_on", values.text(raw.get("last_serviced_on")), note, ""))
    for column, parse, arg in _CHECKS:
        try:
            parsed[column] = parse(column, cell(column), arg) if arg is not None else parse(column, cell(column))
        except values.BadValue as exc:
            bad(column, str(exc))
            parsed[column] = False if column == "sewered" else None
    for column in ("installed_on", "last_serviced_on"):
        if parsed.get(column) and parsed[column] > today:
            bad(column, f"{column} {parsed[column].isoformat()} is in the future")
            parsed[column] = None
            if column == "installed_on":
                parsed["installed_on_precision"] = "day"
    earliest = period_start(parsed.get("installed_on"), parsed.get("installed_on_precision", "day"))
    if earliest and parsed.get("last_serviced_on") and parsed["last_serviced_on"] < earliest:
        installed = display(parsed["installed_on"], parsed["installed_on_precision"], style="iso")
        problems.append(f"last_serviced_on {parsed['last_serviced_on'].isoformat()} is before installed_on {installed}")
    # Checked here, against the columns' sizes, so that one long value is that row's reject rather than a
    # database error that fails the whole file (PostgreSQL enforces lengths; SQLite does not). A value too long
    # or with a NUL is not a legacy spelling: its row is rejected whole (the rejects file keeps it as it came).
    for column, limit in max_lengths().items():
        if len(cells[column]) > limit:
            problems.append(f"{column} is {len(cells[column]):,} characters long; at most {limit:,} are allowed")
    for column, text in cells.items():
        if "\x00" in text:
            problems.append(f"{column} contains a NUL character, which is not allowed in text")
    extra = {k: values.text(v) for k, v in raw.items() if k not in KNOWN and k and values.text(v) != ""}
    for name, text in extra.items():
        if "\x00" in name or "\x00" in text:
            problems.append(f"column {name.replace(chr(0), '')!r} contains a NUL character, which is not allowed in text")
        elif len(text) > MAX_EXTRA_LENGTH:
            problems.append(f"column {name!r} is {len(text):,} characters long; at most {MAX_EXTRA_LENGTH:,} are allowed")
    if problems:
        raise RowRejected("; ".join(problems))

    # Columns whose cell was not taken: a stored system keeps its value there (the file says nothing of it).
    skipped = frozenset(w.column for w in warnings if w.action and w.column in KNOWN)
    return InventoryRow(
        system_id=cells["system_id"], parcel_id=cells["parcel_id"], system_type=system_type,
        owner_name=cells["owner_name"], site_address=cells["site_address"], municipality=cells["municipality"],
        owner_mailing_address=cells["owner_mailing_address"], status=status, legal_description=cells["legal_description"],
        permit_number=cells["permit_number"], extra=extra, language=str(language or ""), site_zip=cells["site_zip"],
        skipped=skipped, warnings=warnings, **parsed,
    )


def unknown_system_type(field: str, raw) -> str:
    """The refusal of a system type powts does not know, with the accepted ones (the import's and the edit form's)."""
    return (f"{field} {raw!r} is not a system type powts knows "
            f"(accepted: {_accepted_types()}; common spellings such as septic, holding and ATU too)")
