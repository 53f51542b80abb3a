"""`notices_send`: record the notices due on a date and render them (then e-mail where an address exists).

Each notice is one row, unique per system, kind and due date, so none is sent twice, whoever runs
the batch and however often. The sequence per due date: first_notice (at the lead time before the
due date), then the county's escalation steps (maintenance.yaml notices.steps), in order, never
skipping one. Letters and mail go out after the notices are committed.
"""
from __future__ import annotations

import datetime as dt
import logging
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from django.contrib.contenttypes.models import ContentType
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.utils import timezone

from powts.audit.models import AuditEvent
from powts.audit.services import build_event
from powts.maintenance.choices import NoticeKind
from powts.maintenance.letters import Letter, Press, Sender
from powts.maintenance.models import Notice, Schedule
from powts.maintenance.services import profile_for, schedule_sync

log = logging.getLogger(__name__)


@dataclass
class BatchResult:
    batch: str
    as_of: dt.date
    paused: bool = False
    counts: dict = field(default_factory=dict)
    owner_files: int = 0
    merged_file: Path | None = None
    emailed: int = 0
    email_failed: int = 0
    no_address: int = 0

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def next_notice(profile, row: Schedule, as_of: dt.date) -> tuple[str, str] | None:
    """The one notice `row` should get on `as_of`, with its citation, or None."""
    if row.due_on is None or row.notice_on is None or row.exempt or as_of < row.notice_on:
        return None
    if as_of < row.due_on:
        return (NoticeKind.FIRST_NOTICE, profile.citations["lead_time"]) if not row.stage else None
    done = [s.kind for s in profile.steps]
    position = done.index(row.stage) + 1 if row.stage in done else 0
    if position >= len(profile.steps):
        return None
    step = profile.steps[position]
    if (as_of - row.due_on).days < step.days_after_due:
        return None
    if row.stage_on and row.stage != NoticeKind.FIRST_NOTICE and (as_of - row.stage_on).days < step.days_after_previous:
        return None
    return step.kind, step.citation


def plan(*, jurisdiction, as_of: dt.date) -> list[tuple[Schedule, str, str]]:
    profile = profile_for(jurisdiction)
    rows = (Schedule.objects.filter(jurisdiction_id=jurisdiction.pk, notice_on__lte=as_of, exempt=False)
            .select_related("system__parcel__owner").order_by("system__parcel__municipality", "system_ref"))
    out = []
    for row in rows.iterator(chunk_size=2000):
        if row.system.status in ("abandoned", "replaced"):
            continue
        found = next_notice(profile, row, as_of)
        if found:
            out.append((row, *found))
    return out


