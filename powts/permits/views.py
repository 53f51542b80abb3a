"""Web pages for permits: thin; selectors read, services write. Forms are plain HTML posts with
large USWDS inputs (usable on a tablet in the field); a refused move shows the rule and citation."""
from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from powts.accounts.models import License
from powts.core import fields
from powts.core import lists
from powts.core.public_posts import body_too_large, public_post_wait, too_many_message
from powts.core.refusals import Refused, refused_text
from powts.jurisdictions.models import Jurisdiction
from powts.maintenance.choices import AbandonmentMethod
from powts.permits import actions, documents, plot_files, policies, rules, selectors, services
from powts.permits import choices as c
from powts.permits.errors import PermitRefused
from powts.permits.filtersets import PermitFilterSet
from powts.permits.models import Permit
from powts.permits.services import enforcement as enf
from powts.permits.tables import PermitTable



def _date(value, field: str) -> dt.date:
    """A posted date (YYYY-MM-DD), today when blank; a FieldError (a Refused) naming the field otherwise."""
    return fields.date(field, value) or timezone.localdate()


def _id(p, name: str) -> int:
    """A record's id posted by a form: a whole number, never passed raw to the database."""
    return fields.integer(name, p.get(name), required=True, minimum=1, maximum=2**62, thousands=False)


@login_required
@require_safe  # read-only: a POST is refused (405), never answered like a GET
def permit_list(request):
    filterset, rows = lists.filtered(request, PermitFilterSet, selectors.permit_list(user=request.user))
    table, export = lists.table_or_export(request, PermitTable, rows, name="permits")
    if export:
        return export
    template = "permits/_permit_table.html" if request.htmx else "permits/permit_list.html"
    return render(request, template, {"filterset": filterset, "table": table, "can_file": policies.can_file(request.user)})


@login_required
def permit_new(request):
    if not policies.can_file(request.user):
        raise PermissionDenied(actions.APPLICATION_DENIED)
    errors, values = [], {}
    if request.method == "POST":
        values = request.POST
        from powts.attachments.services import create_with_files

        try:  # the application, its plot plan and its plans together: a refused plan files nothing
            data = actions.parse_application(request.POST)
            files = request.FILES.getlist("plans")
            plan, pdf = plot_files.from_request(request.FILES.get("plot_plan_file"))
            if plan is not None:
                data["plot_plan"] = plan
            if pdf is not None:  # a PDF plot plan is the paper plot plan: kept as a plan, the features drawn on the map
                files = [*files, pdf]
                data["documents"] = [*data.get("documents", []), "plot_plan"]
            permit = create_with_files(lambda: services.application_submit(user=request.user, data=data),
                                       files=files, kind="plan", by=request.user)
        except Refused as exc:
            errors = [refused_text(exc)]
        else:
            messages.success(request, f"Application {permit.number} filed.")
            return redirect(permit.get_absolute_url())
    return render(request, "permits/permit_new.html", {
        "errors": errors, "values": values, "kinds": c.PermitKind.choices, "system_types": c.InspectionSystem.choices,
        "jurisdictions": Jurisdiction.objects.all(),
        "license_number": getattr(policies.plumber_license(request.user), "number", ""),
        "document_kinds": c.DOCUMENT_KINDS.items(), "plan_kinds": plot_files.DRAW_KINDS,
        "plot_map": plot_files.draw_settings(Jurisdiction.objects.all(), own=request.user.jurisdiction),
        "fact_fields": [(f, Permit._meta.get_field(f).help_text) for f in FACT_FIELDS],
        "nonplumbing_kinds": c.NonplumbingKind.choices, "temporary_reasons": c.TemporaryReason.choices,
    })


# The facts an applicant states that decide which documents must be recorded and what a holding tank needs.
FACT_FIELDS = ("holding_tank", "frequent_servicing", "off_lot", "shared", "owned_by_other", "flow_not_by_bedrooms",
               "flow_rated_reconnection", "replaces_system")


