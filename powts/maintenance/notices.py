"""`notices_send`: record the notices due on a date and render them (then e-mail where an address exists).

Each notice is one row, unique per system, kind and due date, so none is sent twice, whoever runs
the batch and however often. The sequence per due date: first_notice (at the lead time before the
due date), then the county's escalation steps (maintenance.yaml notices.steps), in order, never
skipping one. Letters and mail go out after the notices are committed.
"""
from __future__ import annotations

import datetime as dt
import json
import logging
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from django.contrib.contenttypes.models import ContentType
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Coalesce
from django.utils import timezone

from powts.audit.context import current
from powts.audit.models import AuditEvent
from powts.core.bulk import allocate_ids, insert_rows
from powts.inventory.choices import SystemType
from powts.maintenance.choices import NoticeKind
from powts.maintenance.letters import Letter, Press, Sender
from powts.maintenance.models import Notice, Schedule
from powts.maintenance.services import profile_for, schedule_sync

log = logging.getLogger(__name__)
SYSTEM_TYPES = dict(SystemType.choices)


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
    due_dates_moved: int = 0

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


@dataclass(slots=True)
class Planned:
    """One notice to record and mail: what the plan read (schedule, system, owner) and what it decided."""

    system_id: int
    due_on: dt.date
    notice_on: dt.date
    exempt: bool
    stage: str
    stage_on: dt.date | None
    system_ref: str
    system_type: str
    site_address: str
    owner_id: int | None
    owner_name: str
    owner_address: str
    owner_email: str
    kind: str = ""
    citation: str = ""
    pk: int | None = None
    as_of: dt.date | None = None
    pdf_path: str = ""
    emailed_at: object = None
    email_error: str = ""

    @property
    def to_name(self) -> str:
        return self.owner_name or "Owner of record"

    @property
    def to_address(self) -> str:
        return self.owner_address if self.owner_id else self.site_address

    @property
    def to_email(self) -> str:
        return self.owner_email or ""

    def get_kind_display(self) -> str:
        return NoticeKind(self.kind).label


PLAN_FIELDS = ("system_id", "due_on", "notice_on", "exempt", "stage", "stage_on", "system_ref", "system__system_type",
               "system__parcel__site_address", "system__parcel__owner_id", "system__parcel__owner__name",
               "system__parcel__owner__mailing_address", "system__parcel__owner__email")


def plan(*, jurisdiction, as_of: dt.date) -> list[Planned]:
    """The notices due on `as_of`, one per system at most, in mailing order (municipality, system)."""
    profile = profile_for(jurisdiction)
    rows = (Schedule.objects.filter(jurisdiction_id=jurisdiction.pk, notice_on__lte=as_of, exempt=False)
            .exclude(system__status__in=("abandoned", "replaced"))
            .order_by("system__parcel__municipality", "system_ref").values_list(*PLAN_FIELDS))
    out = []
    for values in rows.iterator(chunk_size=5000):
        item = Planned(*values)
        found = next_notice(profile, item, as_of)
        if found:
            item.kind, item.citation = found[0], found[1][:300]
            out.append(item)
    return out


NOTICE_COLUMNS = ["id", "jurisdiction_id", "system_id", "owner_id", "kind", "due_on", "as_of", "sent_at", "batch", "to_name", "to_address",
                  "to_email", "email_error", "pdf_path", "citation"]
