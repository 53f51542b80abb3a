"""Web pages for grant applications. Thin: policies say who, services write, selectors read."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from powts.core import lists
from powts.core.refusals import Refused, refused_text
from powts.grants import choices as c
from powts.grants import forms, letters, policies, selectors, services
from powts.grants.filtersets import GrantApplicationFilterSet
from powts.grants.tables import GrantApplicationTable


@login_required
@require_safe
def application_list(request):
    if not policies.can_browse(request.user):
        raise PermissionDenied("Grant applications are for the county's staff, the state and the owners who applied.")
    filterset, rows = lists.filtered(request, GrantApplicationFilterSet, selectors.application_list(user=request.user))
    table, export = lists.table_or_export(request, GrantApplicationTable, rows, name="grant-applications")
    if export:
        return export
    template = "grants/_table.html" if request.htmx else "grants/list.html"
    return render(request, template, {"filterset": filterset, "table": table,
                                      "can_apply": selectors.determinations_for(request.user).exists()})


@login_required
@require_safe
def owner_payments(request):
    """An owner's grant disbursements (s. 145.246(8)(g)) and, if they claimed, well compensation payments
    (s. 281.75(5)(f)): their own only."""
    from powts.wells.selectors import claimant_payments

    if not policies.can_see_own_payments(request.user):
        raise PermissionDenied("This page shows an owner their own grant and well claim payments.")
    return render(request, "grants/my_payments.html", {
        "disbursements": selectors.owner_disbursements(user=request.user),
        "well_lines": claimant_payments(user=request.user)})


@login_required
def application_new(request):
    """An owner applies online for their own system; county staff enter a paper form."""
    user = request.user
    determinations = selectors.determinations_for(user)
    staff = policies.is_county_staff(user) or user.is_superuser
    if not staff and user.role != "owner":
        raise PermissionDenied("Owners apply for their own systems; the county's staff enter paper forms.")
    errors, values = [], request.POST if request.method == "POST" else {}
    if request.method == "POST":
        from powts.attachments.services import create_with_files
        from powts.core import fields

        try:
            det_id = fields.integer("failure_determination", request.POST.get("failure_determination"), minimum=1,
                                    maximum=2**62, required=True)
            det = determinations.filter(pk=det_id).first()
            if det is None:  # someone else's record: not told it exists
                raise Http404("No such determination of failure.")
            data = forms.parse(request.POST, staff=staff, today=timezone.localdate())
            source = c.ApplicationSource.PAPER if staff else c.ApplicationSource.ONLINE
            app = create_with_files(
                lambda: services.application_create(by=user, failure_determination=det, source=source, **data),
                files=request.FILES.getlist("evidence"), kind="income_evidence", by=user)
        except Refused as exc:
            errors = [refused_text(exc)]
        else:
            messages.success(request, f"Application {app.pk} received.")
            return redirect(app.get_absolute_url())
    return render(request, "grants/new.html", {
        "errors": errors, "values": values, "staff": staff, "determinations": determinations[:500],
        "applicant_types": c.ApplicantType.choices, "evidence_kinds": c.IncomeEvidence.choices,
        "today": timezone.localdate()}, status=400 if errors else 200)


@login_required
@require_safe
def application_detail(request, pk: int):
    app = selectors.application_get(user=request.user, pk=pk)
    decision = selectors.current_decision(app)
    return render(request, "grants/detail.html", {
        "app": app, "decision": decision, "can_decide": policies.can_decide(request.user, app)
        and app.status != c.ApplicationStatus.WITHDRAWN,
        "can_withdraw": policies.can_withdraw(request.user, app) and app.status != c.ApplicationStatus.WITHDRAWN,
        "history": app.decisions.select_related("decided_by").order_by("-decided_at", "-id")[1:20],
    })


@login_required
@require_POST
def application_decide(request, pk: int):
    app = selectors.application_get(user=request.user, pk=pk)
    if not policies.can_decide(request.user, app):
        raise PermissionDenied("Only the county's staff decide its grant applications.")
    try:
        decision = services.application_decide(application=app, by=request.user)
    except Refused as exc:
        messages.error(request, f"Not decided. {refused_text(exc)}")
    else:
        messages.success(request, "Decided: " + ("eligible." if decision.eligible else "not eligible."))
    return redirect(app.get_absolute_url())


@login_required
@require_POST
def application_withdraw(request, pk: int):
    app = selectors.application_get(user=request.user, pk=pk)
    if not policies.can_withdraw(request.user, app):
        raise PermissionDenied("Only the applicant or the county's staff may withdraw an application.")
    try:
        services.application_withdraw(application=app, by=request.user)
    except Refused as exc:
        messages.error(request, refused_text(exc))
    else:
        messages.success(request, f"Application {app.pk} withdrawn.")
    return redirect(app.get_absolute_url())


@login_required
@require_safe
def application_letter(request, pk: int):
    """The letter on the current decision (denial or approval), as a PDF download."""
    app = selectors.application_get(user=request.user, pk=pk)
    decision = selectors.current_decision(app)
    if decision is None:
        raise Http404("No decision yet, so no letter.")
    name, pdf = letters.letter_pdf(app, decision)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response
