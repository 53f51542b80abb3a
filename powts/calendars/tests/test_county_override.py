"""A county's calendar is the state's plus its own differences, all as data (no code per county)."""
import datetime as dt

import pytest

from powts.calendars import CalendarError, calendar_from_data, loading
from powts.kernel import profiles

STATE = profiles.layers("state", "calendar")[1]


def county(monkeypatch, own):
    # a county folder that exists only in the test: its own calendar over the real state minimum
    real = profiles.layers
    monkeypatch.setattr(profiles, "layers",
                        lambda slug, name: (own, STATE) if slug == "testcounty" else real(slug, name))
    return calendar_from_data(loading._resolved("testcounty"), "testcounty")


def test_county_removes_a_holiday_and_adds_closures(monkeypatch):
    cal = county(monkeypatch, {
        "extends": "state",
        "holidays-": ["Columbus Day"],
        "holidays+": [{"name": "County Fair Day", "month": 8, "day": 14,
                      "citation": "county personnel policy", "quote": "August 14"}],
        "extra_closures+": [{"date": "2026-11-27", "reason": "day after Thanksgiving 2026",
                            "citation": "county board res. 12"},
                           {"date": "2026-01-02", "reason": "snow", "citation": "county board res. 13"}],
    })
    assert cal.is_working_day(dt.date(2026, 10, 12))          # Columbus Day open here
    assert not cal.is_working_day(dt.date(2026, 8, 14))       # own holiday (a Friday in 2026)
    assert not cal.is_working_day(dt.date(2026, 11, 27))      # own one-off closure
    assert not cal.is_working_day(dt.date(2026, 1, 2))
    assert not cal.is_working_day(dt.date(2026, 11, 26))      # inherited Thanksgiving
    assert cal.add_working_days(dt.date(2026, 11, 25), 1) == dt.date(2026, 11, 30)


def test_removing_an_unknown_holiday_is_an_error(monkeypatch):
    with pytest.raises(CalendarError, match="holidays-: names \\['Arbor Day'\\] that the state's 'holidays' does not have"):
        county(monkeypatch, {"extends": "state", "holidays-": ["Arbor Day"]})