EVENT_COLUMNS = ["at", "actor_id", "actor_label", "channel", "action", "verb", "content_type_id", "object_id", "object_repr", "changes", "batch"]


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
    output_dir.mkdir(mode=0o700, parents=True, exist_ok=True)  # letters name owners: private
    now = timezone.now()
    delinquent_kinds = {s.kind for s in profile.steps if s.marks_delinquent}
    with transaction.atomic():
        planned = plan(jurisdiction=jurisdiction, as_of=as_of)
        already = set()
        ids = [p.system_id for p in planned]
        for start in range(0, len(ids), 5000):  # a stage lagging behind its notices: never twice
            already.update(Notice.objects.filter(system_id__in=ids[start:start + 5000]).values_list("system_id", "kind", "due_on"))
        notices = [p for p in planned if (p.system_id, p.kind, p.due_on) not in already]
        moved = _keep_lead_time(jurisdiction, profile, notices, as_of, now, batch)
        # Plain tuples, ids taken up front (powts.core.bulk): a model instance per notice and per
        # audit event is most of the cost of a 10,000-letter batch.
        for p, pk in zip(notices, allocate_ids(Notice, len(notices))):
            p.pk, p.as_of = pk, as_of
            p.pdf_path = str(output_dir / batch / f"owner-{p.owner_id or f'system-{p.system_id}'}.pdf")
        insert_rows(Notice, NOTICE_COLUMNS, [
            (p.pk, jurisdiction.pk, p.system_id, p.owner_id, p.kind, p.due_on, as_of, now, batch, p.to_name[:200], p.to_address,
             p.to_email, "", p.pdf_path, p.citation) for p in notices])
        groups: dict[tuple, list[int]] = defaultdict(list)
        for p in notices:
            groups[(p.kind, p.kind in delinquent_kinds)].append(p.system_id)
        for (stage, delinquent), system_ids in groups.items():  # a few UPDATEs, not one per row
            for start in range(0, len(system_ids), 5000):
                chunk = system_ids[start:start + 5000]
                if delinquent:
                    Schedule.objects.filter(pk__in=chunk).update(stage=stage, stage_on=as_of, delinquent=True)
                else:
                    Schedule.objects.filter(pk__in=chunk).update(stage=stage, stage_on=as_of)
        ctx = current()
        actor = ctx.resolved_actor()
        actor_id = actor.pk if getattr(actor, "pk", None) else None
        label = actor.username if actor_id else ctx.actor_label
        ct = ContentType.objects.get_for_model(Notice).pk
        insert_rows(AuditEvent, EVENT_COLUMNS, [
            (now, actor_id, label, ctx.channel, f"{p.get_kind_display()} recorded for due date {p.due_on} (batch {batch})", "create", ct,
             p.pk, f"{p.get_kind_display()} for {p.system_ref} due {p.due_on}"[:200],
             json.dumps({"kind": [None, p.kind], "due_on": [None, p.due_on.isoformat()], "to": [None, p.to_name]}), ctx.batch or batch)
            for p in notices])
        for p in notices:
            result.counts[p.kind] = result.counts.get(p.kind, 0) + 1
        result.due_dates_moved = moved
        transaction.on_commit(lambda: _deliver(jurisdiction, profile, notices, output_dir, batch, result, email))
    return result


def _keep_lead_time(jurisdiction, profile, notices: list[Planned], as_of: dt.date, now, batch: str) -> int:
    """A first notice with less than the lead time left (a late import, a skipped batch) moves the due date
    to the notice date plus the lead time, where the county's profile says so: the owner still gets the
    whole notice period. One UPDATE per batch (every moved row gets the same date) and one audit event each."""
    if not profile.late_notice_moves_due:
        return 0
    new_due = as_of + dt.timedelta(days=profile.lead_time_days)
    late = [p for p in notices if p.kind == NoticeKind.FIRST_NOTICE and p.due_on < new_due]
    if not late:
        return 0
    cite = profile.citations["late_notice"]
    ids = [p.system_id for p in late]
    for start in range(0, len(ids), 5000):
        Schedule.objects.filter(pk__in=ids[start:start + 5000]).update(
            due_extended_from=Coalesce(F("due_extended_from"), F("due_on")), due_on=new_due)
    ctx = current()
    actor = ctx.resolved_actor()
    actor_id = actor.pk if getattr(actor, "pk", None) else None
    ct = ContentType.objects.get_for_model(Schedule).pk
    insert_rows(AuditEvent, EVENT_COLUMNS, [
        (now, actor_id, actor.username if actor_id else ctx.actor_label, ctx.channel,
         f"due date moved from {p.due_on} to {new_due}: the first notice went out {(p.due_on - as_of).days} day(s) before "
         f"the due date, and the owner is given {profile.lead_time_days} days ({cite})"[:255], "update", ct, p.system_id,
         f"Schedule of {p.system_ref}"[:200], json.dumps({"due_on": [p.due_on.isoformat(), new_due.isoformat()]}), ctx.batch or batch)
        for p in late])
    for p in late:
        p.due_on = new_due
    return len(late)


def _sender(jurisdiction, profile) -> Sender:
    agency = jurisdiction.profile.get("agency", jurisdiction.name)
    return Sender(agency=agency, county=jurisdiction.name, who_may_do_it=profile.who_may_do_it,
                  lead_citation=profile.citations["lead_time"], report_citation=profile.citations["late"])


def letter_for(n) -> Letter:
    """The letter for a recorded Notice or a Planned one."""
    if isinstance(n, Planned):
        return Letter(kind=n.kind, to_name=n.to_name, to_address=n.to_address, system_ref=n.system_ref, site_address=n.site_address,
                      system_type=SYSTEM_TYPES.get(n.system_type, n.system_type), due_on=n.due_on, mailed_on=n.as_of, citation=n.citation)
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
    (output_dir / batch).mkdir(mode=0o700, parents=True, exist_ok=True)
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
                               body="\n\n".join(f"{n.get_kind_display()}: system {n.system_ref if isinstance(n, Planned) else n.system.system_id}, due {n.due_on:%B %-d, %Y}." for n in items)
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
