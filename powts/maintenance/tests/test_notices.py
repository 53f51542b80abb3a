"""Notices: Dane County Code s. 46.11(5) (30 days before), SPS 383.255 (delinquency), never twice."""
import datetime as dt

import pytest
from pypdf import PdfReader

from powts.maintenance.models import Notice, Schedule
from powts.maintenance.notices import notices_send
from powts.maintenance.services import schedule_sync

D = dt.date


@pytest.fixture
def system(make_system):
    # installed 2023-07-01: due 2026-07-01, first notice from 2026-06-01
    return make_system(installed_on=D(2023, 7, 1))


def send(dane, tmp_path, day):
    return notices_send(jurisdiction=dane, as_of=day, output_dir=tmp_path)


@pytest.mark.django_db(transaction=True)
def test_46_11_5_first_notice_at_30_days_not_31(dane, system, tmp_path):
    assert send(dane, tmp_path, D(2026, 5, 31)).total == 0
    result = send(dane, tmp_path, D(2026, 6, 1))
    assert result.counts == {"first_notice": 1}
    n = Notice.objects.get()
    assert (n.kind, n.due_on, n.to_name) == ("first_notice", D(2026, 7, 1), "Olive Owner")
    assert len(PdfReader(result.merged_file).pages) == 1 and len(PdfReader(n.pdf_path).pages) == 1
    text = PdfReader(n.pdf_path).pages[0].extract_text()
    # the owner's address, the system, the due date, what to do and who may do it
    for words in ("Olive Owner", "12 Lake Rd", "DA-1", "Due date: July 1, 2026", "What to do", "Who may do the work", "septage servicing operator",
                  "Dane County Code s. 46.11(5)1."):
        assert words in text, words
    assert PdfReader(result.merged_file).pages[0].extract_text() == text
    from powts.audit.models import AuditEvent

    event = AuditEvent.objects.get(object_id=n.pk, content_type__model="notice")
    assert event.changes["kind"] == [None, "first_notice"] and "recorded for due date 2026-07-01" in event.action
    # never twice
    assert send(dane, tmp_path, D(2026, 6, 2)).total == 0
    assert Notice.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_escalation_in_order_with_grace_periods(dane, system, tmp_path):
    assert send(dane, tmp_path, D(2026, 7, 1)).counts == {"reminder": 1}         # on the due date
    assert send(dane, tmp_path, D(2026, 7, 30)).total == 0                        # 29 days later: grace period running
    assert send(dane, tmp_path, D(2026, 7, 31)).counts == {"delinquent": 1}      # 30 days after due and after the reminder
    assert Schedule.objects.get(pk=system.pk).delinquent
    assert send(dane, tmp_path, D(2026, 8, 30)).counts == {"violation": 1}
    assert send(dane, tmp_path, D(2026, 9, 29)).counts == {"enforcement_order": 1}
    assert send(dane, tmp_path, D(2027, 1, 1)).total == 0
    assert list(Notice.objects.order_by("as_of").values_list("kind", flat=True)) == ["reminder", "delinquent", "violation", "enforcement_order"]


@pytest.mark.django_db(transaction=True)
def test_report_restarts_the_sequence(dane, system, pumper_license, tmp_path):
    from django.utils import timezone

    from powts.maintenance.services import report_submit

    send(dane, tmp_path, D(2026, 7, 1))
    report_submit(jurisdiction=dane, data={"system_id": system.system_id, "kind": "pumping", "work_date": "2026-07-05",
                                           "license_number": "SSO-1"}, now=timezone.make_aware(dt.datetime(2026, 7, 6, 9)))
    row = Schedule.objects.get(pk=system.pk)
    assert row.due_on == D(2029, 7, 5) and row.stage == "" and not row.delinquent
    assert send(dane, tmp_path, D(2026, 8, 1)).total == 0


@pytest.mark.django_db(transaction=True)
def test_email_where_the_owner_gave_an_address(dane, system, tmp_path, mailoutbox):
    owner = system.parcel.owner
    owner.email = "olive@example.org"
    owner.save()
    schedule_sync(jurisdiction=dane)
    result = send(dane, tmp_path, D(2026, 6, 1))
    assert result.emailed == 1 and mailoutbox[0].to == ["olive@example.org"]
    assert mailoutbox[0].attachments[0][2] == "application/pdf"
    assert Notice.objects.get().emailed_at is not None


