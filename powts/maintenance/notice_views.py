"""The notices page: preview the next batch as of a date, view each letter, send the batch in the
background and watch it go; the letters kept afterwards. Thin: notices.preview reads, batches writes."""
from __future__ import annotations

from pathlib import Path

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from powts.core import fields
from powts.core.refusals import Refused
from powts.jobs.errors import QueueUnavailable
from powts.maintenance import batches, notice_page, policies, standing_counts
from powts.maintenance.choices import NoticeKind
from powts.maintenance.letters import one_letter_pdf
from powts.maintenance.models import BatchStatus, Notice, NoticeBatch
from powts.maintenance.notices import letter_for, preview, sender_for
from powts.maintenance.views import _as_of

PER_PAGE = 100
HELD_PER_PAGE = 100  # owners held back, in pages of their own (each one reachable to be fixed)


def _unit(request):
    if not policies.can_send_notices(request.user):
        raise PermissionDenied("County staff preview and send notices.")
    return request.user.jurisdiction


def _pdf(data: bytes, name: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


@login_required
@require_safe
def notices(request):
    unit = _unit(request)
    as_of = _as_of(request)
    found = notice_page.summary(jurisdiction=unit, as_of=as_of)  # counted in the database; the send builds every letter
    sender = sender_for(unit, strict=False)
    page = Paginator(notice_page.Letters(jurisdiction=unit, found=found), PER_PAGE).get_page(request.GET.get("page"))
    # Systems added since the schedules were last brought up to date are not in the preview; the send does that first.
    return render(request, "maintenance/notices.html", {
        "unscheduled": standing_counts.unscheduled(jurisdiction_id=unit.pk),  # kept by the database: no count of a million
        "unit": unit, "as_of": as_of, "preview": found, "page": page, "sender": sender,
        "contact_confirmed": bool((unit.profile.get("contact") or {}).get("confirmed")),
        "held": Paginator(notice_page.Letters(jurisdiction=unit, found=found, held=True), HELD_PER_PAGE).get_page(
            request.GET.get("held_page")),
        "batch": NoticeBatch.objects.filter(jurisdiction=unit, as_of=as_of).select_related("job").first(),
        "recent": NoticeBatch.objects.filter(jurisdiction=unit).select_related("job").order_by("-requested_at")[:10],
    })


@login_required
@require_safe
def letter_preview(request, system_pk: int):
    """The letter a system would get in the batch as of ?as_of=, as a PDF; nothing is recorded."""
    unit = _unit(request)
    as_of = _as_of(request)
    found = preview(jurisdiction=unit, as_of=as_of, system_ids=[system_pk])  # the county's own systems only
    items = found.letters + found.held
    if not items:
        raise Http404("No notice is due for this system on that date.")
    item = items[0]
    item.as_of = as_of
    return _pdf(one_letter_pdf(letter_for(item), sender_for(unit, strict=False)), f"preview-{item.system_ref}-{as_of}.pdf")


@login_required
@require_POST
def send(request):
    unit = _unit(request)
    try:
        as_of = fields.date("as_of", request.POST.get("as_of"), latest=fields.LATEST_DATE, required=True)
        batch, queued = batches.batch_request(jurisdiction=unit, as_of=as_of, user=request.user)
    except QueueUnavailable as exc:  # the batch is recorded and waits: a worker sends it when the queue is back
        messages.warning(request, exc.message)
        return redirect("maintenance:notice-batch", pk=NoticeBatch.objects.get(jurisdiction=unit, as_of=as_of).pk)
    except Refused as exc:
        messages.error(request, exc.message)
        return redirect(reverse("maintenance:notices"))
    if not queued:
        messages.info(request, f"The batch for {as_of:%B %-d, %Y} was already asked for; nothing was sent twice.")
    return redirect("maintenance:notice-batch", pk=batch.pk)


def _batch(request, pk: int) -> NoticeBatch:
    unit = _unit(request)
    return get_object_or_404(NoticeBatch.objects.select_related("jurisdiction", "job"), pk=pk, jurisdiction=unit)


@login_required
@require_safe
def batch(request, pk: int):
    b = _batch(request, pk)
    context = {"b": b, "running": b.status in (BatchStatus.QUEUED, BatchStatus.RUNNING),
               "counts": [(NoticeKind(k).label if k in NoticeKind.values else k, n) for k, n in (b.counts or {}).items()]}
    if b.status == BatchStatus.DONE and b.batch:
        context["failed_email"] = Notice.objects.filter(batch=b.batch).exclude(email_error="").select_related("system")[:200]
    if request.htmx:
        return render(request, "maintenance/_batch_progress.html", context)
    return render(request, "maintenance/notice_batch.html", context)


@login_required
@require_safe
def batch_pdf(request, pk: int):
    """The merged PDF for the print shop."""
    b = _batch(request, pk)
    path = Path(b.merged_path) if b.merged_path else None
    if b.status != BatchStatus.DONE or path is None or not path.is_file():
        raise Http404("This batch has no merged file (yet).")
    return FileResponse(open(path, "rb"), content_type="application/pdf", as_attachment=True,
                        filename=f"notices-{b.jurisdiction.slug}-{b.as_of}.pdf")


@login_required
@require_safe
def notice_letter(request, pk: int):
    """A sent letter: the owner's file as printed, or (if that file is gone) the same letter drawn again from the record."""
    notice = get_object_or_404(Notice.objects.select_related("owner", "system__parcel", "jurisdiction"), pk=pk)
    if not policies.can_read_notice(request.user, notice):
        raise Http404
    path = Path(notice.pdf_path) if notice.pdf_path else None
    name = f"notice-{notice.system.system_id}-{notice.as_of}.pdf"
    if path is not None and path.is_file():
        return _pdf(path.read_bytes(), name)
    return _pdf(one_letter_pdf(letter_for(notice), sender_for(notice.jurisdiction, strict=False)), name)


@login_required
@require_POST
def holding_letters(request):
    """A county whose profile sets holding_tanks.report_periods: record the owners' letters for the holding
    tank reports overdue on a day; then the dashboard links the letters to print."""
    from powts.maintenance.holding_letters import holding_report_letters_record

    unit = _unit(request)
    try:
        as_of = fields.date("as_of", request.POST.get("as_of") or None, latest=fields.LATEST_DATE) or timezone.localdate()
        result = holding_report_letters_record(jurisdiction=unit, as_of=as_of)
    except Refused as exc:
        messages.error(request, exc.message)
        return redirect("maintenance:dashboard")
    held = "; ".join(f"{ref}: {why}" for ref, why in result.held)
    messages.success(request, f"{result.recorded} letter{'s' if result.recorded != 1 else ''} recorded for the holding tank "
                              f"reports due {result.period.due_on:%B %-d, %Y}"
                              f"{'; held back: ' + held if held else ''}.")
    return redirect(f"{reverse('maintenance:dashboard')}?as_of={as_of.isoformat()}")


@login_required
@require_safe
def holding_letters_pdf(request, due_on: str):
    """The owners' letters recorded for holding tank reports due on `due_on`, as one file to print."""
    from powts.maintenance.holding_letters import KIND, letters_pdf

    unit = _unit(request)
    try:
        day = fields.date("due_on", due_on, latest=fields.LATEST_DATE, required=True)
    except Refused:
        raise Http404 from None
    notices = list(Notice.objects.filter(jurisdiction=unit, kind=KIND, due_on=day)
                   .select_related("system__parcel", "owner").order_by("system__system_id"))
    return _pdf(letters_pdf(unit, notices), f"holding-tank-report-letters-{day.isoformat()}.pdf")
