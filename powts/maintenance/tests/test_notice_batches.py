"""Notices from the browser: the notices page previews the next batch as of a date
(counts, the list, each letter as a PDF, owners without a usable address apart), sends it as a
background job with progress, gives the merged PDF to the print shop and e-mails owners who have an
address (a refused address recorded on that notice; the batch goes on); sending twice does the work
once; each system's letters are kept and reprintable; owners read their own; `notices send --dry-run`
prints the same preview; a county staggers its first notices over weekly batches."""
import datetime as dt

import pytest
from django.test import Client
from pypdf import PdfReader

from powts.maintenance.models import BatchStatus, Notice, NoticeBatch, Schedule
from powts.maintenance.notices import notices_send, preview
from powts.maintenance.services import schedule_sync

D = dt.date
AS_OF = D(2026, 6, 1)


@pytest.fixture
def county(dane, make_system):
    """Due 2026-07-01 (first notice from June 1), overdue since 2023 (a reminder), and one without an address."""
    make_system(system_id="DA-1", installed_on=D(2023, 7, 1))
    make_system(system_id="DA-2", installed_on=D(2020, 1, 1), owner="Lee Late", address="7 Oak St\nVerona, WI 53593")
    make_system(system_id="DA-3", installed_on=D(2023, 7, 1), owner="Nora Noaddress", address="")
    make_system(system_id="DA-FAR", installed_on=D(2026, 1, 1), owner="Fay Far", address="9 Pine St\nVerona, WI 53593")
    schedule_sync(jurisdiction=dane)
    return dane


@pytest.fixture
def letters_dir(settings, tmp_path):
    settings.POWTS_LETTERS_DIR = tmp_path / "letters"
    return settings.POWTS_LETTERS_DIR


@pytest.fixture
def staff_client(staff):
    c = Client()
    c.force_login(staff)
    return c


def test_page_previews_counts_list_and_held_back_owners(county, staff_client):
    r = staff_client.get(f"/maintenance/notices/?as_of={AS_OF}")
    assert r.status_code == 200
    html = r.content.decode()
    found = r.context["preview"]
    assert found.counts == {"first_notice": 1, "reminder": 1}
    assert 'data-kind="first_notice">1<' in html and 'data-kind="reminder">1<' in html and 'data-kind="held">1<' in html
    assert "Nora Noaddress" in html and "No mailing address on file" in html
    assert "Fay Far" not in html  # not due
    assert not Notice.objects.exists() and not NoticeBatch.objects.exists()  # a preview records nothing


def test_each_letter_viewable_as_pdf_before_anything_is_sent(county, staff_client, tmp_path):
    from powts.inventory.models import System

    pk = System.objects.get(system_id="DA-2").pk
    r = staff_client.get(f"/maintenance/notices/preview/{pk}.pdf?as_of={AS_OF}")
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    (tmp_path / "p.pdf").write_bytes(r.content)
    text = PdfReader(tmp_path / "p.pdf").pages[0].extract_text()
    assert "Lee Late" in text and "Reminder" in text and "Due date: January 1, 2023" in text
    assert not Notice.objects.exists()
    far = System.objects.get(system_id="DA-FAR").pk
    assert staff_client.get(f"/maintenance/notices/preview/{far}.pdf?as_of={AS_OF}").status_code == 404  # nothing due


def test_other_countys_staff_see_neither_the_letters_nor_the_batch(county, lincoln, make_user):
    from powts.inventory.models import System

    other = Client()
    other.force_login(make_user("lin", "county_staff", lincoln))
    pk = System.objects.get(system_id="DA-2").pk
    assert other.get(f"/maintenance/notices/preview/{pk}.pdf?as_of={AS_OF}").status_code == 404
    assert other.get(f"/maintenance/notices/?as_of={AS_OF}").context["preview"].total == 0


@pytest.mark.django_db(transaction=True)
def test_send_runs_in_the_background_and_gives_the_print_shop_one_pdf(county, staff_client, letters_dir, mailoutbox):
    r = staff_client.post("/maintenance/notices/send/", {"as_of": AS_OF.isoformat()})
    batch = NoticeBatch.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/maintenance/notices/batches/{batch.pk}/"
    assert (batch.status, batch.total, batch.held) == (BatchStatus.DONE, 2, 1)
    assert batch.counts == {"first_notice": 1, "reminder": 1}
    page = staff_client.get(f"/maintenance/notices/batches/{batch.pk}/")
    assert "Download the letters for the print shop" in page.content.decode()
    pdf = staff_client.get(f"/maintenance/notices/batches/{batch.pk}/letters.pdf")
    assert pdf.status_code == 200 and pdf["Content-Disposition"].startswith("attachment")
    path = letters_dir / "merged.pdf"
    path.write_bytes(b"".join(pdf.streaming_content))
    assert len(PdfReader(path).pages) == 2
    assert set(Notice.objects.values_list("system__system_id", flat=True)) == {"DA-1", "DA-2"}


