"""Money: the one place an amount is rounded (to the cent, half up: no text says otherwise)."""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

CENT = Decimal("0.01")


def cents(amount: Decimal | int | str) -> Decimal:
    """Rounded once, to the cent, half up."""
    return Decimal(amount).quantize(CENT, rounding=ROUND_HALF_UP) if not isinstance(amount, Decimal) \
        else amount.quantize(CENT, rounding=ROUND_HALF_UP)


def round_half_up(amount: Decimal, places: Decimal) -> Decimal:
    """Half-up rounding to any step (a fraction kept to 4 places, say)."""
    return amount.quantize(places, rounding=ROUND_HALF_UP)


def parse_amount(raw) -> Decimal | None:
    """An exact amount in cents written as a string or integer; None when it is not one (floats refused)."""
    if isinstance(raw, (float, bool)) or raw is None:
        return None
    try:
        d = Decimal(str(raw))
    except InvalidOperation:
        return None
    if not d.is_finite() or d < 0 or d != d.quantize(CENT):
        return None
    return d
