"""The working-day calendar: weekends, s. 995.20 holidays, s. 230.35(4)(a) closures, arithmetic.

Dane s. 46.11(1) and Lincoln (Mound and At-Grade Systems (1)) both count working days "excluding
Saturdays, Sundays and holidays"; the holidays are the README's reference facts (outside the texts).
"""
import datetime as dt

import numpy as np
import pytest

from powts.calendars import CalendarError, calendar_for, calendar_from_data

D = dt.date


@pytest.fixture(scope="module")
def dane():
    return calendar_for("dane")


def test_2026_closures_are_the_995_20_holidays_and_state_office_closures(dane):
    got = [(c.day, c.reason) for c in dane.closures_between(D(2026, 1, 1), D(2026, 12, 31))]
    assert [d for d, _ in got] == [
        D(2026, 1, 1), D(2026, 1, 19), D(2026, 2, 16), D(2026, 5, 25), D(2026, 6, 19),
        D(2026, 7, 3),   # July 4 is a Saturday: observed Friday (s. 230.35(4) practice)
        D(2026, 9, 7), D(2026, 10, 12), D(2026, 11, 11), D(2026, 11, 26),
        D(2026, 12, 24), D(2026, 12, 25), D(2026, 12, 31),
    ]
    assert all(c.citation for c in dane.closures_between(D(2026, 1, 1), D(2026, 12, 31)))


@pytest.mark.parametrize("day, working", [
    (D(2026, 11, 25), True),    # Wednesday before Thanksgiving
    (D(2026, 11, 26), False),   # Thanksgiving, 4th Thu of Nov
    (D(2026, 11, 27), True),    # the Friday after: not a s. 995.20 holiday
    (D(2026, 11, 28), False),   # Saturday
    (D(2026, 11, 29), False),   # Sunday
    (D(2026, 5, 25), False),    # Memorial Day, last Mon of May
    (D(2026, 5, 18), True),     # the Monday before it
])
def test_is_working_day(dane, day, working):
    assert dane.is_working_day(day) is working


def test_closure_names_the_reason(dane):
    assert dane.closure(D(2026, 11, 26)).reason == "Thanksgiving Day"
    assert dane.closure(D(2026, 11, 28)).reason == "Saturday"
    assert dane.closure(D(2026, 11, 25)) is None


def test_add_working_days_across_thanksgiving_and_a_weekend(dane):
    wed = D(2026, 11, 25)
    assert dane.add_working_days(wed, 1) == D(2026, 11, 27)   # skips Thanksgiving
    assert dane.add_working_days(wed, 2) == D(2026, 11, 30)   # and the weekend
    assert dane.next_working_day(D(2026, 11, 27)) == D(2026, 11, 30)


def test_add_working_days_from_a_closed_day_counts_the_next_working_day_as_first(dane):
    assert dane.add_working_days(D(2026, 11, 28), 1) == D(2026, 11, 30)   # Saturday + 1 = Monday


def test_zero_days_rolls_forward_only_from_a_closed_day(dane):
    assert dane.add_working_days(D(2026, 11, 25), 0) == D(2026, 11, 25)
    assert dane.add_working_days(D(2026, 11, 26), 0) == D(2026, 11, 27)


def test_negative_days_count_back(dane):
    assert dane.add_working_days(D(2026, 11, 30), -1) == D(2026, 11, 27)
    assert dane.add_working_days(D(2026, 11, 30), -2) == D(2026, 11, 25)
    assert dane.add_working_days(D(2026, 11, 28), -1) == D(2026, 11, 27)


def test_year_end_closures(dane):
    # Dec 24, 25, 31 (state office closures and Christmas) and Jan 1 are all closed
    assert dane.add_working_days(D(2026, 12, 23), 1) == D(2026, 12, 28)
    assert dane.add_working_days(D(2026, 12, 30), 1) == D(2027, 1, 4)


def test_long_spans_extend_the_index(dane):
    start = D(2026, 1, 2)
    later = dane.add_working_days(start, 2500)
    assert dane.add_working_days(later, -2500) == start


def test_datetimes_are_taken_in_chicago_time(dane):
    # 2026-11-26 03:00 UTC is still Wednesday evening in Chicago
    utc = dt.datetime(2026, 11, 26, 3, 0, tzinfo=dt.timezone.utc)
    assert dane.is_working_day(utc)


def test_vectorised_matches_scalar_and_numpy(dane):
    days = np.arange(np.datetime64("2026-01-01"), np.datetime64("2036-01-01"))
    for n in (1, 3, 10):
        got = dane.add_working_days_array(days, n)
        holidays = [dt.date.fromordinal(o) for o in dane.holiday_ordinals(2025, 2037)]
        peer = np.busday_offset(days, n, roll="backward", holidays=holidays)
        assert (got == peer).all()
    sample = days[::97]
    assert [dane.add_working_days(d.item(), 5) for d in sample] == list(dane.add_working_days_array(sample, 5).tolist())


def test_bad_inputs_raise_calendar_error(dane):
    with pytest.raises(CalendarError, match="not a date"):
        dane.add_working_days("2026-11-25", 1)
    with pytest.raises(CalendarError, match="whole number"):
        dane.add_working_days(D(2026, 11, 25), 1.5)
    with pytest.raises(CalendarError, match="1900-2200"):
        dane.add_working_days(D(1850, 1, 1), 1)


def test_unknown_jurisdiction():
    with pytest.raises(CalendarError, match="unknown jurisdiction 'nowhere'"):
        calendar_for("nowhere")


BASE = {
    "weekend": {"days": ["saturday", "sunday"], "citation": "test"},
    "holidays": [{"name": "New Year's Day", "month": 1, "day": 1, "citation": "Wis. Stat. s. 995.20"}],
}


def test_extra_closures_are_data():
    cal = calendar_from_data({**BASE, "extra_closures": [
        {"date": "2026-01-02", "reason": "snow day", "citation": "county board resolution"}]})
    assert not cal.is_working_day(D(2026, 1, 2))
    assert cal.closure(D(2026, 1, 2)).reason == "snow day"


@pytest.mark.parametrize("holiday, message", [
    ({"name": "X", "month": 1, "day": 1}, "has no citation"),
    ({"name": "X", "month": 13, "day": 1, "citation": "c"}, "month 13"),
    ({"name": "X", "month": 2, "day": 30, "citation": "c"}, "day 30"),
    ({"name": "X", "month": 1, "weekday": "funday", "nth": 1, "citation": "c"}, "needs either"),
])
def test_holiday_data_without_citation_or_with_bad_rule_does_not_load(holiday, message):
    with pytest.raises(CalendarError, match=message):
        calendar_from_data({**BASE, "holidays": [holiday]})


def test_extra_closure_without_citation_does_not_load():
    with pytest.raises(CalendarError, match="no citation"):
        calendar_from_data({**BASE, "extra_closures": [{"date": "2026-01-02"}]})


def test_threads_growing_the_index_at_once_agree_with_one_thread():
    # the web server is threaded: readers must never see half of an old index and half of a new one
    from concurrent.futures import ThreadPoolExecutor
    cal = calendar_from_data({**BASE, "holidays": BASE["holidays"]})
    reference = calendar_from_data({**BASE, "holidays": BASE["holidays"]})
    starts = [D(1950 + 25 * k, 1, 3) for k in range(8)]

    def sweep(start):
        return [cal.add_working_days(start + dt.timedelta(days=i), 3) for i in range(0, 3000, 7)]

    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(sweep, starts))
    expected = [[reference.add_working_days(s + dt.timedelta(days=i), 3) for i in range(0, 3000, 7)]
                for s in starts]
    assert got == expected
