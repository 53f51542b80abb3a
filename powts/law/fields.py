"""Reading one input value: dates, money in cents, yes/no, lists. Errors name the field.

These are the reference parsers; batch.py has vectorised versions that fall back to these
for any value they cannot read, so both paths accept and refuse exactly the same values.
"""
from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from powts.core.fields import FieldError as CoreFieldError

TRUE = {"true", "yes", "y", "1", "t"}
FALSE = {"false", "no", "n", "0", "f", ""}
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MONEY = re.compile(r"^\s*\$?\s*(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?\s*$")


class FieldError(CoreFieldError):
    """A bad or missing input value, in the user's words ("applied_on '2024-13-01' is not a date"): the one
    FieldError of powts.core.fields (a Refused naming the field). The law's messages are written without the
    field's name, which is put in front here, as the core's messages start with it."""

    def __init__(self, field: str, message: str):
        super().__init__(field, f"{field}: {message}")


def is_blank(raw: Any) -> bool:
    return raw is None or (isinstance(raw, str) and raw.strip() == "")


def parse_date(field: str, raw: Any, required: bool = True) -> dt.date | None:
    if is_blank(raw):
        if required:
            raise FieldError(field, "is required (a date, YYYY-MM-DD)")
        return None
    if isinstance(raw, dt.date):
        return raw
    text = str(raw).strip()
    try:
        if not _ISO_DATE.match(text):
            raise ValueError
        return dt.date.fromisoformat(text)
    except ValueError:
        raise FieldError(field, f"{text!r} is not a date (YYYY-MM-DD)") from None


def parse_cents(field: str, raw: Any, required: bool = True) -> int | None:
    """Money to integer cents, exactly (no floats): '45000.01' -> 4500001. Negative is refused."""
    if is_blank(raw):
        if required:
            raise FieldError(field, "is required (an amount in dollars)")
        return None
    if isinstance(raw, bool):
        raise FieldError(field, f"{raw!r} is not an amount")
    if isinstance(raw, (int, Decimal)) or isinstance(raw, float):
        try:
            d = Decimal(str(raw))
        except InvalidOperation:
            raise FieldError(field, f"{raw!r} is not an amount") from None
        if d < 0:
            raise FieldError(field, f"{raw} is negative")
        if d != d.quantize(Decimal("0.01")):
            raise FieldError(field, f"{raw} has fractions of a cent")
        return _not_too_large(field, int(d * 100))
    text = str(raw).strip()
    if text.startswith("-"):
        raise FieldError(field, f"{text!r} is negative")
    m = _MONEY.match(text)
    if m and len(m.group(1).replace(",", "")) > 12:
        raise FieldError(field, f"{text!r} is too large")
    if not m:
        raise FieldError(field, f"{text!r} is not an amount in dollars (e.g. 38000 or 38000.50)")
    whole = int(m.group(1).replace(",", ""))
    frac = (m.group(3) or ".")[1:].ljust(2, "0")
    return _not_too_large(field, whole * 100 + int(frac))


def _not_too_large(field: str, cents: int) -> int:
    # beyond any real income; keeps the numpy path in int64 with room for 30% arithmetic
    if cents >= 10**14:
        raise FieldError(field, f"{cents / 100:,.2f} is too large")
    return cents


def parse_bool(field: str, raw: Any, default: bool = False) -> bool:
    if raw is None:
        return default
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, int) and raw in (0, 1):
        return bool(raw)
    text = str(raw).strip().lower()
    if text == "":
        return default
    if text in TRUE:
        return True
    if text in FALSE:
        return False
    raise FieldError(field, f"{raw!r} is not true or false")


def parse_int(field: str, raw: Any, default: int | None = None, minimum: int = 0) -> int:
    if is_blank(raw):
        if default is None:
            raise FieldError(field, "is required (a whole number)")
        return default
    if isinstance(raw, bool):
        raise FieldError(field, f"{raw!r} is not a whole number")
    try:
        value = int(raw) if isinstance(raw, int) else int(str(raw).strip())
    except ValueError:
        raise FieldError(field, f"{raw!r} is not a whole number") from None
    if value < minimum:
        raise FieldError(field, f"{value} is less than {minimum}")
    return value


def parse_number(field: str, raw: Any, required: bool = True, positive: bool = False) -> float | None:
    """A measured quantity (gallons per day); not money."""
    if is_blank(raw):
        if required:
            raise FieldError(field, "is required (a number)")
        return None
    if isinstance(raw, bool):
        raise FieldError(field, f"{raw!r} is not a number")
    try:
        value = float(str(raw).strip())
    except ValueError:
        raise FieldError(field, f"{raw!r} is not a number") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise FieldError(field, f"{raw!r} is not a number")
    if value < 0 or (positive and value == 0):
        raise FieldError(field, f"{raw!r} must be {'more than' if positive else 'at least'} 0")
    return value


def parse_list(field: str, raw: Any) -> list[Any]:
    """A list: a JSON list, or in CSV a ';'-separated string ('a;d')."""
    if is_blank(raw):
        return []
    if isinstance(raw, list):
        return raw
    if isinstance(raw, str):
        return [part.strip() for part in raw.split(";") if part.strip()]
    raise FieldError(field, f"{raw!r} is not a list")


def parse_choice(field: str, raw: Any, choices: list[str] | set[str], required: bool = True) -> str | None:
    if is_blank(raw):
        if required:
            raise FieldError(field, f"is required (one of {', '.join(sorted(choices))})")
        return None
    text = str(raw).strip().lower()
    if text not in choices:
        raise FieldError(field, f"{raw!r} is not one of {', '.join(sorted(choices))}")
    return text