@pytest.mark.django_db(transaction=True)
def test_sending_twice_does_the_work_once(county, staff_client, letters_dir):
    staff_client.post("/maintenance/notices/send/", {"as_of": AS_OF.isoformat()})
    files = sorted(p.name for p in letters_dir.rglob("*.pdf"))
    r = staff_client.post("/maintenance/notices/send/", {"as_of": AS_OF.isoformat()}, follow=True)
    assert "already asked for; nothing was sent twice" in r.content.decode()
    assert NoticeBatch.objects.count() == 1 and Notice.objects.count() == 2
    assert sorted(p.name for p in letters_dir.rglob("*.pdf")) == files  # no second print run


@pytest.mark.django_db(transaction=True)
def test_a_task_delivered_twice_runs_once(county, staff, letters_dir):
    from powts.jobs.tasks import execute
    from powts.maintenance.batches import batch_request

    batch, queued = batch_request(jurisdiction=county, as_of=AS_OF, user=staff)
    assert queued
    assert execute(batch.job_id) == "not claimed"  # the queue delivered it again: the batch is done, nothing is redone
    assert Notice.objects.count() == 2 and len(list(letters_dir.glob("*.pdf"))) == 1


@pytest.mark.django_db(transaction=True)
def test_a_failed_batch_says_why_and_may_be_asked_for_again(county, staff, letters_dir, monkeypatch):
    from powts.maintenance import batches

    def broken(**kw):
        raise OSError("disk full")

    monkeypatch.setattr(batches, "notices_send", broken)
    batch, _ = batches.batch_request(jurisdiction=county, as_of=AS_OF, user=staff)
    batch.refresh_from_db()
    assert batch.status == BatchStatus.FAILED and "disk full" in batch.error
    assert "OSError" not in batch.error  # plain words on the page, not the program's names for errors
    monkeypatch.undo()
    again, queued = batches.batch_request(jurisdiction=county, as_of=AS_OF, user=staff)
    again.refresh_from_db()
    assert queued and again.pk == batch.pk and again.status == BatchStatus.DONE and again.total == 2


@pytest.mark.django_db(transaction=True)
def test_progress_is_polled_while_the_batch_runs(county, staff, staff_client):
    from powts.jobs.models import Job

    job = Job.objects.create(kind="maintenance.notice_batch", title="Notice batch", jurisdiction=county, state="running",
                             step="printing", total=400, done=100)
    batch = NoticeBatch.objects.create(jurisdiction=county, as_of=AS_OF, job=job, requested_at=dt.datetime(2026, 6, 1, tzinfo=dt.timezone.utc))
    r = staff_client.get(f"/maintenance/notices/batches/{batch.pk}/", headers={"HX-Request": "true"})
    html = r.content.decode()
    assert r.status_code == 200 and "<html" not in html  # the fragment htmx swaps in
    assert 'hx-trigger="every 1s"' in html and 'value="25"' in html and "100 of 400 letters" in html
    Job.objects.filter(pk=job.pk).update(state="done")  # the batch shows its job's state
    assert "hx-trigger" not in staff_client.get(f"/maintenance/notices/batches/{batch.pk}/", headers={"HX-Request": "true"}).content.decode()


@pytest.mark.django_db(transaction=True)
def test_refused_email_is_recorded_on_that_notice_and_the_batch_goes_on(county, tmp_path, mailoutbox, settings):
    """Bad input: an e-mail address that is no address, and one the mail server refuses. The letters are
    mailed on paper anyway; the refusal is on the notice and on the batch page."""
    from powts.inventory.models import Owner

    Owner.objects.filter(name="Olive Owner").update(email="olive@example.org")
    Owner.objects.filter(name="Lee Late").update(email="not an address")
    result = notices_send(jurisdiction=county, as_of=AS_OF, output_dir=tmp_path)
    assert (result.emailed, result.email_failed) == (1, 1)
    assert [m.to for m in mailoutbox] == [["olive@example.org"]]
    late = Notice.objects.get(system__system_id="DA-2")
    assert late.emailed_at is None and "'not an address' is not an e-mail address" == late.email_error
    assert Notice.objects.get(system__system_id="DA-1").emailed_at is not None


