"""The owner's letter when a holding tank's periodic servicing report is overdue (the county's
holding_tanks.report_periods, with its citation): one Notice per tank and period, drawn by the same letter
stack as the maintenance notices (powts.maintenance.letters), so it has the county's letterhead, the window
address and the owner's language with the English legal text."""
from __future__ import annotations

import datetime as dt
import io
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from powts.audit.services import audit_create
from powts.core.refusals import Refused
from powts.maintenance import addresses, holding_periods
from powts.maintenance.choices import NoticeKind
from powts.maintenance.letters import Press
from powts.maintenance.models import Notice
from powts.maintenance.notices import letter_for, sender_for
from powts.maintenance.profile import maintenance_profile
from powts.maintenance.selectors import holding_reports_overdue

KIND = NoticeKind.HOLDING_REPORT_OVERDUE


@dataclass
class HoldingLetters:
    period: holding_periods.Period
    notices: list[Notice] = field(default_factory=list)  # every letter of the period (new and sent before)
    recorded: int = 0  # of them, recorded by this call
    held: list[tuple[str, str]] = field(default_factory=list)  # (system id, why it cannot be mailed)


@transaction.atomic
def holding_report_letters_record(*, jurisdiction, as_of: dt.date) -> HoldingLetters:
    """Records a letter for each holding tank whose report for the last overdue period is missing on `as_of`.
    A tank already written to for that period is not written to again (the Notice is unique per system, kind and
    due date); an owner without a mailable address is held back and named. Refused where the county's ordinance
    has no reporting periods."""
    raw = maintenance_profile(jurisdiction.profile_slug).raw
    if holding_periods.rule(raw) is None:
        raise Refused(f"{jurisdiction.name}'s ordinance sets no periodic holding tank reports, so no report is overdue",
                      field="jurisdiction")
    sender_for(jurisdiction)  # refuses, before anything is recorded, a county whose letters have no return address
    period, systems = holding_reports_overdue(jurisdiction=jurisdiction, as_of=as_of, limit=100_000)
    out = HoldingLetters(period=period)
    done = set(Notice.objects.filter(jurisdiction=jurisdiction, kind=KIND, due_on=period.due_on).values_list("system_id", flat=True))
    now = timezone.now()
    for system in systems:
        if system.pk in done:
            continue
        owner = system.parcel.owner
        why = "no owner on record" if owner is None else addresses.problem(owner.mailing_address)
        if why:
            out.held.append((system.system_id, why))
            continue
        notice = Notice.objects.create(
            jurisdiction=jurisdiction, system=system, owner=owner, kind=KIND, due_on=period.due_on, as_of=as_of,
            sent_at=now, batch=f"{jurisdiction.slug}-holding-{period.start.isoformat()}", to_name=owner.name[:200],
            to_address=owner.mailing_address, to_email=owner.email, citation=period.citation, language=owner.language)
        audit_create(notice, action=f"holding tank report for {period.start.isoformat()} to {period.end.isoformat()} "
                                    f"overdue since {period.due_on.isoformat()}: letter to the owner recorded")
        out.recorded += 1
    out.notices = list(Notice.objects.filter(jurisdiction=jurisdiction, kind=KIND, due_on=period.due_on)
                       .select_related("system__parcel", "owner").order_by("system__system_id"))
    return out


def letters_pdf(jurisdiction, notices: list[Notice]) -> bytes:
    """The letters as one PDF for printing, in the order given."""
    buffer = io.BytesIO()
    press = Press(buffer, sender_for(jurisdiction, strict=False))
    for notice in notices:
        press.add(letter_for(notice))
    press.close()
    return buffer.getvalue()