@login_required
@require_safe  # read-only: a POST is refused (405), never answered like a GET
def permit_detail(request, pk: int):
    permit = selectors.permit_get(user=request.user, pk=pk)
    svg = ""
    if permit.plot_plan:
        from powts.setbacks import check_plan, parse_plan, render_svg, rules_for

        try:
            plan = parse_plan(permit.plot_plan)
            svg = render_svg(plan, check_plan(plan, rules_for(permit.slug)))
        except Exception as exc:  # a stored plan that no longer parses is shown as text, not a 500
            svg = ""
            messages.warning(request, f"The plot plan could not be drawn: {exc}")
    try:
        stages = selectors.stages_for(permit)
    except Exception:
        stages = []
    acts = policies.acts_for_permit(request.user, permit)
    # A plan drawn on the map is drawn on it again; whoever may replace the plan may redraw it there.
    plot_map = None
    if plot_files.in_lonlat(permit.plot_plan):
        plot_map = plot_files.draw_settings([permit.jurisdiction], own=permit.jurisdiction, plan=permit.plot_plan,
                                            editable=bool(acts) and permit.status in ("applied", "held"))
    return render(request, "permits/permit_detail.html", {
        "plot_map": plot_map, "plan_kinds": plot_files.DRAW_KINDS,
        "permit": permit, "missing": selectors.missing_items(permit) if permit.status in c.OPEN_STATUSES else [],
        "invoices": permit.invoices.prefetch_related("payments"), "inspections": permit.inspections.select_related("inspector"),
        "changes": permit.changes.exclude(kind=c.ChangeKind.AMENDMENT).select_related("new_owner", "new_plumber"),
        "amendments": list(permit.changes.filter(kind=c.ChangeKind.AMENDMENT).select_related("by")),
        "notices": permit.notices.all(),
        "events": permit.events.select_related("actor"), "documents": permit.documents.all(), "svg": svg,
        "stages": stages, "can_decide": policies.can_decide(request.user, permit),
        "setback_violations": selectors.setback_violation_count(permit.setback_result or {}),
        "acts": acts,
        "is_owner": permit.owner.user_id is not None and permit.owner.user_id == request.user.pk, "today": timezone.localdate().isoformat(),
        "now": timezone.localtime().strftime("%Y-%m-%dT%H:%M"), "panels": _permit_panels(permit, request),
        "today_date": timezone.localdate(),
        "recordings": selectors.recordings(permit), "appeals": permit.appeals.select_related("notice"),
        "appeal_outcomes": [(v, label) for v, label in c.AppealOutcome.choices if v],
        "appeal_body": (rules.section(permit.slug, "appeals").get("body") or {}).get("value", ""),
        "transfer_voids": bool(rules.permit_rules(permit.slug)["transfer"].get("missing_form_invalidates")),
        "contract_changes": permit.documents.filter(kind="servicing_contract_change"),
        "component_tests": permit.component_tests.select_related("tester"),
        "has_testing": bool(rules.section(permit.slug, "testing").get("notice")),
        "test_methods": [(v, label) for v, label in c.TestVerification.choices if v],
        "abandonment_rule": rules.permit_rules(permit.slug).get("replacement_abandonment") if permit.replaces_system else None,
        "abandonments": permit.abandonments.select_related("plumber"),
        "abandonment_methods": AbandonmentMethod.choices,
    })


def _permit_panels(permit, request) -> list[str]:
    """Sections other apps add to the permit page (the department's hold on issuance, powts.oversight)."""
    from django.template.loader import render_to_string

    from powts.core import registry

    out = []
    for entry in registry.entries("permit_panel"):
        context = entry.target(permit, request.user)
        if context is not None:
            out.append(render_to_string(entry.template, context, request=request))
    return out