@pytest.mark.django_db(transaction=True)
def test_server_refusal_of_one_address_does_not_stop_the_others(county, tmp_path, settings):
    import smtplib

    from django.core import mail
    from django.core.mail.backends.locmem import EmailBackend

    from powts.inventory.models import Owner

    class Refusing(EmailBackend):
        def send_messages(self, messages):
            if any("bounce" in to for m in messages for to in m.to):
                raise smtplib.SMTPRecipientsRefused({"bounce@example.org": (550, b"no such user")})
            return super().send_messages(messages)

    settings.EMAIL_BACKEND = f"{__name__}.Refusing"
    globals()["Refusing"] = Refusing
    mail.outbox = []
    Owner.objects.filter(name="Lee Late").update(email="bounce@example.org")
    Owner.objects.filter(name="Olive Owner").update(email="olive@example.org")
    result = notices_send(jurisdiction=county, as_of=AS_OF, output_dir=tmp_path)
    assert (result.emailed, result.email_failed) == (1, 1)
    assert "refused by the mail server" in Notice.objects.get(system__system_id="DA-2").email_error
    assert [m.to for m in mail.outbox] == [["olive@example.org"]]


@pytest.mark.django_db(transaction=True)
def test_letters_archived_on_the_system_page_and_reprintable(county, staff_client, tmp_path):
    from powts.inventory.models import System

    notices_send(jurisdiction=county, as_of=AS_OF, output_dir=tmp_path)
    notice = Notice.objects.get(system__system_id="DA-1")
    page = staff_client.get(f"/inventory/systems/{System.objects.get(system_id='DA-1').pk}/").content.decode()
    assert f"/maintenance/notices/{notice.pk}/letter.pdf" in page
    r = staff_client.get(f"/maintenance/notices/{notice.pk}/letter.pdf")
    assert r.status_code == 200 and r.content == open(notice.pdf_path, "rb").read()  # the letter as mailed
    import os

    os.remove(notice.pdf_path)  # the file is gone: the same letter is drawn again from the record
    again = staff_client.get(f"/maintenance/notices/{notice.pk}/letter.pdf")
    (tmp_path / "again.pdf").write_bytes(again.content)
    assert "Due date: July 1, 2026" in PdfReader(tmp_path / "again.pdf").pages[0].extract_text()


@pytest.mark.django_db(transaction=True)
def test_owners_read_their_own_letters_and_no_one_elses(county, make_user, tmp_path):
    from powts.inventory.models import Owner

    olive = make_user("olive", "owner")
    Owner.objects.filter(name="Olive Owner").update(user=olive)
    notices_send(jurisdiction=county, as_of=AS_OF, output_dir=tmp_path)
    mine, theirs = Notice.objects.get(system__system_id="DA-1"), Notice.objects.get(system__system_id="DA-2")
    c = Client()
    c.force_login(olive)
    assert f"/maintenance/notices/{mine.pk}/letter.pdf" in c.get("/maintenance/mine/").content.decode()
    assert c.get(f"/maintenance/notices/{mine.pk}/letter.pdf").status_code == 200
    assert c.get(f"/maintenance/notices/{theirs.pk}/letter.pdf").status_code == 404


def test_dry_run_prints_the_pages_preview_and_records_nothing(county, cli):
    code, out, _ = cli("maintenance", "notices", "send", "--jurisdiction", "dane", "--as-of", AS_OF.isoformat(), "--dry-run")
    assert code == 0, out
    found = preview(jurisdiction=county, as_of=AS_OF)
    assert "dry run: nothing recorded or sent" in out
    assert f"{'Maintenance due notice':<32} {1:>9,}" in out and f"{'Reminder: maintenance overdue':<32} {1:>9,}" in out
    assert f"{'Total to mail':<32} {found.total:>9,}" in out and f"{'Held back: no usable address':<32} {1:>9,}" in out
    assert "DA-3             Nora Noaddress: no mailing address on file" in out
    assert not Notice.objects.exists() and not Schedule.objects.exclude(stage="").exists()


@pytest.mark.parametrize("slug,weeks", [("state", 1), ("lincoln", 4)])
def test_staggered_batches_spread_first_notices_over_whole_weeks(slug, weeks):
    """notices.mailing.stagger_weeks: first notices go out in that many weekly batches, never later than the lead time."""
    from powts.maintenance import rules
    from powts.maintenance.profile import maintenance_profile

    profile = maintenance_profile(slug)
    assert profile.stagger_weeks == weeks
    due = D(2027, 3, 15)
    leads = {(due - rules.notice_date(profile, due, key)).days for key in range(400)}
    assert leads == {profile.lead_time_days + 7 * w for w in range(weeks)}
    # the same system keeps its week from one cycle to the next
    assert (due - rules.notice_date(profile, due, 17)).days == (D(2030, 3, 15) - rules.notice_date(profile, D(2030, 3, 15), 17)).days


def test_page_says_when_systems_added_since_the_last_schedule_update_are_not_in_the_preview(county, make_system, staff_client):
    assert "not in this preview" not in staff_client.get(f"/maintenance/notices/?as_of={AS_OF}").content.decode()
    make_system(system_id="DA-NEW", installed_on=D(2023, 7, 1), owner="Ned New", address="3 Ash St\nVerona, WI 53593")
    html = staff_client.get(f"/maintenance/notices/?as_of={AS_OF}").content.decode()
    assert "1 system added since the due dates were last brought up to date is not in this preview" in html


