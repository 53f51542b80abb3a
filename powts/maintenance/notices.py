"""`preview` and `notices_send`: the notices due on a date, then recorded, printed and e-mailed.

Each notice is one row, unique per system, kind and due date, so none is sent twice, whoever runs
the batch and however often. The sequence per due date: first_notice (at the lead time before the
due date), then the county's escalation steps (maintenance.yaml notices.steps), in order, never
skipping one. Letters and mail go out after the notices are committed. An owner without a usable
mailing address is held back (listed apart, nothing recorded) until staff fix the address: the
page, the command's --dry-run and the send all read the same `preview`.
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
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage, get_connection
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Coalesce
from django.utils import timezone

from powts.audit.context import current
from powts.audit.models import AuditEvent
from powts.core.bulk import allocate_ids, insert_rows
from powts.core.refusals import Refused
from powts.inventory.choices import LetterLanguage, SystemType
from powts.kernel.cited import for_the_public
from powts.maintenance import addresses
from powts.maintenance.choices import NoticeKind
from powts.maintenance.letters import Letter, Press, Sender
from powts.maintenance.models import Notice, Schedule
from powts.maintenance.services import profile_for, schedule_sync

log = logging.getLogger(__name__)
SYSTEM_TYPES = dict(SystemType.choices)
LANGUAGES = dict(LetterLanguage.choices)


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
    held: list = field(default_factory=list)  # Planned items held back: no usable mailing address

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
    owner_language: str | None = None
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
        return self.owner_address if self.owner_id else ""

    @property
    def address_problem(self) -> str:
        """Why this letter cannot be mailed, or "" (an owner of record with a usable mailing address)."""
        if not self.owner_id:
            return "no owner of record"
        return addresses.problem(self.owner_address)

    @property
    def language(self) -> str:
        return self.owner_language or "en"

    @property
    def language_label(self) -> str:
        return LANGUAGES.get(self.language, self.language)

    @property
    def to_email(self) -> str:
        return self.owner_email or ""

    def get_kind_display(self) -> str:
        return NoticeKind(self.kind).label


PLAN_FIELDS = ("system_id", "due_on", "notice_on", "exempt", "stage", "stage_on", "system_ref", "system__system_type",
               "system__parcel__site_address", "system__parcel__owner_id", "system__parcel__owner__name",
               "system__parcel__owner__mailing_address", "system__parcel__owner__email", "system__parcel__owner__language")


def plan(*, jurisdiction, as_of: dt.date, system_ids=None) -> list[Planned]:
    """The notices due on `as_of`, one per system at most, in mailing order (municipality, system).
    The citation is the one a letter prints: the sections, without the profile's remarks for staff."""
    profile = profile_for(jurisdiction)
    rows = Schedule.objects.filter(jurisdiction_id=jurisdiction.pk, notice_on__lte=as_of, exempt=False)
    if system_ids is not None:
        rows = rows.filter(system_id__in=system_ids)
    rows = (rows.exclude(system__status__in=("abandoned", "replaced"))
            .order_by("system__parcel__municipality", "system_ref").values_list(*PLAN_FIELDS))
    out = []
    cites: dict[str, str] = {}
    for values in rows.iterator(chunk_size=5000):
        item = Planned(*values)
        found = next_notice(profile, item, as_of)
        if found:
            cite = cites.get(found[1])
            if cite is None:
                cite = cites[found[1]] = for_the_public(found[1])[:300]
            item.kind, item.citation = found[0], cite
            out.append(item)
    return out


@dataclass
class Preview:
    """What a batch on `as_of` would send: the letters (in mailing order), their counts by kind, and the
    owners held back for want of a usable mailing address."""

    as_of: dt.date
    paused: bool = False
    letters: list = field(default_factory=list)
    held: list = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for p in self.letters:
            out[p.kind] = out.get(p.kind, 0) + 1
        return out

    @property
    def counted(self) -> list[tuple[str, str, int]]:
        """(kind, label, count) for every kind, in the order of the sequence."""
        counts = self.counts
        return [(k, label, counts.get(k, 0)) for k, label in NoticeKind.choices]

    @property
    def total(self) -> int:
        return len(self.letters)


def preview(*, jurisdiction, as_of: dt.date, system_ids=None) -> Preview:
    """The next batch as of a date, read-only: the notices page, `notices send --dry-run` and the send itself."""
    profile = profile_for(jurisdiction)
    out = Preview(as_of=as_of)
    if profile.paused(as_of):
        out.paused = True
        return out
    planned = plan(jurisdiction=jurisdiction, as_of=as_of, system_ids=system_ids)
    already = set()
    ids = [p.system_id for p in planned]
    for start in range(0, len(ids), 5000):  # a stage lagging behind its notices: never twice
        already.update(Notice.objects.filter(system_id__in=ids[start:start + 5000]).values_list("system_id", "kind", "due_on"))
    for p in planned:
        if (p.system_id, p.kind, p.due_on) in already:
            continue
        (out.held if p.address_problem else out.letters).append(p)
    return out


