"""Documents and photos: files attached to permits (plans, soil reports, recorded documents with recording
number and date), maintenance reports (photos) and complaints (photos); stored in the data directory;
every upload audited; bad input changes nothing."""
import datetime as dt
import hashlib
import stat

import pytest

from powts.attachments import services
from powts.attachments.content import FileRefused
from powts.attachments.models import Attachment
from powts.attachments.tests import samples
from powts.attachments.tests.conftest import stored_files
from powts.audit.context import acting
from powts.audit.models import AuditEvent
from powts.core.refusals import Refused


def test_a_plan_is_stored_private_with_its_hash_and_audited(permit, people, attachment_dir, settings):
    content = samples.pdf()
    with acting(actor=people["plumber"]):
        att = services.attachment_add(record=permit, kind="plan", upload=samples.upload(content, "C:\\plans\\site plan.pdf"),
                                      uploaded_by=people["plumber"])
    assert (att.original_name, att.content_type, att.size) == ("site plan.pdf", "application/pdf", len(content))
    assert att.sha256 == hashlib.sha256(content).hexdigest() and att.jurisdiction_id == permit.jurisdiction_id
    [path] = stored_files(attachment_dir)
    assert path.read_bytes() == content and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert "site plan" not in str(path)  # the uploader's name never becomes a path
    for served in (settings.STATIC_ROOT, settings.MEDIA_ROOT):
        assert not str(path).startswith(str(served))
    event = AuditEvent.objects.get(object_id=att.pk, verb="create", content_type__model="attachment")
    assert "site plan.pdf attached to permit" in event.action and event.actor == people["plumber"]
    assert event.changes["sha256"][1] == att.sha256


def test_a_refused_file_leaves_no_row_no_bytes_no_audit(permit, people, attachment_dir):
    events = AuditEvent.objects.count()
    with pytest.raises(FileRefused, match="setup.pdf"):
        services.attachment_add(record=permit, kind="plan", upload=samples.upload(samples.exe(), "setup.pdf"),
                                uploaded_by=people["plumber"])
    assert Attachment.objects.count() == 0 and stored_files(attachment_dir) == [] and AuditEvent.objects.count() == events


def test_a_failure_after_the_bytes_are_stored_removes_them(permit, people, attachment_dir, monkeypatch):
    def boom(*a, **k):
        raise RuntimeError("database went away")

    monkeypatch.setattr(services, "audit_create", boom)
    with pytest.raises(RuntimeError):
        services.attachment_add(record=permit, kind="plan", upload=samples.upload(samples.pdf(), "p.pdf"))
    assert Attachment.objects.count() == 0 and stored_files(attachment_dir) == []


@pytest.mark.parametrize("record_name,kind", [("report", "plan"), ("complaint", "plan"), ("complaint", "receipt")])
def test_kinds_a_record_does_not_take_are_refused(request, record_name, kind):
    record = request.getfixturevalue(record_name)
    with pytest.raises(Refused, match=f"kind '{kind}' cannot be attached") as err:
        services.attachment_add(record=record, kind=kind, upload=samples.upload(samples.pdf(), "p.pdf"))
    assert err.value.field == "kind" and Attachment.objects.count() == 0


def test_photos_on_a_report_and_a_complaint(report, complaint, people):
    a = services.attachment_add(record=report, kind="photo", upload=samples.upload(samples.image("JPEG"), "tank.jpg"),
                                uploaded_by=people["pumper"])
    b = services.attachment_add(record=complaint, kind="photo", upload=samples.upload(samples.heic(), "IMG_0001.HEIC"),
                                public=True)
    assert (a.report, a.record_field, b.complaint, b.uploaded_by) == (report, "report", complaint, None)
    assert "(public upload)" in AuditEvent.objects.get(object_id=b.pk, content_type__model="attachment").action


def test_public_uploads_have_the_lower_cap(complaint, settings):
    """A public photo over POWTS_PUBLIC_UPLOAD_MAX_BYTES is refused though a signed-in photo of that size is not."""
    content = samples.image("PNG", size=(300, 300))
    settings.POWTS_PUBLIC_UPLOAD_MAX_BYTES = len(content) - 1
    with pytest.raises(FileRefused, match="big.png is larger than"):
        services.attachment_add(record=complaint, kind="photo", upload=samples.upload(content, "big.png"), public=True)
    settings.POWTS_PUBLIC_UPLOAD_MAX_BYTES = len(content)
    services.attachment_add(record=complaint, kind="photo", upload=samples.upload(content, "big.png"), public=True)


def test_size_limit_per_kind_is_a_setting(permit, settings):
    content = samples.pdf()
    settings.POWTS_ATTACHMENT_MAX_BYTES = {**settings.POWTS_ATTACHMENT_MAX_BYTES, "receipt": len(content) - 1}
    with pytest.raises(FileRefused, match="the most a receipt may be"):
        services.attachment_add(record=permit, kind="receipt", upload=samples.upload(content, "r.pdf"))
    services.attachment_add(record=permit, kind="plan", upload=samples.upload(content, "r.pdf"))  # a plan's limit is higher