def test_page_names_each_letters_language_in_words_not_codes(county, staff_client):
    from powts.inventory.models import Owner

    Owner.objects.filter(name="Lee Late").update(language="hmn")
    html = staff_client.get(f"/maintenance/notices/?as_of={AS_OF}").content.decode()
    assert "<td>Hmong (Hmoob)</td>" in html and "<td>English</td>" in html and "<td>hmn</td>" not in html


@pytest.mark.django_db(transaction=True)
def test_a_run_that_died_after_recording_prints_those_letters_when_asked_again(county, staff, letters_dir, monkeypatch):
    """Nothing lost: the notices were recorded (so a new run would not send them again) but their letters were not
    printed. Asked for again, the batch prints them, with its own label, and records nothing twice."""
    from powts.maintenance import batches, notices

    def crash(*a, **k):
        raise OSError("printer process killed")

    monkeypatch.setattr(notices, "_deliver", crash)
    batch, _ = batches.batch_request(jurisdiction=county, as_of=AS_OF, user=staff)
    batch.refresh_from_db()
    assert batch.status == BatchStatus.FAILED and Notice.objects.filter(batch=batch.batch).count() == 2
    monkeypatch.undo()
    batches.batch_request(jurisdiction=county, as_of=AS_OF, user=staff)
    batch.refresh_from_db()
    assert batch.status == BatchStatus.DONE and batch.total == 2 and Notice.objects.count() == 2
    assert len(PdfReader(batch.merged_path).pages) == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("silent_for, taken_back", [(119, False), (121, True)])
def test_a_batch_whose_worker_died_is_taken_back_by_its_job_not_by_asking_again(county, staff, letters_dir, monkeypatch,
                                                                               silent_for, taken_back):
    """One state machine: the job's stale check (POWTS_JOB_STALE_SECONDS, 120) takes a silent batch back;
    asking for the batch again while its job runs does nothing, whatever the time."""
    from django.utils import timezone

    from powts.jobs import services
    from powts.jobs.models import Job, JobState
    from powts.maintenance.batches import batch_request

    monkeypatch.setattr(services, "enqueue", lambda job: None)  # asked for; no worker has it yet
    batch, _ = batch_request(jurisdiction=county, as_of=AS_OF, user=staff)
    services.claim(batch.job_id)  # a worker takes it ... and dies
    Job.objects.filter(pk=batch.job_id).update(heard_at=timezone.now() - dt.timedelta(seconds=silent_for))
    assert batch_request(jurisdiction=county, as_of=AS_OF, user=staff) == (batch, False)  # still its job's
    monkeypatch.undo()
    assert services.requeue_stale() == (1 if taken_back else 0)
    batch.refresh_from_db()
    assert batch.status == (BatchStatus.DONE if taken_back else BatchStatus.RUNNING)
    assert Job.objects.get().state == (JobState.DONE if taken_back else JobState.RUNNING)
    assert batch.total == (2 if taken_back else 0) and Notice.objects.count() == (2 if taken_back else 0)


@pytest.mark.django_db(transaction=True)
def test_a_retried_batch_does_not_e_mail_again_nor_restamp_what_was_e_mailed(county, tmp_path, mailoutbox):
    from powts.inventory.models import Owner
    from powts.maintenance import notices as notices_module

    Owner.objects.filter(name="Olive Owner").update(email="olive@example.org")
    first = notices_send(jurisdiction=county, as_of=AS_OF, output_dir=tmp_path, batch="dane-retry")
    stamped = Notice.objects.get(system__system_id="DA-1").emailed_at
    assert first.emailed == 1 and stamped is not None
    again = notices_module.notices_send(jurisdiction=county, as_of=AS_OF, output_dir=tmp_path, batch="dane-retry")
    assert again.total == 2 and again.emailed == 0 and len(mailoutbox) == 1
    assert Notice.objects.get(system__system_id="DA-1").emailed_at == stamped


@pytest.mark.django_db(transaction=True)
def test_a_batch_stopped_by_an_unexpected_error_says_so_in_plain_words(county, staff, letters_dir, monkeypatch):
    from powts.maintenance import batches

    def broken(**kw):
        raise KeyError("internal_field_name")

    monkeypatch.setattr(batches, "notices_send", broken)
    batch, _ = batches.batch_request(jurisdiction=county, as_of=AS_OF, user=staff)
    batch.refresh_from_db()
    assert batch.status == BatchStatus.FAILED
    assert batch.error == "an unexpected error (the administrator's log has the details)"
    assert "KeyError" not in batch.error and "internal_field_name" not in batch.error
