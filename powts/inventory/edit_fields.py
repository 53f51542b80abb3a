"""What a person types into an edit form (or sends in a PATCH), parsed the way the import parses a file.

Each parser takes (field, raw) and returns the stored value or raises FieldError naming the field, with
the import's own words: "installed_on '6/31/2015' is not a date ...", "bedrooms '1e9' is larger than 1,000,
which cannot be right". The web forms and the API call the same table, so one input gives one message.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import timezone

from powts.core import fields
from powts.core.fields import FieldError
from powts.inventory.choices import ComponentKind, OwnerKind
from powts.inventory.importing import rows, values, vocabulary

Parser = Callable[[str, object], object]


def _bad(exc: values.BadValue, field: str) -> FieldError:
    return FieldError(field, str(exc))


def date_done(field: str, raw) -> dt.date | None:
    """A date of work already done (installed, serviced, sold): the import's formats, not in the future."""
    return _date(field, raw, latest=timezone.localdate())


def date_any(field: str, raw) -> dt.date | None:
    """A date that may lie ahead (a license's expiry)."""
    return _date(field, raw, latest=fields.LATEST_DATE)


def _date(field: str, raw, *, latest: dt.date) -> dt.date | None:
    try:
        value = values.parse_date(field, raw)
    except values.BadValue as exc:
        raise _bad(exc, field) from None
    if value is not None:
        fields.check_date_range(field, value, latest=latest)
    return value


def count(maximum: int) -> Parser:
    def parse(field: str, raw):
        try:
            return values.parse_count(field, raw, maximum)
        except values.BadValue as exc:
            raise _bad(exc, field) from None
    return parse


def coordinate(limit: int) -> Parser:
    def parse(field: str, raw):
        try:
            return values.parse_coordinate(field, raw, limit)
        except values.BadValue as exc:
            raise _bad(exc, field) from None
    return parse


def text(max_length: int, *, required: bool = False) -> Parser:
    def parse(field: str, raw):
        return fields.text(field, raw, max_length=max_length, required=required)
    return parse


def system_type(field: str, raw) -> str:
    value = vocabulary.system_type(fields.text(field, raw, max_length=100, required=True))
    if value is None:
        raise FieldError(field, rows.unknown_system_type(field, raw))
    return value


def status(field: str, raw) -> str:
    value = vocabulary.status(fields.text(field, raw, max_length=100, required=True))
    if value is None:
        raise FieldError(field, f"{field} {raw!r} is not one of active, failing, abandoned, replaced")
    return value


def choice(options) -> Parser:
    def parse(field: str, raw):
        value = fields.text(field, raw, max_length=100, required=True)
        if value not in options.values:
            raise FieldError(field, f"{field} {raw!r} is not one of {', '.join(options.values)}")
        return value
    return parse


_TRUE, _FALSE = {"true", "yes", "y", "1", "on"}, {"false", "no", "n", "0", "off", ""}


def yes_no(field: str, raw) -> bool:
    """A checkbox (present or not) or a JSON true/false; 'yes'/'no' as a file would say it."""
    if isinstance(raw, bool):
        return raw
    if raw is None:
        return False
    word = fields.text(field, raw, max_length=10).lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise FieldError(field, f"{field} {raw!r} is not yes or no")


def email(field: str, raw) -> str:
    value = fields.text(field, raw, max_length=254)
    if value:
        try:
            validate_email(value)
        except ValidationError:
            raise FieldError(field, f"{field} {value!r} is not an email address") from None
    return value


def version(field: str, raw) -> int:
    return fields.integer(field, raw, minimum=1, required=True)


def reason(field: str, raw) -> str:
    """Why the record is changed, in the editor's words: it goes into the record's history."""
    return fields.text(field, raw, max_length=200, required=True)


SYSTEM = {
    "system_type": system_type,
    "status": status,
    "installed_on": date_done,
    "last_serviced_on": date_done,
    "design_flow_gpd": count(1_000_000),  # the import's bounds (importing/rows.py)
    "bedrooms": count(1_000),
    "structures_served": text(200),
    "permit_number": text(60),
}
COMPONENT = {
    "kind": choice(ComponentKind),
    "capacity_gallons": count(1_000_000),
    "manufacturer": text(120),
    "model": text(120),
    "installed_on": date_done,
}
PARCEL = {
    "parcel_number": text(60, required=True),
    "legal_description": text(rows.MAX_LEGAL_LENGTH),
    "site_address": text(200),
    "municipality": text(100),
    "sewered": yes_no,
    "latitude": coordinate(90),
    "longitude": coordinate(180),
}
OWNER = {
    "name": text(200, required=True),
    "kind": choice(OwnerKind),
    "mailing_address": text(2_000),
    "email": email,
    "phone": text(40),
}


def parse(parsers: Mapping[str, Parser], raw: Mapping, *, partial: bool) -> tuple[dict, dict[str, list[str]]]:
    """(values, errors): every field's problem at once, as the import lists every problem of a row.

    `partial`: only the fields present are parsed (a PATCH); otherwise every field is (a form)."""
    parsed, errors = {}, {}
    for name, parser in parsers.items():
        if partial and name not in raw:
            continue
        try:
            parsed[name] = parser(name, raw.get(name))
        except FieldError as exc:
            errors.setdefault(name, []).append(exc.message)
    return parsed, errors