def test_a_recorded_document_needs_its_recording_number_and_date(permit):
    up = samples.upload(samples.pdf(), "easement.pdf")
    with pytest.raises(Refused) as err:
        services.attachment_add(record=permit, kind="recorded_document", upload=up, recorded_on=dt.date(2026, 1, 5))
    assert err.value.field == "recording_number"
    with pytest.raises(Refused) as err:
        services.attachment_add(record=permit, kind="recorded_document", upload=up, recording_number="1234567")
    assert err.value.field == "recorded_on"
    tomorrow = dt.date.today() + dt.timedelta(days=1)
    with pytest.raises(Refused, match="in the future"):
        services.attachment_add(record=permit, kind="recorded_document", upload=up, recording_number="1", recorded_on=tomorrow)
    assert Attachment.objects.count() == 0


def _needs_recording(permit):
    """Dane s. 46.06(2): a system on another parcel is approved subject to recorded easements or deed restrictions."""
    from powts.permits import services as permits

    return permits.permit_update_application(permit=permit, data={"off_lot": True})


def test_staff_upload_of_a_recorded_document_is_the_verification(permit, people):
    """The permit's recorded-documents filing (PermitDocument) is verified when staff upload the recorded copy."""
    permit = _needs_recording(permit)
    on = dt.date.today() - dt.timedelta(days=3)
    with acting(actor=people["staff"]):
        att = services.attachment_add(record=permit, kind="recorded_document", upload=samples.upload(samples.pdf(), "rec.pdf"),
                                      uploaded_by=people["staff"], recording_number="5551212", recorded_on=on)
    doc = att.permit_document
    assert (doc.permit, doc.kind, doc.recording_number, doc.recorded_on) == (permit, "recorded_documents", "5551212", on)
    assert doc.recording_verified_on == dt.date.today() and doc.recording_verified_by == people["staff"]


def test_a_plumbers_recorded_document_waits_for_staff(permit, people):
    permit = _needs_recording(permit)
    with acting(actor=people["plumber"]):
        att = services.attachment_add(record=permit, kind="recorded_document", upload=samples.upload(samples.pdf(), "rec.pdf"),
                                      uploaded_by=people["plumber"], recording_number="5551212", recorded_on=dt.date.today())
    assert att.permit_document.recorded and att.permit_document.recording_verified_on is None


def test_a_recording_number_for_a_document_never_required_is_refused(permit, people, attachment_dir):
    """Bad input: a recording number for a document that was never required is refused, nothing saved."""
    from powts.permits.models import PermitDocument

    with pytest.raises(Refused, match="no document that must be recorded") as err:
        services.attachment_add(record=permit, kind="recorded_document", upload=samples.upload(samples.pdf(), "rec.pdf"),
                                uploaded_by=people["staff"], recording_number="5551212", recorded_on=dt.date.today())
    assert err.value.field == "kind"
    assert Attachment.objects.count() == 0 and not PermitDocument.objects.filter(permit=permit).exists()
    assert stored_files(attachment_dir) == []


def test_delete_is_audited_and_removes_the_bytes(permit, people, attachment_dir, django_capture_on_commit_callbacks):
    att = services.attachment_add(record=permit, kind="plan", upload=samples.upload(samples.pdf(), "p.pdf"))
    with django_capture_on_commit_callbacks(execute=True):
        services.attachment_delete(attachment=att)
    assert stored_files(attachment_dir) == [] and not Attachment.objects.exists()
    event = AuditEvent.objects.get(verb="delete", content_type__model="attachment")
    assert "p.pdf removed from permit" in event.action and event.changes["sha256"][0] == att.sha256


def test_a_record_and_its_files_are_saved_together_or_not_at_all(people, dane, attachment_dir):
    """create_with_files: the second file refused, the record and the first file are gone too."""
    from powts.permits.models import Complaint
    from powts.permits.services import enforcement as enf

    def create():
        return enf.complaint_create(jurisdiction=dane, service_code="failing-septic", description="Wet", address="1 Main")

    with pytest.raises(FileRefused, match="two.jpg"):
        services.create_with_files(create, kind="photo", files=[
            samples.upload(samples.image("JPEG"), "one.jpg"), samples.upload(samples.exe(), "two.jpg")])
    assert Complaint.objects.count() == 0 and Attachment.objects.count() == 0 and stored_files(attachment_dir) == []


def test_display_name_keeps_the_last_part_and_printable_characters():
    assert services.display_name("../../etc/passwd") == "passwd"
    assert services.display_name("a\x00b\nc.pdf") == "abc.pdf"
    assert services.display_name("") == "file"
    long = "x" * 300 + ".pdf"
    assert len(services.display_name(long)) == 200 and services.display_name(long).endswith(".pdf")


def test_a_recorded_document_on_an_issued_permit_is_filed_and_verified(permit, people):
    """Documents recorded with the register of deeds arrive after review too; staff's upload on an issued permit
    files and verifies it."""
    permit = _needs_recording(permit)
    permit.status = "issued"
    permit.save(update_fields=["status"])
    att = services.attachment_add(record=permit, kind="recorded_document", upload=samples.upload(samples.pdf(), "rec.pdf"),
                                  uploaded_by=people["staff"], recording_number="77", recorded_on=dt.date.today())
    assert att.permit_document.kind == "recorded_documents" and att.permit_document.recording_number == "77"