def notices_send(*, jurisdiction, as_of: dt.date, output_dir: Path, email: bool = True, sync: bool = True) -> BatchResult:
    profile = profile_for(jurisdiction)
    batch = f"{jurisdiction.slug}-{as_of.isoformat()}-{uuid.uuid4().hex[:6]}"
    result = BatchResult(batch=batch, as_of=as_of)
    if profile.paused(as_of):
        result.paused = True
        return result
    if sync:
        schedule_sync(jurisdiction=jurisdiction)
    output_dir = Path(output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    now = timezone.now()
    steps = {s.kind: s for s in profile.steps}
    with transaction.atomic():
        planned = plan(jurisdiction=jurisdiction, as_of=as_of)
        already = set(Notice.objects.filter(system_id__in=[r.pk for r, _, _ in planned])
                      .values_list("system_id", "kind", "due_on")) if planned else set()
        notices, touched = [], []
        for row, kind, citation in planned:
            if (row.pk, kind, row.due_on) in already:  # stage lagging behind: never twice
                continue
            owner = row.system.parcel.owner
            key = owner.pk if owner else f"system-{row.pk}"
            notices.append(Notice(pdf_path=str(output_dir / batch / f"owner-{key}.pdf"), jurisdiction_id=jurisdiction.pk, system=row.system, owner=owner, kind=kind, due_on=row.due_on,
                                  as_of=as_of, sent_at=now, batch=batch, to_name=owner.name if owner else "Owner of record",
                                  to_address=owner.mailing_address if owner else row.system.parcel.site_address,
                                  to_email=owner.email if owner else "", citation=citation[:300]))
            row.stage, row.stage_on = kind, as_of
            if kind in steps and steps[kind].marks_delinquent:
                row.delinquent = True
            touched.append(row)
        Notice.objects.bulk_create(notices, batch_size=1000)
        groups: dict[tuple, list[int]] = defaultdict(list)
        for row in touched:
            groups[(row.stage, row.delinquent)].append(row.pk)
        for (stage, delinquent), ids in groups.items():  # a few UPDATEs, not one CASE per row
            for start in range(0, len(ids), 5000):
                Schedule.objects.filter(pk__in=ids[start:start + 5000]).update(stage=stage, stage_on=as_of, delinquent=delinquent)
        if notices and notices[0].pk is None:  # backends without RETURNING ids
            notices = list(Notice.objects.filter(batch=batch).select_related("system__parcel").order_by("pk"))
        ct = ContentType.objects.get_for_model(Notice)
        events = []
        for n in notices:
            event = build_event(n, action=f"{n.get_kind_display()} recorded for due date {n.due_on} (batch {batch})", verb="create",
                                changes={"kind": [None, n.kind], "due_on": [None, n.due_on.isoformat()], "to": [None, n.to_name]}, at=now)
            event.content_type = ct
            events.append(event)
        AuditEvent.objects.bulk_create(events, batch_size=1000)
        for n in notices:
            result.counts[n.kind] = result.counts.get(n.kind, 0) + 1
        transaction.on_commit(lambda: _deliver(jurisdiction, profile, notices, output_dir, batch, result, email))
    return result


def _sender(jurisdiction, profile) -> Sender:
    agency = jurisdiction.profile.get("agency", jurisdiction.name)
    return Sender(agency=agency, county=jurisdiction.name, who_may_do_it=profile.who_may_do_it,
                  lead_citation=profile.citations["lead_time"], report_citation=profile.citations["late"])


def letter_for(n: Notice) -> Letter:
    system = n.system
    return Letter(kind=n.kind, to_name=n.to_name, to_address=n.to_address, system_ref=system.system_id,
                  site_address=system.parcel.site_address, system_type=system.get_system_type_display(), due_on=n.due_on,
                  mailed_on=n.as_of, citation=n.citation)


def _deliver(jurisdiction, profile, notices: list[Notice], output_dir: Path, batch: str, result: BatchResult, email: bool) -> None:
    if not notices:
        return
    sender = _sender(jurisdiction, profile)
    by_owner: dict[str, list[Notice]] = defaultdict(list)
    for n in notices:
        by_owner[n.pdf_path].append(n)  # the owner's file, named when the notice was recorded
    (output_dir / batch).mkdir(parents=True, exist_ok=True)
    merged = output_dir / f"{batch}.pdf"
    press = Press(merged, sender)
    for path, items in by_owner.items():
        press.write_owner(Path(path), [press.add(letter_for(n)) for n in items])
    press.close()
    result.owner_files = len(by_owner)
    result.merged_file = merged
    if email:
        _email(jurisdiction, by_owner, result)
    sent = [n.pk for n in notices if n.emailed_at]
    for start in range(0, len(sent), 5000):
        Notice.objects.filter(pk__in=sent[start:start + 5000]).update(emailed_at=timezone.now())
    for n in notices:
        if n.email_error:
            Notice.objects.filter(pk=n.pk).update(email_error=n.email_error)


def _email(jurisdiction, by_owner, result: BatchResult) -> None:
    try:
        connection = get_connection()
        connection.open()
    except Exception as exc:  # no mail server: the letters are on paper anyway
        log.warning("notices: e-mail unavailable (%s); letters only", exc)
        for items in by_owner.values():
            for n in items:
                if n.to_email:
                    n.email_error = f"mail unavailable: {exc}"[:300]
                    result.email_failed += 1
        return
    try:
        for items in by_owner.values():
            first = items[0]
            if not first.to_email:
                result.no_address += 1
                continue
            msg = EmailMessage(subject=f"{jurisdiction.name}: septic system maintenance notice",
                               body="\n\n".join(f"{n.get_kind_display()}: system {n.system.system_id}, due {n.due_on:%B %-d, %Y}." for n in items)
                               + "\n\nThe letter is attached.", to=[first.to_email], connection=connection)
            msg.attach_file(first.pdf_path, "application/pdf")
            try:
                msg.send()
            except Exception as exc:
                for n in items:
                    n.email_error = str(exc)[:300]
                result.email_failed += 1
                continue
            for n in items:
                n.emailed_at = timezone.now()
            result.emailed += 1
    finally:
        connection.close()