NOTICE_COLUMNS = ["id", "jurisdiction_id", "system_id", "owner_id", "kind", "due_on", "as_of", "sent_at", "batch", "to_name", "to_address",
                  "to_email", "email_error", "pdf_path", "citation", "language"]
EVENT_COLUMNS = ["at", "actor_id", "actor_label", "channel", "action", "verb", "content_type_id", "object_id", "object_repr", "changes", "batch"]


def notices_send(*, jurisdiction, as_of: dt.date, output_dir: Path, email: bool = True, sync: bool = True,
                 progress=None, batch: str = "") -> BatchResult:
    """Records, prints and e-mails the batch `preview` shows for `as_of`. `progress(step, done, total)`,
    if given, hears how far the printing and the e-mail have got. A `batch` label that already has
    notices (a run stopped after recording them, before their letters were all printed) prints those
    again with the new ones, and e-mails those not yet e-mailed: a retry loses no letter."""
    profile = profile_for(jurisdiction)
    sender = sender_for(jurisdiction)  # refuses before anything is recorded if the return address is missing
    batch = batch or f"{jurisdiction.slug}-{as_of.isoformat()}-{uuid.uuid4().hex[:6]}"
    result = BatchResult(batch=batch, as_of=as_of)
    if profile.paused(as_of):
        result.paused = True
        return result
    if sync:
        schedule_sync(jurisdiction=jurisdiction)
    output_dir = Path(output_dir)
    output_dir.mkdir(mode=0o700, parents=True, exist_ok=True)  # letters name owners: private
    now = timezone.now()
    delinquent_kinds = profile.delinquent_kinds
    with transaction.atomic():
        found = preview(jurisdiction=jurisdiction, as_of=as_of)
        notices, result.held = found.letters, found.held
        moved = _keep_lead_time(jurisdiction, profile, notices, as_of, now, batch)
        # Plain tuples, ids taken up front (powts.core.bulk): a model instance per notice and per
        # audit event is most of the cost of a 10,000-letter batch.
        for p, pk in zip(notices, allocate_ids(Notice, len(notices))):
            p.pk, p.as_of = pk, as_of
            p.pdf_path = str(output_dir / batch / f"owner-{p.owner_id or f'system-{p.system_id}'}.pdf")
        insert_rows(Notice, NOTICE_COLUMNS, [
            (p.pk, jurisdiction.pk, p.system_id, p.owner_id, p.kind, p.due_on, as_of, now, batch, p.to_name[:200], p.to_address,
             p.to_email, "", p.pdf_path, p.citation, p.language) for p in notices])
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
        earlier = list(Notice.objects.filter(batch=batch).exclude(pk__in=[p.pk for p in notices])
                       .select_related("system__parcel").order_by("id"))
        for n in earlier:
            result.counts[n.kind] = result.counts.get(n.kind, 0) + 1
        transaction.on_commit(lambda: _deliver(jurisdiction, sender, earlier + notices, output_dir, batch, result, email, progress))
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


CONTACT_KEYS = {"address": "return address", "phone": "phone number", "email": "e-mail address", "hours": "office hours"}


def sender_for(jurisdiction, *, strict: bool = True) -> Sender:
    """The county as a letter names it: return address, phone, e-mail and office hours from its profile
    (profile.yaml `contact`). With `strict`, a county without them is refused: a letter the owner cannot
    answer is not sent."""
    top = jurisdiction.profile
    contact = top.get("contact") or {}
    missing = tuple(label for key, label in CONTACT_KEYS.items() if not contact.get(key))
    if missing and strict:
        raise Refused(f"{jurisdiction.name} has no {', '.join(missing)} for its letters; its county administrator "
                      "adds them on the county settings page (contact and return address) before notices are sent",
                      field="contact")
    profile = profile_for(jurisdiction)
    address = contact.get("address") or ()
    return Sender(county=jurisdiction.name, office=str(contact.get("office") or top.get("agency", "")),
                  address=tuple(str(x) for x in ([address] if isinstance(address, str) else address)),
                  phone=str(contact.get("phone") or ""), email=str(contact.get("email") or ""), hours=str(contact.get("hours") or ""),
                  who_may_do_it=profile.who_may_do_it, lead_citation=for_the_public(profile.citations["lead_time"]),
                  report_citation=for_the_public(profile.citations["late"]), agency=str(top.get("agency", "")), missing=missing)


