"""Adding and removing a record's files. Every change is audited in its own transaction; a refused
file leaves nothing behind (no row, no bytes)."""
from __future__ import annotations

import datetime as dt
import os
import unicodedata

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from powts.attachments import choices as c
from powts.attachments import content, storage
from powts.attachments.models import Attachment
from powts.attachments.policies import record_type
from powts.audit.services import audit_create, audit_delete
from powts.core.refusals import Refused


def max_bytes(kind: str, *, public: bool = False) -> int:
    """The size limit for a kind (settings.POWTS_ATTACHMENT_MAX_BYTES); lower for anonymous uploads."""
    limit = settings.POWTS_ATTACHMENT_MAX_BYTES[kind]
    return min(limit, settings.POWTS_PUBLIC_UPLOAD_MAX_BYTES) if public else limit


def display_name(raw: str | None) -> str:
    """The uploader's file name as shown: its last path part, printable characters only, at most 200."""
    name = os.path.basename((raw or "").replace("\\", "/"))
    name = "".join(ch for ch in unicodedata.normalize("NFC", name) if unicodedata.category(ch)[0] != "C").strip()
    if len(name) > 200:
        stem, ext = os.path.splitext(name)
        name = stem[:200 - len(ext)] + ext
    return name or "file"


def _recording(kind: str, recording_number: str, recorded_on) -> tuple[str, dt.date | None]:
    number = (recording_number or "").strip()
    if kind != c.Kind.RECORDED_DOCUMENT:
        return "", None
    if not number:
        raise Refused("recording_number is required for a recorded document: the register of deeds' document number",
                      field="recording_number")
    if len(number) > 60:
        raise Refused("recording_number is longer than 60 characters", field="recording_number")
    if not isinstance(recorded_on, dt.date):
        raise Refused("recorded_on is required for a recorded document: the date it was recorded (YYYY-MM-DD)",
                      field="recorded_on")
    if recorded_on > timezone.localdate():
        raise Refused(f"recorded_on {recorded_on.isoformat()} is in the future", field="recorded_on")
    return number, recorded_on


def _file_recorded_document(*, permit, attachment: Attachment, by) -> None:
    """A recorded document on a permit is the filing of a document the permit must have recorded (the first
    one not yet verified, in the county's order): staff's upload is the verification (the register of deeds'
    number and date); anyone else's waits for staff to verify it. A permit that must have nothing recorded
    takes no recorded document: refused, nothing stored."""
    from powts.permits import policies as permit_policies
    from powts.permits import selectors as permit_selectors
    from powts.permits import services as permits

    wanted = [r for r in permit_selectors.recordings(permit) if not r["verified"]]
    if not wanted:
        raise Refused(f"permit {permit.number} has no document that must be recorded with the register of deeds"
                      + (" still unverified" if permit_selectors.recordings(permit) else ""), field="kind")
    kind = wanted[0]["kind"]
    doc = permit.documents.filter(kind=kind, recording_verified_on__isnull=True).order_by("id").first()
    if doc is None:
        doc = permits.permit_add_document(permit=permit, kind=kind, title=attachment.original_name, recorded=True)
    if by is not None and permit_policies.can_decide(by, permit):
        permits.document_verify_recording(document=doc, recording_number=attachment.recording_number,
                                          recorded_on=attachment.recorded_on)
    attachment.permit_document = doc
    attachment.save(update_fields=["permit_document"])


@transaction.atomic
def attachment_add(*, record, kind: str, upload, uploaded_by=None, title: str = "", recording_number: str = "",
                   recorded_on: dt.date | None = None, public: bool = False) -> Attachment:
    """Attach `upload` (a Django UploadedFile) to `record` (a permit, maintenance report or complaint).
    Who may do so is the caller's check (policies.may_attach); what the file is, is checked here."""
    rtype = record_type(record)
    if record.jurisdiction_id is None:  # a well claim's supply whose county is not yet recorded
        raise Refused(f"record the county of this {c.RECORD_WORDS[rtype]} before adding files", field="record")
    name = display_name(getattr(upload, "name", ""))
    if kind not in c.RECORD_KINDS[rtype]:
        allowed = ", ".join(str(c.Kind(k).label).lower() for k in c.RECORD_KINDS[rtype])
        raise Refused(f"kind {kind!r} cannot be attached to a {c.RECORD_WORDS[rtype]}; it takes: {allowed}", field="kind")
    title = (title or "").strip()
    if len(title) > 200:
        raise Refused("title is longer than 200 characters", field="title")
    number, recorded = _recording(kind, recording_number, recorded_on)
    checked = content.check(upload, name=name, kind=kind, max_bytes=max_bytes(kind, public=public))
    stored = storage.save(storage.new_name(checked.content_type), upload)
    try:
        att = Attachment(jurisdiction_id=record.jurisdiction_id, kind=kind, title=title, original_name=name,
                         content_type=checked.content_type, size=checked.size, sha256=checked.sha256,
                         storage_name=stored, recording_number=number, recorded_on=recorded,
                         uploaded_by=uploaded_by if getattr(uploaded_by, "pk", None) else None,
                         uploaded_at=timezone.now(), **{rtype: record})
        att.full_clean(exclude=["jurisdiction", rtype])
        att.save()
        audit_create(att, action=f"{att.get_kind_display().lower()} {name} attached to {c.RECORD_WORDS[rtype]} {record}"
                     + (" (public upload)" if public else ""))
        if rtype == "permit" and kind == c.Kind.RECORDED_DOCUMENT:
            _file_recorded_document(permit=record, attachment=att, by=att.uploaded_by)
    except BaseException:
        storage.delete_quietly(stored)
        raise
    return att


@transaction.atomic
def attachment_delete(*, attachment: Attachment) -> None:
    """Remove a file: the audit keeps its name, type, size and sha256; the bytes go after the commit."""
    name = attachment.storage_name
    audit_delete(attachment, action=f"{attachment.get_kind_display().lower()} {attachment.original_name} removed "
                 f"from {c.RECORD_WORDS[attachment.record_field]} {attachment.record}")
    attachment.delete()
    transaction.on_commit(lambda: storage.delete_quietly(name))



def create_with_files(create, *, files, kind: str, by=None, public: bool = False):
    """Run `create()` (which makes the record) and attach `files` to it, all or nothing: a refused file
    rolls the record back and removes the bytes already stored."""
    if public and len(files) > settings.POWTS_PUBLIC_UPLOAD_MAX_FILES:
        raise Refused(f"send at most {settings.POWTS_PUBLIC_UPLOAD_MAX_FILES} photo(s) with a report", field="photo")
    with storage.discarded_on_failure(), transaction.atomic():
        record = create()
        for upload in files:
            attachment_add(record=record, kind=kind, upload=upload, uploaded_by=by, public=public)
    return record


def report_with_photos(submit, *, photos, by):
    """Run `submit()` (a maintenance report filing: a result with .report and .duplicate) and attach
    `photos` to its report, all or nothing. A report already on file takes the photos if `by` may add them."""
    from powts.attachments.policies import may_attach

    with storage.discarded_on_failure(), transaction.atomic():
        result = submit()
        if photos and not may_attach(by, result.report):
            raise Refused("this report is already on file under another filer; ask the county to add the photos",
                          field="photos")
        for upload in photos:
            attachment_add(record=result.report, kind=c.Kind.PHOTO, upload=upload, uploaded_by=by)
    return result
