"""kernel.money and kernel.dates: half-up rounding and add_years, each written once."""
import datetime as dt
from decimal import Decimal

from powts.kernel.dates import add_years
from powts.kernel.money import cents, parse_amount


def test_cents_rounds_half_up_on_both_sides_of_the_half_cent():
    """No text says how to round; half up, once, to the cent."""
    assert cents(Decimal("0.005")) == Decimal("0.01")
    assert cents(Decimal("0.0049")) == Decimal("0.00")
    assert cents(Decimal("2.675")) == Decimal("2.68")  # banker's rounding would give 2.68 too: check 2.665
    assert cents(Decimal("2.665")) == Decimal("2.67")


def test_parse_amount_accepts_cents_and_refuses_floats_and_fractions_of_a_cent():
    assert parse_amount("450.00") == Decimal("450.00")
    assert parse_amount(50) == Decimal(50)
    assert parse_amount(50.0) is None
    assert parse_amount("1.005") is None
    assert parse_amount("-1") is None
    assert parse_amount("NaN") is None


def test_add_years_keeps_the_day_and_moves_february_29_to_february_28():
    assert add_years(dt.date(2024, 3, 1), 2) == dt.date(2026, 3, 1)
    assert add_years(dt.date(2024, 2, 29), 2) == dt.date(2026, 2, 28)
    assert add_years(dt.date(2024, 2, 29), 4) == dt.date(2028, 2, 29)
