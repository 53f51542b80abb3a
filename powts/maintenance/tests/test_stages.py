"""A due date that comes back to one already noticed takes back the stage its letters reached (SPS 383.255:
the county notifies owners before the due date and follows up delinquent owners; Dane County Code s. 46.11(5)).

Dane's sequence for a system installed 2023-07-01 (due 2026-07-01): the reminder on the due date, the notice
of delinquency 30 days after it, the notice of violation 60 days after the due date and 30 after the one before.
Staff enter a wrong service date (the due date moves to 2029), then correct it (the due date is 2026-07-01 again):
the owner has had the reminder and the notice of delinquency for that date, so the next letter is the notice of
violation, on 2026-08-30 and not a day before. Before, the sequence started again at no stage, the reminder was
found already sent, and no letter followed at all.
"""
import datetime as dt

import pytest

from powts.inventory.services import system_update
from powts.maintenance import notice_page, stages
from powts.maintenance.models import Notice, Schedule
from powts.maintenance.notices import notices_send, preview
from powts.maintenance.services import schedule_refresh, schedule_sync

D = dt.date


def send(dane, tmp_path, day):
    return notices_send(jurisdiction=dane, as_of=day, output_dir=tmp_path)


def _change_service_date(dane, system, on, path):
    system.refresh_from_db()
    system_update(system=system, data={"last_serviced_on": on}, reason="service date corrected")
    if path == "nightly sync":
        schedule_sync(jurisdiction=dane)
    else:  # the one-system recomputation a report runs
        schedule_refresh(system=system)
    return Schedule.objects.get(pk=system.pk)


@pytest.mark.parametrize("path", ["nightly sync", "one system"])
@pytest.mark.django_db(transaction=True)
def test_a_due_date_that_comes_back_takes_back_its_stage_and_the_sequence_goes_on(dane, make_system, tmp_path, path):
    system = make_system(installed_on=D(2023, 7, 1))
    assert send(dane, tmp_path, D(2026, 7, 1)).counts == {"reminder": 1}
    assert send(dane, tmp_path, D(2026, 7, 31)).counts == {"delinquent": 1}

    row = _change_service_date(dane, system, D(2026, 7, 20), path)  # the wrong date: a new due date, a new sequence
    assert (row.due_on, row.stage, row.stage_on, row.delinquent) == (D(2029, 7, 20), "", None, False)

    row = _change_service_date(dane, system, None, path)  # corrected: the old due date, and what was sent for it
    assert (row.due_on, row.stage, row.stage_on, row.delinquent) == (D(2026, 7, 1), "delinquent", D(2026, 7, 31), True)

    for day, expected in ((D(2026, 8, 29), {}), (D(2026, 8, 30), {"violation": 1})):
        # the notices page counts from the stage alone, and says what the send will do
        assert notice_page.summary(jurisdiction=dane, as_of=day).counts == preview(jurisdiction=dane, as_of=day).counts == expected
    assert send(dane, tmp_path, D(2026, 8, 29)).total == 0  # 29 days after the notice of delinquency
    assert send(dane, tmp_path, D(2026, 8, 30)).counts == {"violation": 1}
    assert list(Notice.objects.order_by("as_of").values_list("kind", flat=True)) == ["reminder", "delinquent", "violation"]


@pytest.mark.django_db(transaction=True)
def test_a_due_date_never_noticed_starts_at_no_stage(dane, make_system, tmp_path):
    """The other side: letters sent for another due date do not carry over to a new one."""
    system = make_system(installed_on=D(2023, 7, 1))
    send(dane, tmp_path, D(2026, 7, 1))
    row = _change_service_date(dane, system, D(2026, 7, 20), "one system")
    assert (row.stage, row.stage_on, row.delinquent) == ("", None, False)
    assert send(dane, tmp_path, D(2029, 6, 20)).counts == {"first_notice": 1}  # 30 days before 2029-07-20


def test_the_stage_is_the_latest_step_sent_and_delinquency_follows_its_letter():
    reached = stages.reached
    marks = frozenset({"delinquent"})
    assert reached([], marks) == ("", None, False)
    assert reached([("first_notice", D(2026, 6, 1))], marks) == ("first_notice", D(2026, 6, 1), False)
    assert reached([("first_notice", D(2026, 6, 1)), ("reminder", D(2026, 7, 1))], marks) == ("reminder", D(2026, 7, 1), False)
    assert reached([("delinquent", D(2026, 7, 31)), ("reminder", D(2026, 7, 1))], marks) == ("delinquent", D(2026, 7, 31), True)
    # the holding tank's overdue-report letter is not a step of the sequence
    assert reached([("holding_overdue", D(2026, 7, 5))], marks) == ("", None, False)


@pytest.mark.django_db(transaction=True)
def test_the_upgrade_brings_a_lagging_stage_up_to_its_letters_and_lowers_none(dane, make_system, tmp_path):
    """What migration 0020 runs: rows written before stages were restored."""
    lagging, ahead, none = (make_system(system_id=ref, installed_on=D(2023, 7, 1)) for ref in ("LAG", "AHEAD", "NONE"))
    send(dane, tmp_path, D(2026, 7, 1))  # a reminder for each
    send(dane, tmp_path, D(2026, 7, 31))  # a notice of delinquency for each
    Schedule.objects.filter(pk=lagging.pk).update(stage="", stage_on=None, delinquent=False)
    Schedule.objects.filter(pk=ahead.pk).update(stage="violation", stage_on=D(2026, 8, 30))
    Notice.objects.filter(system_id=none.pk).delete()
    Schedule.objects.filter(pk=none.pk).update(stage="", stage_on=None, delinquent=False)

    assert stages.repair(dane.pk, frozenset({"delinquent"})) == 1
    got = {s.system_ref: (s.stage, s.stage_on, s.delinquent) for s in Schedule.objects.all()}
    assert got == {"LAG": ("delinquent", D(2026, 7, 31), True), "AHEAD": ("violation", D(2026, 8, 30), True),
                   "NONE": ("", None, False)}