def letter_for(n) -> Letter:
    """The letter for a recorded Notice or a Planned one."""
    if isinstance(n, Planned):
        return Letter(kind=n.kind, to_name=n.to_name, to_address=n.to_address, system_ref=n.system_ref, site_address=n.site_address,
                      system_type=SYSTEM_TYPES.get(n.system_type, n.system_type), due_on=n.due_on, mailed_on=n.as_of, citation=n.citation,
                      language=n.language)
    system = n.system
    return Letter(kind=n.kind, to_name=n.to_name, to_address=n.to_address, system_ref=system.system_id,
                  site_address=system.parcel.site_address, system_type=system.get_system_type_display(), due_on=n.due_on,
                  mailed_on=n.as_of, citation=n.citation, language=n.language)


PROGRESS_EVERY = 250


def _deliver(jurisdiction, sender: Sender, notices: list, output_dir: Path, batch: str, result: BatchResult, email: bool,
             progress=None) -> None:
    if not notices:
        return
    by_owner: dict[str, list] = defaultdict(list)
    for n in notices:
        by_owner[n.pdf_path].append(n)  # the owner's file, named when the notice was recorded
    (output_dir / batch).mkdir(mode=0o700, parents=True, exist_ok=True)
    merged = output_dir / f"{batch}.pdf"
    press = Press(merged, sender)
    done, total = 0, len(notices)
    for path, items in by_owner.items():
        press.write_owner(Path(path), [page for n in items for page in press.add(letter_for(n))])
        before, done = done, done + len(items)
        if progress and done // PROGRESS_EVERY != before // PROGRESS_EVERY:
            progress("printing", done, total)
    press.close()
    if progress:
        progress("printing", total, total)
    result.owner_files = len(by_owner)
    result.merged_file = merged
    sent = _email(jurisdiction, sender, by_owner, result, progress) if email else []
    for start in range(0, len(sent), 5000):
        Notice.objects.filter(pk__in=sent[start:start + 5000]).update(emailed_at=timezone.now())
    for n in notices:
        if n.email_error:
            Notice.objects.filter(pk=n.pk).update(email_error=n.email_error[:300])


def _email(jurisdiction, sender: Sender, by_owner, result: BatchResult, progress=None) -> list[int]:
    """One message per owner with an e-mail address, the letter attached; returns the notices e-mailed now.
    An address refused (not an address, or refused by the mail server) is recorded on that owner's
    notices and the batch goes on. Notices e-mailed by an earlier run of the batch are not e-mailed again."""
    wanted = [items for items in by_owner.values() if items[0].to_email and not items[0].emailed_at]
    result.no_address = sum(1 for items in by_owner.values() if not items[0].to_email)
    sent: list[int] = []
    if not wanted:
        return sent
    try:
        connection = get_connection()
        connection.open()
    except Exception as exc:  # no mail server: the letters are on paper anyway
        log.warning("notices: e-mail unavailable (%s); letters only", exc)
        for items in wanted:
            for n in items:
                n.email_error = f"mail server unavailable: {exc}"[:300]
            result.email_failed += 1
        return sent
    try:
        for i, items in enumerate(wanted, 1):
            first = items[0]
            error = ""
            try:
                validate_email(first.to_email)
            except ValidationError:
                error = f"{first.to_email!r} is not an e-mail address"
            if not error:
                msg = EmailMessage(
                    subject=f"{jurisdiction.name}: septic system maintenance notice",
                    body="\n\n".join(f"{n.get_kind_display()}: system {n.system_ref if isinstance(n, Planned) else n.system.system_id}, "
                                      f"due {n.due_on:%B %-d, %Y}." for n in items)
                    + f"\n\nThe letter is attached. Questions: {sender.phone}, {sender.email}.",
                    to=[first.to_email], reply_to=[sender.email] if sender.email else None, connection=connection)
                msg.attach_file(first.pdf_path, "application/pdf")
                try:
                    msg.send()
                except Exception as exc:  # refused by the server (SMTPRecipientsRefused and the like)
                    error = f"refused by the mail server: {exc}"
            if error:
                for n in items:
                    n.email_error = error[:300]
                result.email_failed += 1
            else:
                for n in items:
                    n.emailed_at = timezone.now()
                    sent.append(n.pk)
                result.emailed += 1
            if progress and i % PROGRESS_EVERY == 0:
                progress("e-mailing", i, len(wanted))
    finally:
        connection.close()
    return sent