@login_required
@require_POST
def permit_post(request, pk: int, action: str):
    """Every form on the permit page posts here: the action table (powts.permits.actions) checks who may,
    reads the form and calls the service; a refusal is shown with its field and citation."""
    permit = selectors.permit_get(user=request.user, pk=pk)
    try:
        data = request.POST
        if action == "plot-plan" and request.FILES.get("plot_plan_file"):
            data = _plot_plan_upload(request, permit)
        if data is not None:
            actions.perform(action, user=request.user, permit=permit, data=data)
    except Refused as exc:
        messages.error(request, refused_text(exc))
    else:
        messages.success(request, f"Done: {action.replace('-', ' ')}." if data is not None else
                         "The PDF plot plan is kept with the permit's plans. A PDF holds no geometry: draw the features "
                         "on the map, or upload GeoJSON or DXF, for the setback check.")
    return redirect(permit.get_absolute_url())


def _plot_plan_upload(request, permit):
    """The permit page's plot plan file: GeoJSON or DXF becomes the plan; a PDF is attached as the paper plot
    plan (the features are then drawn on the map) and the stored plan is left as it was."""
    from powts.attachments.policies import may_attach
    from powts.attachments.services import attachment_add

    plan, pdf = plot_files.from_request(request.FILES["plot_plan_file"])
    if pdf is not None:
        if not may_attach(request.user, permit):
            raise PermissionDenied("You may not add files to this permit.")
        attachment_add(record=permit, kind="plan", upload=pdf, uploaded_by=request.user, title="Plot plan")
        return None
    return {"plot_plan": plan, "on": request.POST.get("on", "")}


def _county_for(request):
    """The county a lookup or a check is for: the user's own, else the one the form names."""
    if request.user.jurisdiction_id:
        return request.user.jurisdiction
    slug = (request.GET.get("jurisdiction") or request.POST.get("jurisdiction") or "").strip()[:50]
    return Jurisdiction.objects.filter(slug=slug).first() if slug else None


@login_required
@require_safe  # read-only: a POST is refused (405), never answered like a GET
def parcel_lookup(request):
    """The application form's "find the parcel": parcels of the county by number or address (never owners)."""
    if not policies.can_file(request.user):
        raise PermissionDenied(actions.APPLICATION_DENIED)
    from powts.inventory.selectors import parcels_matching

    query = request.GET.get("parcel_q", "").strip()[:100]
    county = _county_for(request)
    found = parcels_matching(jurisdiction=county, query=query) if county is not None else []
    return render(request, "permits/_parcel_lookup.html", {"found": found, "query": query, "county": county})


@login_required
@require_POST
def plan_check(request):
    """The application form's "check the plot plan": the setback check of the file or text, nothing stored."""
    if not policies.can_file(request.user):
        raise PermissionDenied(actions.APPLICATION_DENIED)
    ctx = {}
    try:
        county = _county_for(request)
        if county is None:
            raise PermitRefused("choose the county", field="jurisdiction")
        plan, pdf = plot_files.from_request(request.FILES.get("plot_plan_file"))
        if pdf is not None:
            ctx["pdf"] = True
        else:
            if plan is None:
                plan = actions.parse(actions.PLAN_CHECK, request.POST).get("plot_plan")
            if plan is None:
                raise PermitRefused("choose a plot plan file or draw the plan first", field="plot_plan")
            ctx.update(selectors.plan_check(plan=plan, jurisdiction=county))
    except Refused as exc:
        ctx["error"] = refused_text(exc)
    # htmx swaps only a 2xx answer: the refusal is shown in the form; any other client gets the 400
    status = 400 if "error" in ctx and not request.htmx else 200
    return render(request, "permits/_plan_check.html", ctx, status=status)


@login_required
@require_safe  # read-only: a POST is refused (405), never answered like a GET
def permit_card(request, pk: int):
    permit = selectors.permit_get(user=request.user, pk=pk)
    if permit.status not in (c.PermitStatus.ISSUED, c.PermitStatus.COMPLETED):
        messages.error(request, f"Permit {permit.number} is {permit.get_status_display().lower()}; a card prints once it is issued.")
        return redirect(permit.get_absolute_url())
    resp = HttpResponse(documents.permit_card_pdf(permit), content_type="application/pdf")
    resp["Content-Disposition"] = f'inline; filename="permit-{permit.number}.pdf"'
    return resp


