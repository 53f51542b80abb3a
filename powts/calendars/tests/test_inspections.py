"""Inspection notice rules and deadlines, from the ordinance text.

Dane County Code s. 46.11(1): "Notice from the plumber in charge shall be given by 9:00 A.M. of the
day the system is anticipated to be ready for inspection" and the division inspects "no later than
the end of the next workday, excluding Saturdays, Sundays and holidays".
Lincoln County Ch. 22 (draft): Inspections; General (1) (24 hours, else a fee), Mound and At-Grade
Systems (1) and Sand Filters (1) ("the working day prior"), Experimental Systems (2) ("at least 2
workdays prior"), Reinspection (2) (fee due within 10 working days).
SPS 383.26 (outside the texts): not inspected by the end of the next workday after the day
requested -> the plumber may backfill.
Nov 2026: Tue 24, Wed 25, Thanksgiving Thu 26, Fri 27, weekend 28-29, Mon 30.
"""
import datetime as dt

import pytest
from zoneinfo import ZoneInfo

from powts.calendars import CalendarError, deadline, review_request

D = dt.date
T = dt.datetime
UTC = dt.timezone.utc
CHICAGO = ZoneInfo("America/Chicago")


# -- Dane s. 46.11(1) ----------------------------------------------------------------------

@pytest.mark.parametrize("minute, allowed", [(59, True), (60, True), (61, False)])
def test_dane_notice_by_9am_of_the_ready_day(minute, allowed):
    notice = T(2026, 11, 24, 8, 0) + dt.timedelta(minutes=minute)   # 8:59, 9:00, 9:01
    decision = review_request("dane", notice, requested_day=D(2026, 11, 24))
    assert decision.allowed is allowed
    if not allowed:
        (refusal,) = decision.refusals
        assert refusal.citation == "Dane County Code s. 46.11(1)"
        assert "earliest allowed day is Wednesday 2026-11-25" in refusal.message
        assert "09:00" in refusal.message


def test_dane_inspection_by_end_of_next_workday_8_59_vs_9_01():
    assert deadline("dane", "inspection", T(2026, 11, 24, 8, 59)).day == D(2026, 11, 25)
    # 9:01 is notice for Wednesday; the next workday after Wednesday is Friday (Thanksgiving)
    assert deadline("dane", "inspection", T(2026, 11, 24, 9, 1)).day == D(2026, 11, 27)


def test_dane_deadline_across_thanksgiving_and_the_weekend():
    assert deadline("dane", "inspection", T(2026, 11, 25, 8, 0)).day == D(2026, 11, 27)
    assert deadline("dane", "inspection", T(2026, 11, 27, 8, 0)).day == D(2026, 11, 30)


def test_dane_notice_early_for_a_later_ready_day():
    # Monday notice for a system ready Tuesday: inspected by the end of Wednesday
    assert deadline("dane", "inspection", T(2026, 11, 23, 15, 0),
                    requested_day=D(2026, 11, 24)).day == D(2026, 11, 25)


def test_dane_refused_request_raises_with_earliest_day_and_citation():
    with pytest.raises(CalendarError, match=r"earliest allowed day is Wednesday 2026-11-25.*46\.11\(1\)"):
        deadline("dane", "inspection", T(2026, 11, 24, 9, 1), requested_day=D(2026, 11, 24))


def test_notice_times_are_chicago_time():
    # 14:59 UTC = 8:59 CST; 15:01 UTC = 9:01 CST
    assert review_request("dane", T(2026, 11, 24, 14, 59, tzinfo=UTC), requested_day=D(2026, 11, 24)).allowed
    assert not review_request("dane", T(2026, 11, 24, 15, 1, tzinfo=UTC), requested_day=D(2026, 11, 24)).allowed


# -- SPS 383.26 backfill (state, inherited by both counties) ------------------------------

@pytest.mark.parametrize("slug", ["dane", "lincoln", "state"])
def test_backfill_after_end_of_next_workday_after_day_requested(slug):
    got = deadline(slug, "backfill", T(2026, 11, 20, 8, 0), requested_day=D(2026, 11, 25))
    assert got.day == D(2026, 11, 27)
    assert "SPS 383.26" in got.citation


# -- Lincoln, Inspections; General (1): 24 hours, else a fee --------------------------------

def test_lincoln_24_hours_notice_allows_the_next_day_from_the_same_time():
    decision = review_request("lincoln", T(2026, 11, 23, 10, 0), requested_day=D(2026, 11, 24))
    assert decision.allowed and not decision.fees
    assert decision.not_before == T(2026, 11, 24, 10, 0, tzinfo=CHICAGO)


def test_lincoln_24_hours_are_elapsed_hours_across_the_dst_change():
    # DST ends Sun 2026-11-01 at 2:00; 01:30 CDT + 24 h = Mon 00:30 CST (not 01:30)
    notice = T(2026, 11, 1, 1, 30, tzinfo=CHICAGO)   # fold=0: the first 01:30, CDT
    decision = review_request("lincoln", notice, requested_day=D(2026, 11, 2))
    assert (decision.not_before.hour, decision.not_before.minute) == (0, 30)


