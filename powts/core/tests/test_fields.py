"""The shared field parser: bounds are checked before any conversion,
both sides of every threshold, and no input takes a worker more than a second."""
import datetime as dt
import time
from decimal import Decimal

import pytest

from powts.core import fields

# Values that froze a worker (one request froze the whole server) and their cousins.
PATHOLOGICAL = ["1e1000000", "9e999999999", "-9e999999999", "1e-999999999", "9" * 5000, "9" * 100_000, "1" + "0" * 4300,
                "NaN", "-Infinity", "inf", "sNaN", "1/1e999999999", "1e999999999/3", "1e999999999%", "0x1p1000000",
                "1_000_000_000", "٣", "²", "1" * 39 + "e99", " " * 100_000 + "1"]


@pytest.mark.parametrize("raw", PATHOLOGICAL)
def test_pathological_numbers_are_refused_within_a_second(raw):
    """"1e1000000" blocked every thread for 25 s. Each parser refuses it (or parses a sane value) fast."""
    started = time.perf_counter()
    for parse, kw in ((fields.integer, {"minimum": 0, "maximum": 1_000_000}),
                      (fields.decimal, {"minimum": 0, "maximum": 1_000_000}), (fields.fraction, {})):
        try:
            value = parse("gallons_pumped", raw, **kw)
        except fields.FieldError as exc:
            assert exc.field == "gallons_pumped" and exc.message.startswith("gallons_pumped")
            assert len(exc.message) < 200  # the value is not echoed back whole
        else:
            assert value is None or abs(value) <= 1_000_000
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize("raw,expected", [("1000", 1000), ("1,000", 1000), (" 42 ", 42), ("1e3", 1000), ("1000.0", 1000),
                                          (7, 7), (7.0, 7), (Decimal(8), 8), ("", None), (None, None), ("  ", None)])
def test_integer_accepts_plain_numbers(raw, expected):
    assert fields.integer("n", raw, minimum=0, maximum=1_000_000) == expected


@pytest.mark.parametrize("raw,words", [("1.5", "whole number"), ("-1", "negative"), ("abc", "not a number"),
                                       ("1e100", "not a number"), (True, "must be a number"), ({"a": 1}, "must be a number"),
                                       ([1], "must be a number"), (float("nan"), "not a number"), (float("inf"), "not a number"),
                                       ("x" * 41, "too long")])
def test_integer_refuses_with_the_field_named(raw, words):
    with pytest.raises(fields.FieldError) as exc:
        fields.integer("gallons_pumped", raw, minimum=0, maximum=1_000_000)
    assert exc.value.field == "gallons_pumped" and words in exc.value.message


def test_integer_range_both_sides():
    """Both sides of each bound: the bound itself is accepted, one past it refused."""
    assert fields.integer("n", "1000000", minimum=0, maximum=1_000_000) == 1_000_000
    assert fields.integer("n", "0", minimum=0, maximum=1_000_000) == 0
    for raw in ("1000001", "-1", "1e7", "1000000.5"):
        with pytest.raises(fields.FieldError):
            fields.integer("n", raw, minimum=0, maximum=1_000_000)
    with pytest.raises(fields.FieldError, match="n is required"):
        fields.integer("n", "", required=True)


def test_number_length_both_sides():
    """MAX_NUMBER_CHARS: 40 characters is read, 41 is refused before conversion."""
    forty = "0" * 39 + "1"
    assert fields.integer("n", forty) == 1 and fields.decimal("n", forty) == 1
    with pytest.raises(fields.FieldError, match="too long"):
        fields.decimal("n", "0" + forty)


def test_exponent_both_sides():
    """Two exponent digits are read (then range-checked); three are refused before conversion."""
    assert fields.decimal("n", "1e99") == Decimal("1e99")
    with pytest.raises(fields.FieldError, match="not a number"):
        fields.decimal("n", "1e100")
    with pytest.raises(fields.FieldError, match="larger than"):
        fields.integer("n", "1e99", maximum=10)


@pytest.mark.parametrize("raw,expected", [("0.25", Decimal("0.2500")), ("1/3", Decimal("0.3333")), ("25%", Decimal("0.2500")),
                                          (0.5, Decimal("0.5000")), ("0", Decimal("0.0000")), ("1", Decimal("1.0000"))])
def test_fraction_forms(raw, expected):
    assert fields.fraction("sludge_scum_fraction", raw) == expected


@pytest.mark.parametrize("raw", ["1.0001", "-0.0001", "2/1", "101%", "1/0", "a/b", "1//2", "NaN%", "1e5"])
def test_fraction_refused(raw):
    with pytest.raises(fields.FieldError) as exc:
        fields.fraction("sludge_scum_fraction", raw)
    assert exc.value.field == "sludge_scum_fraction"


def test_date_plausible_both_sides():
    """work_date 0001-01-01 was accepted. 1900-01-01 is the earliest, today the latest for work done."""
    today = dt.date(2026, 6, 1)
    assert fields.date("work_date", "1900-01-01", latest=today) == dt.date(1900, 1, 1)
    assert fields.date("work_date", "2026-06-01", latest=today) == today
    with pytest.raises(fields.FieldError, match="before 1900"):
        fields.date("work_date", "1899-12-31", latest=today)
    with pytest.raises(fields.FieldError, match="before 1900"):
        fields.date("work_date", "0001-01-01", latest=today)
    with pytest.raises(fields.FieldError, match="in the future"):
        fields.date("work_date", "2026-06-02", latest=today)
    for bad in ("2026-13-01", "x" * 33, {"y": 1}, 20260601):
        with pytest.raises(fields.FieldError) as exc:
            fields.date("work_date", bad)
        assert exc.value.field == "work_date"


def test_text_length_both_sides_and_nul():
    """NUL bytes gave 500 on PostgreSQL; a system_id given as an object was stored as its repr."""
    assert fields.text("owner_name", "x" * 200, max_length=200) == "x" * 200
    with pytest.raises(fields.FieldError, match="201 characters long; at most 200"):
        fields.text("owner_name", "x" * 201, max_length=200)
    with pytest.raises(fields.FieldError, match="NUL"):
        fields.text("notes", "a\x00b")
    for bad in ({"a": 1}, ["a"], True, b"x"):
        with pytest.raises(fields.FieldError, match="must be text"):
            fields.text("system_id", bad)
    assert fields.text("system_id", 123) == "123"
    assert fields.unstorable_in({"a": ["x", {"b\x00": 1}]}) == ("a[1].b", "contains a NUL character, which is not allowed in text")
    assert fields.unstorable_in({"readings": [{"note": "ok"}, {"note": "x\ud800"}]})[0] == "readings[1].note"
    assert fields.unstorable_in({"a": ["x", "\U0001f600"]}) is None  # a paired surrogate is one character: storable
