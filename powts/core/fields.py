"""One bounded parser for every field a person or a file gives us (API, web forms, CSV uploads, imports).

The size of a value is checked BEFORE it is converted: "1e1000000" is refused as text, instead of
making a worker build a million-digit integer (a 25-second freeze of every thread). Each refusal is a
FieldError naming the field in plain words. No Django imports: the import and the CLI use it too.
"""
from __future__ import annotations

import datetime as dt
import math
import re
from decimal import Decimal
from fractions import Fraction

from powts.core.refusals import Refused

MAX_NUMBER_CHARS = 40  # far more than any real quantity; "1,000,000.0000" is 14
MAX_DATE_CHARS = 32
EARLIEST_DATE = dt.date(1900, 1, 1)  # no POWTS record is older; year 1 dates are typing slips
LATEST_DATE = dt.date(2199, 12, 31)  # room for date arithmetic (due dates, notices) far from year 9999
# Plain decimal notation, an optional exponent of at most two digits (so at most 10**99 before the range check).
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,2})?")


class FieldError(Refused):
    """A refused value: `field` names it, `message` says why in plain words (it starts with the field's name)."""

    def __init__(self, field: str, message: str):
        super().__init__(message, field=field)


def blank(raw) -> bool:
    return raw is None or (isinstance(raw, str) and not raw.strip())


def _shown(raw, limit: int = 30) -> str:
    """The value as quoted back in a message, cut short (a 128 KB value is not echoed)."""
    text = raw if isinstance(raw, str) else str(raw)
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _number_text(field: str, raw, *, thousands: bool) -> str:
    """The value as bounded decimal text, or FieldError. Floats and Decimals must be finite."""
    if isinstance(raw, (bool, dict, list, tuple, set)):
        raise FieldError(field, f"{field} must be a number")
    if isinstance(raw, int):
        text = str(raw)  # JSON integers are already capped at 4,300 digits by Python; the length check below does the rest
    elif isinstance(raw, float):
        if not math.isfinite(raw):
            raise FieldError(field, f"{field} {_shown(raw)} is not a number")
        text = repr(raw)
    elif isinstance(raw, Decimal):
        if not raw.is_finite():
            raise FieldError(field, f"{field} {_shown(raw)} is not a number")
        text = str(raw)
    elif isinstance(raw, str):
        text = raw.strip()
    else:
        raise FieldError(field, f"{field} must be a number")
    if len(text) > MAX_NUMBER_CHARS:
        raise FieldError(field, f"{field} is {len(text)} characters long, too long to be a number")
    if thousands:
        text = text.replace(",", "")
    if not _NUMBER.fullmatch(text):
        raise FieldError(field, f"{field} {_shown(raw)} is not a number")
    return text


def _check_range(field: str, raw, number, minimum, maximum, *, above_message: str | None = None):
    if minimum is not None and number < minimum:
        if minimum == 0:
            raise FieldError(field, f"{field} {_shown(raw)} cannot be negative")
        raise FieldError(field, f"{field} {_shown(raw)} is below {minimum:,}")
    if maximum is not None and number > maximum:
        raise FieldError(field, above_message or f"{field} {_shown(raw)} is larger than {maximum:,}")


def integer(field: str, raw, *, minimum: int | None = None, maximum: int | None = None, required: bool = False,
            thousands: bool = True, above_message: str | None = None) -> int | None:
    """A whole number within [minimum, maximum]; '1,000', '1000.0' and '1e3' are 1000. Blank is None (or refused if required)."""
    if blank(raw):
        if required:
            raise FieldError(field, f"{field} is required")
        return None
    if type(raw) is str and raw.isascii() and raw.isdigit() and len(raw) <= MAX_NUMBER_CHARS:  # the common case, without Decimal
        number = int(raw)
    else:
        value = Decimal(_number_text(field, raw, thousands=thousands))
        if value != value.to_integral_value():
            raise FieldError(field, f"{field} {_shown(raw)} must be a whole number")
        _check_range(field, raw, value, minimum, maximum, above_message=above_message)  # before int(): bounded size
        number = int(value)
    _check_range(field, raw, number, minimum, maximum, above_message=above_message)
    return number


def decimal(field: str, raw, *, minimum=None, maximum=None, places: int | None = None, required: bool = False,
            thousands: bool = False) -> Decimal | None:
    """A finite decimal within [minimum, maximum], rounded to `places` if given."""
    if blank(raw):
        if required:
            raise FieldError(field, f"{field} is required")
        return None
    value = Decimal(_number_text(field, raw, thousands=thousands))
    _check_range(field, raw, value, minimum, maximum)
    if places is not None:
        value = value.quantize(Decimal(1).scaleb(-places))
    return value