def test_lincoln_under_24_hours_is_a_fee_not_a_refusal():
    decision = review_request("lincoln", T(2026, 11, 23, 10, 0), requested_day=D(2026, 11, 23))
    assert decision.allowed
    (fee,) = decision.fees
    assert fee.citation == "Lincoln County Ch. 22 (draft), Inspections; General (1)"
    assert "additional fee" in fee.message


def test_lincoln_default_inspection_day_and_deadline_across_thanksgiving():
    # notice Tue 10:00 -> inspection from Wed 10:00 -> SPS 383.26: by the end of Friday
    assert deadline("lincoln", "inspection", T(2026, 11, 24, 10, 0)).day == D(2026, 11, 27)


def test_lincoln_24_hours_ending_on_a_holiday_moves_to_next_working_day():
    decision = review_request("lincoln", T(2026, 11, 25, 10, 0))
    assert decision.requested_day == D(2026, 11, 27) and decision.not_before is None


# -- Lincoln mound, at-grade, sand filter: "the working day prior" --------------------------

@pytest.mark.parametrize("system", ["mound", "at_grade", "sand_filter"])
@pytest.mark.parametrize("notice, install, allowed", [
    (T(2026, 11, 24, 16, 0), D(2026, 11, 25), True),    # Tue for Wed
    (T(2026, 11, 25, 7, 0), D(2026, 11, 25), False),    # same day
    (T(2026, 11, 25, 16, 0), D(2026, 11, 27), True),    # Wed is the working day prior to Fri
    (T(2026, 11, 27, 16, 0), D(2026, 11, 30), True),    # Fri for Mon
    (T(2026, 11, 28, 9, 0), D(2026, 11, 30), False),    # Sat is not the working day prior to Mon
])
def test_lincoln_working_day_prior(system, notice, install, allowed):
    decision = review_request("lincoln", notice, system=system, requested_day=install)
    assert decision.allowed is allowed
    if not allowed:
        assert any("the working day prior" not in f.message and "earliest allowed day" in f.message
                   for f in decision.refusals)


def test_lincoln_saturday_notice_for_a_mound_earliest_tuesday():
    decision = review_request("lincoln", T(2026, 11, 28, 9, 0), system="mound", requested_day=D(2026, 11, 30))
    (refusal,) = decision.refusals
    assert "earliest allowed day is Tuesday 2026-12-01" in refusal.message
    assert refusal.citation == "Lincoln County Ch. 22 (draft), Inspections; Mound and At-Grade Systems (1)"


def test_standard_systems_have_no_working_day_prior_rule():
    assert review_request("lincoln", T(2026, 11, 24, 9, 0), requested_day=D(2026, 11, 25)).allowed


# -- Lincoln experimental: "at least 2 workdays prior" ---------------------------------------

@pytest.mark.parametrize("notice, install, allowed", [
    (T(2026, 11, 23, 9, 0), D(2026, 11, 25), True),     # Mon for Wed
    (T(2026, 11, 24, 9, 0), D(2026, 11, 25), False),    # Tue for Wed: 1 workday
    (T(2026, 11, 24, 9, 0), D(2026, 11, 27), True),     # Tue for Fri: Wed, (Thu closed), Fri
    (T(2026, 11, 25, 9, 0), D(2026, 11, 27), False),    # Wed for Fri: only 1 workday
])
def test_lincoln_experimental_two_workdays(notice, install, allowed):
    assert review_request("lincoln", notice, system="experimental", requested_day=install).allowed is allowed


# -- Lincoln, Reinspection (2): fee due within 10 working days ------------------------------

def test_lincoln_reinspection_fee_due_skips_christmas_and_new_year():
    got = deadline("lincoln", "reinspection_fee", T(2026, 12, 14, 12, 0))
    # Dec 15-18, 21-23, (24, 25 closed), 28-30 -> the 10th working day is Dec 30
    assert got.day == D(2026, 12, 30)
    assert got.citation == "Lincoln County Ch. 22 (draft), Reinspection (2)"


def test_county_without_a_rule_says_which_rules_it_has():
    with pytest.raises(CalendarError, match="unknown rule 'reinspection_fee' for dane; known: backfill, inspection"):
        deadline("dane", "reinspection_fee", T(2026, 12, 14, 12, 0))


def test_unknown_system_type():
    with pytest.raises(CalendarError, match="unknown system type 'moound'"):
        review_request("lincoln", T(2026, 11, 24, 9, 0), system="moound")


def test_requested_day_before_the_notice_is_bad_input():
    with pytest.raises(CalendarError, match="requested day 2026-11-23 is before the notice"):
        review_request("lincoln", T(2026, 11, 24, 9, 0), requested_day=D(2026, 11, 23))


def test_nonplumbing_in_lincoln_has_no_24_hour_rule():
    # Inspections of Nonplumbing Sanitary Systems (2): the owner notifies "immediately after"
    assert not review_request("lincoln", T(2026, 11, 24, 16, 0), system="nonplumbing",
                              requested_day=D(2026, 11, 24)).fees