@require_safe  # read-only: a POST is refused (405), never answered like a GET
def inspections_ics(request):
    """The signed-in inspector's feed. Calendar apps that cannot sign in use the secret address
    from the account page (`calendar_feed`); API tokens are never accepted in a URL."""
    if not request.user.is_authenticated:
        return HttpResponse("Sign in, or use the calendar address from your account page (/accounts/me/).",
                            status=401, content_type="text/plain")
    return HttpResponse(documents.inspector_feed(request.user), content_type="text/calendar; charset=utf-8")


def calendar_feed(request, secret: str):
    """The inspector's feed at their secret address; an unknown or revoked secret is a 404."""
    from powts.accounts.selectors import calendar_feed_user

    user = calendar_feed_user(secret=secret)
    if user is None:
        raise Http404("No calendar at this address.")
    return HttpResponse(documents.inspector_feed(user), content_type="text/calendar; charset=utf-8")


def complaint_new(request):
    """A public web form for complaints (no sign-in), the same rules and the same per-address limit as
    the Open311 endpoint (powts.core.public_posts); a photo may come with it (powts.attachments)."""
    from django.conf import settings

    from powts.attachments.content import FileRefused, megabytes
    from powts.attachments.services import create_with_files

    errors, done, status, wait = [], None, 200, None
    with_photo = request.content_type == "multipart/form-data"
    photo_room = settings.POWTS_PUBLIC_UPLOAD_MAX_BYTES * settings.POWTS_PUBLIC_UPLOAD_MAX_FILES if with_photo else 0
    too_big = request.method == "POST" and body_too_large(request, extra=photo_room)
    if request.method == "POST":
        if too_big:  # refused before the body is read
            limit = enf.COMPLAINT_MAX["description"]
            errors, status = [f"description (What did you see?): too long; at most {limit:,} characters."], 400
            if with_photo:
                errors = [f"The report is too large: at most {limit:,} characters of description and a photo of at "
                          f"most {megabytes(settings.POWTS_PUBLIC_UPLOAD_MAX_BYTES)}."]
                status = 413
        elif (wait := public_post_wait(request)) is not None:
            errors, status = [too_many_message(wait)], 429
        else:
            jurisdiction = selectors.complaint_jurisdiction(request.POST.get("jurisdiction"))
            try:
                if jurisdiction is None:
                    raise PermitRefused("choose the county", field="jurisdiction")
                done = create_with_files(lambda: enf.complaint_create(
                    jurisdiction=jurisdiction, service_code=request.POST.get("service_code", ""),
                    description=request.POST.get("description", ""), address=request.POST.get("address", ""),
                    email=request.POST.get("email", ""), first_name=request.POST.get("first_name", ""),
                    phone=request.POST.get("phone", "")), files=request.FILES.getlist("photo"), kind="photo", public=True)
            except FileRefused as exc:  # the photo, named as the form names it
                errors, status = [f"photo: {exc.message}"], 400
            except Refused as exc:  # a refused form is a 400 (a body with a photo is read before this)
                errors, status = [refused_text(exc)], 400
    values = {} if too_big else request.POST
    response = render(request, "permits/complaint_new.html", {
        "errors": errors, "done": done, "services": enf.SERVICES, "jurisdictions": Jurisdiction.objects.all(),
        "values": values, "limits": enf.COMPLAINT_MAX,
        "photo_mb": settings.POWTS_PUBLIC_UPLOAD_MAX_BYTES // (1024 * 1024)}, status=status)
    if status == 429:
        response["Retry-After"] = str(wait)
    return response


# -- soil evaluations, orders, failing systems, variances, complaints ---------------------------

@login_required
@require_safe  # read-only: a POST is refused (405), never answered like a GET
def site_and_enforcement(request):
    """Staff's page for soil reports, failing systems, correction orders, variances and complaints;
    a soil tester sees and files their own reports. Every form posts to `site_post`."""
    from powts.permits.models import (
        Complaint,
        CorrectionOrder,
        FailureDetermination,
        SoilEvaluation,
        Variance,
    )

    user = request.user
    unit_id = user.jurisdiction_id
    is_staff = bool(unit_id) and policies.is_county_staff_for(user, unit_id)
    soil = SoilEvaluation.objects.select_related("parcel", "soil_tester")
    soil = soil.filter(jurisdiction_id=unit_id) if is_staff else soil.filter(soil_tester__user=user)
    ctx = {"is_staff": is_staff, "soil": soil[:100], "today": timezone.localdate().isoformat(),
           "is_tester": user.licenses.filter(kind="soil_tester").exists() if user.is_authenticated else False,
           "is_plumber": policies.plumber_license(user) is not None,
           "jurisdictions": Jurisdiction.objects.all(), "conditions": c.FailureCondition.choices,
           "clearance_kinds": c.ClearanceKind.choices}
    if is_staff:
        ctx.update({
            "orders": CorrectionOrder.objects.filter(jurisdiction_id=unit_id).select_related("system")[:200],
            "failures": FailureDetermination.objects.filter(jurisdiction_id=unit_id).select_related("system")[:100],
            "variances": Variance.objects.filter(jurisdiction_id=unit_id).select_related("system")[:100],
            "complaints": Complaint.objects.filter(jurisdiction_id=unit_id).prefetch_related("attachments")[:200],
            "tanks_ended": selectors.temporary_holding_tanks_ended(jurisdiction=user.jurisdiction,
                                                                   today=timezone.localdate())[:200],
            "late_contracts": selectors.late_contract_changes(jurisdiction=user.jurisdiction)[:200],
        })
    return render(request, "permits/site_enforcement.html", ctx)


@login_required
@require_POST
def site_post(request, what: str):
    from powts.inventory.models import Parcel, System
    from powts.permits.models import (
        Complaint,
        CorrectionOrder,
        SoilEvaluation,
    )
    from powts.permits.services import site

    p, user = request.POST, request.user
    unit = user.jurisdiction or Jurisdiction.objects.filter(slug=p.get("jurisdiction", "")).first()
    try:
        if unit is None:
            raise PermitRefused("choose the county", field="jurisdiction")
        on = _date(p.get("on"), "on")

        def staff_only():
            if not policies.is_county_staff_for(user, unit.pk):
                raise PermissionDenied(f"Only {unit.name} staff may do this.")

        def system():
            s = System.objects.filter(jurisdiction=unit, system_id=p.get("system_id", "").strip()).first()
            if s is None:
                raise PermitRefused("no such system in this county's inventory", field="system_id")
            return s

        if what == "soil":
            tester = user.licenses.filter(kind="soil_tester").first()
            if tester is None:
                raise PermissionDenied("Soil reports are filed by a certified soil tester.")
            parcel = Parcel.objects.filter(jurisdiction=unit, parcel_number=p.get("parcel_number", "").strip()).first()
            if parcel is None:
                raise PermitRefused("no such parcel in this county's inventory", field="parcel_number")
            areas = []
            for prefix, replacement in (("a", False), ("r", True)):
                if p.get(f"{prefix}_name"):
                    areas.append({"name": p[f"{prefix}_name"], "replacement": replacement,
                                  "below_grade_gravity": f"{prefix}_gravity" in p,
                                  **{k: p.get(f"{prefix}_{k}") for k in site.AREA_NUMBERS}})
            site.soil_evaluation_file(jurisdiction=unit, parcel=parcel, soil_tester=tester,
                                      fieldwork_completed_on=_date(p.get("fieldwork_completed_on"), "fieldwork_completed_on"),
                                      filed_on=on, areas=areas)
        elif what == "verify":
            staff_only()
            ev = get_object_or_404(SoilEvaluation, pk=_id(p, "evaluation"), jurisdiction=unit)
            site.soil_evaluation_verify(evaluation=ev, outcome=p.get("outcome", ""), on=on, note=p.get("note", ""))
        elif what == "failure":
            staff_only()
            lic = License.objects.filter(number=p.get("inspector_license", "").strip()).first() if p.get("inspector_license") else None
            enf.failure_determine(system=system(), conditions=p.getlist("conditions"), on=on, basis=p.get("basis", ""),
                                  inspector_license=lic, notes=p.get("notes", ""))
        elif what == "order":
            staff_only()
            enf.correction_order_issue(system=system(), on=on, correct_by=_date(p.get("correct_by"), "correct_by"),
                                       requirement=p.get("requirement", ""))
        elif what == "order-close":
            staff_only()
            enf.correction_order_close(order=get_object_or_404(CorrectionOrder, pk=_id(p, "order"), jurisdiction=unit), on=on)
        elif what == "order-follow-up":
            staff_only()
            enf.correction_order_follow_up(order=get_object_or_404(CorrectionOrder, pk=_id(p, "order"), jurisdiction=unit),
                                           on=on, note=p.get("note", ""))
        elif what == "variance":
            staff_only()
            enf.variance_petition(system=system(), standard=p.get("standard", ""), on=on, reason=p.get("reason", ""), by=user)
        elif what == "variance-decide":
            # s. 145.24(3): the department decides variances now (permits:variances), not the county
            raise PermissionDenied(f"Variances are decided by the department (DSPS) [{enf.VARIANCE_CITATION}].")
        elif what == "complaint-close":
            staff_only()
            enf.complaint_close(complaint=get_object_or_404(Complaint, pk=_id(p, "complaint"), jurisdiction=unit),
                                notes=p.get("notes", ""))
        elif what == "emergency":
            plumber = policies.plumber_license(user) or License.objects.filter(number=p.get("plumber_license", "").strip()).first()
            if plumber is None:
                raise PermitRefused("the plumber's license number is required", field="plumber_license")
            if plumber.user_id != user.pk:
                staff_only()
            parcel = Parcel.objects.filter(jurisdiction=unit, parcel_number=p.get("parcel_number", "").strip()).first()
            if parcel is None:
                raise PermitRefused("no such parcel in this county's inventory", field="parcel_number")
            em = site.emergency_report(jurisdiction=unit, parcel=parcel, plumber=plumber,
                                       work_started_on=_date(p.get("work_started_on"), "work_started_on"), reported_on=on,
                                       description=p.get("description", ""),
                                       absorption_replacement_found_on=(
                                           _date(p["absorption_replacement_found_on"], "absorption_replacement_found_on")
                                           if p.get("absorption_replacement_found_on") else None),
                                       state_plan_required="state_plan_required" in p)
            for f in em.findings:
                (messages.success if f["ok"] else messages.warning)(request, f"{f['message']} [{f['citation']}]")
            messages.info(request, f"The permit application is due by {em.application_due_on.isoformat()} (10 working days).")
        elif what == "clearance":
            staff_only()
            parcel = Parcel.objects.filter(jurisdiction=unit, parcel_number=p.get("parcel_number", "").strip()).first()
            if parcel is None:
                raise PermitRefused("no such parcel in this county's inventory", field="parcel_number")
            cl = site.clearance_request(jurisdiction=unit, parcel=parcel, kind=p.get("kind", ""), requested_on=on,
                                        documents=p.getlist("documents"),
                                        bedrooms_before=fields.integer("bedrooms_before", p.get("bedrooms_before"), minimum=0, maximum=100),
                                        bedrooms_after=fields.integer("bedrooms_after", p.get("bedrooms_after"), minimum=0, maximum=100),
                                        living_area_changed_pct=fields.decimal("living_area_changed_pct",
                                                                        p.get("living_area_changed_pct"), minimum=0, maximum=10_000),
                                        undersized_bedrooms=fields.integer("undersized_bedrooms", p.get("undersized_bedrooms"),
                                                                           minimum=0, maximum=100),
                                        affidavit_recording_number=fields.text("affidavit_recording_number",
                                                                               p.get("affidavit_recording_number"), max_length=60),
                                        affidavit_recorded_on=fields.date("affidavit_recorded_on", p.get("affidavit_recorded_on")))
            for f in cl.findings:
                (messages.success if f["ok"] else messages.warning)(request, f"{f['message']} [{f['citation']}]")
        else:
            raise PermitRefused(f"unknown form {what!r}", field="what")
    except Refused as exc:
        messages.error(request, refused_text(exc))
    else:
        messages.success(request, f"Saved: {what.replace('-', ' ')}.")
    return redirect("permits:site")


# -- variances (Wis. Stat. s. 145.24): petitions to the department, its decisions and rescissions -------------

@login_required
@require_safe
def variances(request):
    """DSPS decides and rescinds every county's variances; county staff and owners petition and follow theirs."""
    from powts.inventory.models import System
    from powts.permits.models import Variance

    user = request.user
    if not policies.can_see_variances(user):
        raise PermissionDenied("Variances are petitioned by owners and counties and decided by the department (DSPS).")
    rows = Variance.objects.select_related("system", "jurisdiction", "decided_by")
    deciding = policies.can_decide_variances(user)
    if not deciding:
        rows = rows.filter(jurisdiction_id=user.jurisdiction_id) if user.jurisdiction_id else rows.filter(system__parcel__owner__user=user)
    own = System.objects.filter(parcel__owner__user=user).order_by("system_id")[:50] if not user.jurisdiction_id else []
    return render(request, "permits/variances.html", {
        "variances": rows[:300], "deciding": deciding, "own_systems": own, "is_staff": bool(user.jurisdiction_id),
        "today": timezone.localdate().isoformat(), "grounds": c.RescissionGround.choices, "citation": enf.VARIANCE_CITATION})


@login_required
@require_POST
def variance_post(request, what: str):
    from powts.inventory.models import System
    from powts.permits.models import Variance

    p, user = request.POST, request.user
    try:
        on = _date(p.get("on"), "on")
        if what == "petition":
            qs = System.objects.filter(system_id=p.get("system_id", "").strip())
            qs = qs.filter(jurisdiction_id=user.jurisdiction_id) if user.jurisdiction_id else qs.filter(parcel__owner__user=user)
            system = qs.select_related("parcel__owner").first()
            if system is None:
                if not policies.can_see_variances(user) or policies.can_decide_variances(user):
                    raise PermissionDenied("Variances are petitioned by the system's owner or its county.")
                raise PermitRefused("no such system of yours", field="system_id")
            if not policies.can_petition_variance(user, system):
                raise PermissionDenied("Variances are petitioned by the system's owner or its county.")
            enf.variance_petition(system=system, standard=p.get("standard", ""), on=on, reason=p.get("reason", ""), by=user)
        elif what in ("decide", "rescind"):
            if not policies.can_decide_variances(user):
                raise PermissionDenied(f"Variances are decided and rescinded by the department (DSPS) [{enf.VARIANCE_CITATION}].")
            v = get_object_or_404(Variance, pk=_id(p, "variance"))
            if what == "decide":
                enf.variance_decide(variance=v, grant=p.get("grant") == "1", on=on, reason=p.get("reason", ""),
                                    threat_to_waters="threat_to_waters" in p, by=user)
            else:
                enf.variance_rescind(variance=v, on=on, reason=p.get("reason", ""), ground=p.get("ground", ""), by=user)
        else:
            raise PermitRefused(f"unknown form {what!r}", field="what")
    except Refused as exc:
        messages.error(request, refused_text(exc))
    else:
        messages.success(request, {"petition": "Petition sent to the department.", "decide": "Decision recorded.",
                                   "rescind": "Variance rescinded."}[what])
    return redirect("permits:variances")
