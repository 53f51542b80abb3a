"""Bad input, an email address that bounces: a notice's e-mail accepted by the mail server and
returned later as undeliverable (a delivery status notification, RFC 3464) is recorded on that notice, as
bounced with the server's reason; the letter went on paper with the batch. `powts maintenance bounces
read DIR` reads a folder of such reports; a file that is not one is named and changes nothing."""
import datetime as dt

import pytest

from powts.audit.models import AuditEvent
from powts.inventory.models import Owner
from powts.maintenance.bounces import BounceRefused, bounce_record, failures
from powts.maintenance.models import Notice
from powts.maintenance.notices import notices_send
from powts.maintenance.services import schedule_sync

AS_OF = dt.date(2026, 6, 1)


def dsn(recipient: str, *, action: str = "failed", status: str = "5.1.1", date: str = "Tue, 01 Dec 2099 10:00:00 +0000") -> bytes:
    return f"""From: MAILER-DAEMON@mail.example.org
To: notices@county.example.org
Subject: Undelivered Mail Returned to Sender
Date: {date}
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B"

--B
Content-Type: text/plain

Your message could not be delivered.

--B
Content-Type: message/delivery-status

Reporting-MTA: dns; mail.example.org

Final-Recipient: rfc822; {recipient}
Action: {action}
Status: {status}
Diagnostic-Code: smtp; 550 5.1.1 <{recipient}>: mailbox unavailable

--B--
""".encode()


@pytest.fixture
def emailed(dane, make_system, tmp_path, mailoutbox, django_capture_on_commit_callbacks):
    """Two owners' notices e-mailed in the June batch."""
    make_system(system_id="DA-1", installed_on=dt.date(2023, 7, 1))
    make_system(system_id="DA-2", installed_on=dt.date(2020, 1, 1), owner="Lee Late", address="7 Oak St\nVerona, WI 53593")
    schedule_sync(jurisdiction=dane)
    Owner.objects.filter(name="Olive Owner").update(email="olive@example.org")
    Owner.objects.filter(name="Lee Late").update(email="Lee@Example.org")
    with django_capture_on_commit_callbacks(execute=True):
        result = notices_send(jurisdiction=dane, as_of=AS_OF, output_dir=tmp_path)
    assert result.emailed == 2 and len(mailoutbox) == 2
    return dane


def test_a_failed_recipient_in_a_delivery_report_marks_that_owners_notice_bounced(emailed):
    found, when = failures(dsn("lee@example.org"), name="bounce-1.eml")
    assert [(f.recipient, f.status) for f in found] == [("lee@example.org", "5.1.1")] and when.year == 2099
    marked = bounce_record(recipient=found[0].recipient, reason=f"{found[0].status} {found[0].reason}", at=when)
    lee = Notice.objects.get(system__system_id="DA-2")
    assert [n.pk for n in marked] == [lee.pk]
    assert lee.bounced_at == when and lee.bounce_reason.startswith("5.1.1 550 5.1.1 <lee@example.org>: mailbox unavailable")
    assert Notice.objects.get(system__system_id="DA-1").bounced_at is None  # the other owner's e-mail arrived
    assert AuditEvent.objects.filter(object_id=lee.pk, action="notice e-mail bounced; the letter went on paper").exists()
    # the same report read twice records the bounce once
    assert bounce_record(recipient="lee@example.org", reason="again", at=when) == []


@pytest.mark.parametrize("action,status", [("delayed", "4.4.1"), ("failed", "4.4.7"), ("delivered", "2.0.0")])
def test_a_delay_or_a_delivery_is_no_bounce(emailed, action, status):
    """Both sides of "failed with a permanent (5.x.x) status": a delay, a temporary failure and a delivery
    report record nothing."""
    found, _ = failures(dsn("lee@example.org", action=action, status=status), name="report.eml")
    assert found == []


def test_a_bounce_dated_before_the_email_was_sent_is_not_that_emails(emailed):
    """A late bounce concerns an e-mail sent before it: an older report (another, earlier message) marks nothing."""
    found, when = failures(dsn("lee@example.org", date="Mon, 01 Jan 2001 10:00:00 +0000"), name="old.eml")
    assert bounce_record(recipient=found[0].recipient, reason="x", at=when) == []
    assert not Notice.objects.filter(bounced_at__isnull=False).exists()


def test_a_report_dated_in_an_unknown_zone_is_read_as_utc():
    """RFC 5322 "-0000": the time is UTC, its zone unknown to the sender; it compares with the e-mail's."""
    _, when = failures(dsn("lee@example.org", date="Tue, 01 Dec 2099 10:00:00 -0000"), name="z.eml")
    assert when == dt.datetime(2099, 12, 1, 10, tzinfo=dt.timezone.utc)


def test_a_file_that_is_not_a_delivery_report_is_refused_naming_it():
    with pytest.raises(BounceRefused, match="hello.eml: not a delivery status notification"):
        failures(b"Subject: hello\n\nJust a letter.\n", name="hello.eml")
    with pytest.raises(BounceRefused, match="big.eml: larger than a delivery report"):
        failures(b"x" * 2_000_001, name="big.eml")


def test_the_command_reads_a_folder_moves_what_it_read_and_names_what_it_could_not(emailed, cli, tmp_path):
    inbox = tmp_path / "bounces"
    inbox.mkdir()
    (inbox / "1.eml").write_bytes(dsn("lee@example.org"))
    (inbox / "2.eml").write_bytes(dsn("stranger@example.org"))
    (inbox / "3.eml").write_bytes(b"Subject: out of office\n\nI am away.\n")
    code, out, err = cli("maintenance", "bounces", "read", str(inbox))
    assert code != 0 and "3.eml: not a delivery status notification" in out + err
    assert "3 files read: 1 notices marked bounced" in out and "no notice e-mailed to stranger@example.org (2.eml)" in out
    assert sorted(p.name for p in (inbox / "done").iterdir()) == ["1.eml", "2.eml"] and (inbox / "3.eml").exists()
    assert list(Notice.objects.filter(bounced_at__isnull=False).values_list("system__system_id", flat=True)) == ["DA-2"]


def test_the_system_page_says_the_email_bounced(emailed, client, staff):
    """Staff see, among the system's letters, that the e-mail did not reach the owner and why."""
    found, when = failures(dsn("lee@example.org"), name="b.eml")
    bounce_record(recipient=found[0].recipient, reason=f"{found[0].status} {found[0].reason}", at=when)
    client.force_login(staff)
    lee = Notice.objects.get(system__system_id="DA-2")
    page = client.get(f"/inventory/systems/{lee.system_id}/").content.decode()
    assert "the e-mail bounced on December 1, 2099: 5.1.1 550 5.1.1" in page and "mailed on paper" in page
