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


FORM_FIELDS = ("id", "supply_id", "county", "location", "claimant_name", "claimant_address", "claimant_type",
               "supply_use", "well_kind", "dwelling_units", "annual_family_income", "eligible_costs", "claimed_on",
               "affidavit_on", "tax_returns_on", "completed_on")


def _claim_data(post) -> dict:
    """The form as the department's claim row (the fields `powts wells import` reads); the services parse it."""
    data = {name: post.get(name, "") for name in FORM_FIELDS}
    data["sample_dates"] = ";".join(d for d in post.getlist("sample_date") if d.strip())
    data["lab_certified"] = "lab_certified" in post
    data["department_advisory"] = "department_advisory" in post
    return data


def _choices(values) -> list[tuple[str, str]]:
    return [(v, v.replace("_", " ").capitalize()) for v in sorted(values)]


@login_required
def claim_new(request):
    """DNR enters one claim received on its form ((5)(a)): the same reading and checks as the import; the
    affidavit, sample results and tax returns can be attached when the supply's county is known (its records
    keep them)."""
    from powts.attachments.choices import Kind
    from powts.attachments.services import create_with_files
    from powts.jurisdictions.models import Jurisdiction
    from powts.law.wells import CLAIMANT_TYPES, SUPPLY_USES, WELL_KINDS

    _dnr(request)
    if request.method == "POST" and not policies.can_act_on_claims(request.user):
        raise PermissionDenied("Only the Department of Natural Resources enters well compensation claims.")
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        data = _claim_data(request.POST)
        files = request.FILES.getlist("evidence")
        try:
            if files and not data["county"].strip():
                raise services.ClaimRefused("choose the county where the water supply is to attach documents: "
                                            "they are kept with that county's records", field="evidence")
            claim = create_with_files(lambda: services.claim_create(data=data, by=request.user), files=files,
                                      kind=Kind.OTHER, by=request.user)
        except Refused as exc:
            for name, msgs in exc.errors.items():
                errors.setdefault(name if name in FORM_FIELDS or name in ("sample_dates", "evidence") else "__all__",
                                  []).extend(f"{m} ({exc.citation})" if exc.citation else m for m in msgs)
        else:
            messages.success(request, f"Claim {claim.claim_id} recorded: {claim.get_status_display().lower()}.")
            return redirect("wells:claim-detail", pk=claim.pk)
    return render(request, "wells/claim_new.html", {
        "values": request.POST, "errors": errors, "today": timezone.localdate().isoformat(),
        "counties": Jurisdiction.objects.order_by("name"), "claimant_types": _choices(CLAIMANT_TYPES),
        "supply_uses": _choices(SUPPLY_USES), "well_kinds": _choices(WELL_KINDS),
        "sample_dates": request.POST.getlist("sample_date") + ["", ""]}, status=400 if errors else 200)


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
