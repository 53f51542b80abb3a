"""DNR's pages: the claims queue, a claim (items received, completeness, letters, evidence), payment runs.
Thin: the services decide; a refusal is shown on the page."""
from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from powts.core import lists
from powts.core.refusals import Refused, refused_text
from powts.law import fields as LF
from powts.wells import letters, policies, selectors, services
from powts.wells.choices import Missing
from powts.wells.filtersets import ClaimFilterSet
from powts.wells.models import WellClaim, WellPaymentRun
from powts.wells.tables import ClaimTable


def _dnr(request):
    if not policies.can_read_claims(request.user):
        raise PermissionDenied("Only the Department of Natural Resources handles well compensation claims.")


def _day(request, name="on") -> dt.date:
    raw = request.POST.get(name, "")
    return timezone.localdate() if not raw.strip() else LF.parse_date(name, raw)


@login_required
@require_safe
def claim_list(request):
    _dnr(request)
    filterset, rows = lists.filtered(request, ClaimFilterSet, selectors.claims())
    table, export = lists.table_or_export(request, ClaimTable, rows, name="well-claims")
    if export:
        return export
    return render(request, "wells/claim_list.html", {"filterset": filterset, "table": table, "counts": selectors.claim_counts()})


@login_required
@require_safe
def claim_detail(request, pk):
    _dnr(request)
    claim = get_object_or_404(selectors.claims(), pk=pk)
    return render(request, "wells/claim_detail.html", {
        "claim": claim, "missing": [Missing(m).label for m in claim.missing or []], "letters": letters.available(claim),
        "titles": letters.TITLES, "lines": claim.payment_lines.select_related("run"), "today": timezone.localdate().isoformat(),
        "consolidated": claim.consolidated.all(),
        "can_act": policies.can_act_on_claims(request.user)})


@login_required
@require_POST
def claim_act(request, pk, action):
    _dnr(request)
    claim = get_object_or_404(WellClaim, pk=pk)
    try:
        on = _day(request)
        if action == "items":
            services.claim_receive_items(claim=claim, on=on, by=request.user, affidavit="affidavit" in request.POST,
                                         tax_returns="tax_returns" in request.POST,
                                         sample_dates=[LF.parse_date("sample_date", d) for d in request.POST.getlist("sample_date") if d.strip()],
                                         lab_certified=True if "lab_certified" in request.POST else None)
            messages.success(request, "Items recorded.")
        elif action == "complete":
            services.claim_mark_complete(claim=claim, on=on, by=request.user)
            messages.success(request, f"Claim marked complete on {on.isoformat()} and decided.")
        elif action == "notice":
            services.claim_notice(claim=claim, on=on)
            messages.success(request, "Completeness notice recorded; print the letter below.")
        else:
            raise Refused(f"unknown action {action!r}", field="action")
    except Refused as exc:
        messages.error(request, refused_text(exc))
    return redirect("wells:claim-detail", pk=claim.pk)


@login_required
@require_safe
def claim_letter(request, pk, kind):
    _dnr(request)
    claim = get_object_or_404(selectors.claims(), pk=pk)
    try:
        pdf = letters.letter_pdf(claim, kind, on=timezone.localdate())
    except letters.LetterRefused:
        return HttpResponse("There is no such letter for this claim.", status=404, content_type="text/plain")
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="well-claim-{claim.claim_id}-{kind}.pdf"'
    return response


@login_required
def run_list(request):
    _dnr(request)
    errors = []
    if request.method == "POST":
        try:
            run = services.payment_run(funds=LF.parse_cents("funds", request.POST.get("funds")), on=_day(request), by=request.user)
        except Refused as exc:
            errors = [refused_text(exc)]
        else:
            messages.success(request, f"Payment run {run.pk} recorded.")
            return redirect(run)
    return render(request, "wells/run_list.html", {"runs": selectors.runs(), "errors": errors, "values": request.POST,
                                                   "today": timezone.localdate().isoformat(),
                                                   "waiting": selectors.conditional_total()}, status=400 if errors else 200)


@login_required
@require_safe
def run_detail(request, pk):
    _dnr(request)
    run = get_object_or_404(WellPaymentRun, pk=pk)
    lines = selectors.run_lines(run)
    if request.GET.get("export") == "csv":
        import csv

        response = HttpResponse(content_type="text/csv")
        response["Content-Disposition"] = f'attachment; filename="well-payment-run-{run.pk}.csv"'
        w = csv.writer(response)
        w.writerow(["id", "supply_id", "status", "paid", "award", "position"])
        for x in lines:
            w.writerow([x.claim.claim_id, x.claim.supply.supply_id, x.status, f"{x.paid / 100:.2f}",
                        "" if x.claim.award is None else f"{x.claim.award / 100:.2f}", x.position or ""])
        return response
    return render(request, "wells/run_detail.html", {"run": run, "lines": lines})