def fraction(field: str, raw, *, places: int = 4, required: bool = False) -> Decimal | None:
    """A fraction of a whole between 0 and 1: '0.25', '1/3', '25%' or 0.25, rounded to `places`."""
    if blank(raw):
        if required:
            raise FieldError(field, f"{field} is required")
        return None
    example = f"{field} {_shown(raw)} is not a fraction (e.g. 0.25, 1/3 or 25%)"
    if isinstance(raw, str):
        text = raw.strip()
        if len(text) > MAX_NUMBER_CHARS:
            raise FieldError(field, f"{field} is {len(text)} characters long, too long to be a fraction")
        try:
            if text.endswith("%"):
                value = Fraction(Decimal(_number_text(field, text[:-1], thousands=False))) / 100
            elif "/" in text:
                top, _, bottom = text.partition("/")
                value = Fraction(Decimal(_number_text(field, top, thousands=False))) / \
                    Fraction(Decimal(_number_text(field, bottom, thousands=False)))
            else:
                value = Fraction(Decimal(_number_text(field, text, thousands=False)))
        except (FieldError, ZeroDivisionError):
            raise FieldError(field, example) from None
    else:
        try:
            value = Fraction(Decimal(_number_text(field, raw, thousands=False)))
        except FieldError:
            raise FieldError(field, example) from None
    if value < 0:
        raise FieldError(field, f"{field} {_shown(raw)} is negative")
    if value > 1:
        raise FieldError(field, f"{field} {_shown(raw)} is above 1 (a fraction of the whole)")
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal(1).scaleb(-places))


def date(field: str, raw, *, earliest: dt.date | None = EARLIEST_DATE, latest: dt.date | None = None,
         required: bool = False) -> dt.date | None:
    """An ISO date (YYYY-MM-DD) between `earliest` and `latest` (say, today for work already done)."""
    if blank(raw):
        if required:
            raise FieldError(field, f"{field} is required")
        return None
    if isinstance(raw, dt.datetime):
        value = raw.date()
    elif isinstance(raw, dt.date):
        value = raw
    elif isinstance(raw, str):
        text = raw.strip()
        if len(text) > MAX_DATE_CHARS:
            raise FieldError(field, f"{field} is {len(text)} characters long, too long to be a date (YYYY-MM-DD)")
        try:
            value = dt.date.fromisoformat(text)
        except ValueError:
            raise FieldError(field, f"{field} {_shown(raw)} is not a date (YYYY-MM-DD)") from None
    else:
        raise FieldError(field, f"{field} must be a date (YYYY-MM-DD)")
    check_date_range(field, value, earliest=earliest, latest=latest)
    return value


def check_date_range(field: str, value: dt.date, *, earliest: dt.date | None = EARLIEST_DATE, latest: dt.date | None = None):
    if earliest is not None and value < earliest:
        raise FieldError(field, f"{field} {value.isoformat()} is before {earliest.year}; check the year")
    if latest is not None and value > latest:
        raise FieldError(field, f"{field} {value.isoformat()} is in the future")


def text(field: str, raw, *, max_length: int | None = None, required: bool = False, strip: bool = True) -> str:
    """Text of at most `max_length` characters, without NUL bytes (PostgreSQL refuses them).

    Numbers are taken as their digits (a JSON system id of 123 is "123"); objects and lists are refused,
    never stored as their Python repr."""
    if raw is None:
        value = ""
    elif isinstance(raw, str):
        value = raw
    elif isinstance(raw, (bool, dict, list, tuple, set, bytes)):
        raise FieldError(field, f"{field} must be text")
    elif isinstance(raw, (int, Decimal)) or (isinstance(raw, float) and math.isfinite(raw)):
        value = str(raw)
    else:
        raise FieldError(field, f"{field} must be text")
    if strip:
        value = value.strip()
    if "\x00" in value:
        raise FieldError(field, f"{field} contains a NUL character, which is not allowed in text")
    if max_length is not None and len(value) > max_length:
        raise FieldError(field, f"{field} is {len(value):,} characters long; at most {max_length:,} are allowed")
    if required and not value:
        raise FieldError(field, f"{field} is required")
    return value


# Text no database can store: NUL (PostgreSQL refuses it) and a UTF-16 surrogate without its pair (a JSON
# "\ud800" escape, or a form sent in an odd charset, decodes to one; it has no UTF-8 form, so saving it is a 500).
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def unstorable(text: str) -> str | None:
    """Why `text` cannot be stored, as the end of a sentence that starts with the field's name; None if it can."""
    found = _UNSTORABLE.search(text)
    if found is None:
        return None
    if found.group() == "\x00":
        return "contains a NUL character, which is not allowed in text"
    return (f"contains an unpaired UTF-16 surrogate (\\u{ord(found.group()):04x}), "
            "which is not a character and cannot be stored as text")


def without_unstorable(text: str) -> str:
    """The text with what cannot be stored taken out: a field's name as quoted back in a message."""
    return _UNSTORABLE.sub("", text)


def unstorable_in(value, path: str = "") -> tuple[str, str] | None:
    """The first (field, why) in document order where parsed JSON holds text that cannot be stored, in a
    key or a string value at any depth; the field is a path such as readings[0].note. None if all can."""
    stack = [(value, path)]
    while stack:
        item, at = stack.pop()
        if isinstance(item, str):
            why = unstorable(item)
            if why:
                return at or "body", why
        elif isinstance(item, dict):
            children = []
            for key, child in item.items():
                name = f"{at}.{without_unstorable(key)}" if at else without_unstorable(key) or "body"
                why = unstorable(key)
                if why:
                    return name, why
                children.append((child, name))
            stack.extend(reversed(children))
        elif isinstance(item, list):
            stack.extend(reversed([(child, f"{at}[{i}]") for i, child in enumerate(item)]))
    return None