@pytest.mark.django_db(transaction=True)
def test_one_file_per_owner_with_all_their_systems(dane, make_system, tmp_path):
    make_system(system_id="DA-1", installed_on=D(2023, 7, 1))
    make_system(system_id="DA-2", installed_on=D(2023, 7, 1))  # same owner and address: one owner record
    result = send(dane, tmp_path, D(2026, 6, 1))
    assert result.total == 2 and result.owner_files == 1
    assert len(PdfReader(result.merged_file).pages) == 2


def test_unique_constraint_never_twice(dane, system):
    from django.db import IntegrityError, transaction
    from django.utils import timezone

    kw = dict(jurisdiction=dane, system=system, kind="first_notice", due_on=D(2026, 7, 1), as_of=D(2026, 6, 1),
              sent_at=timezone.now(), batch="b", to_name="x")
    Notice.objects.create(**kw)
    with pytest.raises(IntegrityError), transaction.atomic():
        Notice.objects.create(**kw)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("sent_on,due_on", [
    (D(2026, 6, 21), D(2026, 7, 21)),   # 10 days before the due date: moved to the notice date + 30
    (D(2026, 6, 2), D(2026, 7, 2)),     # 29 days before: moved by one day
    (D(2026, 6, 1), D(2026, 7, 1)),     # 30 days before: unchanged
])
def test_46_11_5_1_late_first_notice_moves_due_date_to_keep_30_days(dane, system, tmp_path, sent_on, due_on):
    """Dane 46.11(5)1.: notices go out "at least 30 days prior to the due date"; a first notice sent later (a late import,
    a skipped batch) moves the due date so the owner still has 30 days, audited; at exactly 30 days nothing moves."""
    from powts.audit.models import AuditEvent

    result = send(dane, tmp_path, sent_on)
    assert result.counts == {"first_notice": 1}
    notice = Notice.objects.get()
    row = Schedule.objects.get(pk=system.pk)
    assert notice.due_on == row.due_on == due_on
    moved = AuditEvent.objects.filter(content_type__model="schedule", object_id=system.pk, action__startswith="due date moved")
    if due_on == D(2026, 7, 1):
        assert not moved.exists() and row.due_extended_from is None and result.due_dates_moved == 0
        return
    event = moved.get()
    assert event.changes["due_on"] == ["2026-07-01", due_on.isoformat()] and "Dane County Code s. 46.11(5)1." in event.action
    assert row.due_extended_from == D(2026, 7, 1) and result.due_dates_moved == 1
    assert f"Due date: {due_on:%B} {due_on.day}, 2026" in PdfReader(notice.pdf_path).pages[0].extract_text()
    # the next run's recomputation keeps the moved date; the reminder comes on it, not on the old one
    schedule_sync(jurisdiction=dane)
    assert send(dane, tmp_path, D(2026, 7, 1)).total == 0
    assert send(dane, tmp_path, due_on).counts == {"reminder": 1}


@pytest.mark.django_db(transaction=True)
def test_moved_due_date_gives_way_to_a_new_report(dane, system, pumper_license, tmp_path):
    """Dane 46.11(5)1.: the moved due date belongs to that cycle; a new pumping report starts a new cycle."""
    from django.utils import timezone

    from powts.maintenance.services import report_submit

    send(dane, tmp_path, D(2026, 6, 21))
    report_submit(jurisdiction=dane, data={"system_id": "DA-1", "kind": "pumping", "work_date": "2026-07-01", "license_number": "SSO-1",
                                           "gallons_pumped": "1000", "disposal_site": "Nine Springs WWTP"},
                  now=timezone.make_aware(dt.datetime(2026, 7, 2, 12, 0)))
    row = Schedule.objects.get(pk=system.pk)
    assert row.due_on == D(2029, 7, 1) and row.due_extended_from is None and row.stage == ""
