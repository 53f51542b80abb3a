"""The calendar and inspection data of every profile: it loads, every value is cited, anything
from outside the texts says so; and the nth-weekday rules agree with an independent source."""
import pytest

from powts.calendars import calendar_for, inspection_rules_for
from powts.calendars.loading import _resolved
from powts.calendars.holiday_rules import parse_rule

SLUGS = ["dane", "lincoln", "state"]


@pytest.mark.parametrize("slug", SLUGS)
def test_calendar_loads_and_every_holiday_is_cited(slug):
    cal = calendar_for(slug)
    assert cal.timezone == "America/Chicago" and cal.weekend == {5, 6} and cal.weekend_citation
    for entry in _resolved(slug)["holidays"]:
        assert entry["citation"] and entry["quote"]
        if entry.get("outside_texts"):  # said in the note (for maintainers), not in the citation people see
            assert "outside the texts" in entry["note"] and "outside the texts" not in entry["citation"]


@pytest.mark.parametrize("slug", SLUGS)
def test_inspection_rules_load_and_are_cited(slug):
    rules = inspection_rules_for(slug)
    assert {"inspection", "backfill"} <= set(rules.deadlines)
    for d in rules.deadlines.values():
        assert d.citation and d.quote
        if d.outside_texts:  # the flag says so; the citation people see carries no internal note
            assert "outside the texts" not in d.citation
    for r in rules.notice_rules:
        assert r.citation and r.quote and set(r.applies_to) <= {"*", *rules.system_types}


def test_weekday_rules_match_the_holidays_package_for_federal_days():
    holidays = pytest.importorskip("holidays")
    ours = {e["name"]: parse_rule(e, None, "state") for e in _resolved("state")["holidays"]}
    theirs_name = {"Martin Luther King, Jr. Day": "Martin Luther King Jr. Day",
                   "Washington-Lincoln Day": "Washington's Birthday", "Memorial Day": "Memorial Day",
                   "Labor Day": "Labor Day", "Columbus Day": "Columbus Day", "Thanksgiving Day": "Thanksgiving Day"}
    for year in range(2000, 2051):
        by_name = {name: day for day, name in holidays.US(years=year).items()}
        for mine, theirs in theirs_name.items():
            assert ours[mine].actual(year) == by_name[theirs], (mine, year)
