"""The oversight pages: thin; every write goes through actions.perform (the same table as the API)."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.db.models import Q
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from powts.accounts.models import License
from powts.core.fields import FieldError
from powts.core.refusals import Refused, refused_text
from powts.jurisdictions.models import Jurisdiction
from powts.maintenance.models import Report
from powts.oversight import actions, packets, policies, selectors
from powts.oversight.models import Exemption, IssuanceHold, ProgramAudit, Referral, ReportFlag, SampledPermit
from powts.oversight.profile import oversight_profile
from powts.oversight.tables import AssessmentTable
from powts.permits.choices import InspectionSystem
from powts.permits.models import Inspection, Permit


def _post(request, name, target, done: str, back: str):
    """Run the action; a refusal is shown on the page it came from, and nothing was written."""
    try:
        actions.perform(name, user=request.user, target=target, data=request.POST)
    except (Refused, FieldError) as exc:
        messages.error(request, refused_text(exc))
    else:
        messages.success(request, done)
    return redirect(back)


# -- the department's view of every county ----------------------------------------------------------------

@login_required
@require_safe
def state_view(request):
    if not policies.reads_state_view(request.user):
        raise PermissionDenied("The state's view of county programs is for the department and state auditors.")
    today = timezone.localdate()
    try:
        year = int(request.GET.get("year") or today.year)
    except ValueError:
        year = today.year
    year = min(max(year, 2000), today.year)
    return render(request, "oversight/state.html", {
        "rows": selectors.county_programs(year=year, today=today), "year": year, "today": today,
        "is_department": policies.is_department(request.user),
        "exemptions": Exemption.objects.select_related("jurisdiction"),
        "revocation_notice_days": oversight_profile("state").revocation_notice_days,
    })


@login_required
@require_POST
def audit_draw(request):
    unit = get_object_or_404(Jurisdiction, pk=request.POST.get("jurisdiction") or 0) if str(
        request.POST.get("jurisdiction") or "").isdigit() else None
    if unit is None:
        if not policies.is_department(request.user):
            raise PermissionDenied
        messages.error(request, "jurisdiction: choose a county")
        return redirect("oversight:state")
    try:
        audit = actions.perform("draw", user=request.user, target=unit, data=request.POST)
    except (Refused, FieldError) as exc:
        messages.error(request, refused_text(exc))
        return redirect("oversight:state")
    messages.success(request, f"{audit.samples.count()} permit(s) drawn (seed {audit.seed}).")
    return redirect(audit.get_absolute_url())


@login_required
@require_POST
def county_act(request, pk, action):
    """hold, exempt: the department acting on a county; detect, assess: the county's staff."""
    if action not in ("hold", "exempt", "detect", "assess"):
        raise PermissionDenied
    unit = get_object_or_404(Jurisdiction, pk=pk)
    back = "oversight:state" if action in ("hold", "exempt") else ("oversight:flags" if action == "detect" else "oversight:assessments")
    done = {"hold": "Permit issuance held.", "exempt": "Exemption recorded.", "detect": "Reports checked.",
            "assess": "Special charge recorded."}[action]
    return _post(request, action, unit, done, back)


@login_required
@require_POST
def hold_lift(request, pk):
    return _post(request, "lift", get_object_or_404(IssuanceHold, pk=pk), "Hold lifted.", "oversight:state")


@login_required
@require_POST
def exemption_hearing(request, pk):
    return _post(request, "hearing", get_object_or_404(Exemption, pk=pk), "Hearing noticed.", "oversight:state")


@login_required
@require_POST
def exemption_revoke(request, pk):
    return _post(request, "revoke", get_object_or_404(Exemption, pk=pk), "Exemption revoked.", "oversight:state")


# -- program audits -----------------------------------------------------------------------------------------

@login_required
@require_safe
def audit_list(request):
    if not (policies.reads_state_view(request.user) or policies.opens_flags(request.user)):
        raise PermissionDenied
    return render(request, "oversight/audits.html", {"audits": selectors.audits_for(request.user)})


def _audit(request, pk) -> ProgramAudit:
    audit = get_object_or_404(ProgramAudit.objects.select_related("jurisdiction"), pk=pk)
    if not policies.reads_county(request.user, audit.jurisdiction_id):
        raise PermissionDenied
    return audit


@login_required
@require_safe
def audit_detail(request, pk):
    audit = _audit(request, pk)
    return render(request, "oversight/audit.html", {
        "audit": audit, "samples": audit.samples.select_related("permit", "permit__parcel"),
        "is_department": policies.is_department(request.user),
        "answers": policies.answers_for(request.user, audit.jurisdiction_id),
        "holds": audit.holds.all(), "today": timezone.localdate().isoformat(),
    })


@login_required
@require_POST
def audit_act(request, pk, action):
    if action not in ("request", "respond", "close"):
        raise PermissionDenied
    audit = _audit(request, pk)
    done = {"request": "Response requested.", "respond": "Response sent.", "close": "Audit closed."}[action]
    return _post(request, action, audit, done, audit.get_absolute_url())


@login_required
@require_POST
def sample_verify(request, pk):
    sample = get_object_or_404(SampledPermit.objects.select_related("audit"), pk=pk)
    _audit(request, sample.audit_id)
    return _post(request, "verify", sample, "Verification recorded.", sample.audit.get_absolute_url())


# -- categories needing the department's approval (s. 145.20(3)(a)1.) --------------------------------------

@login_required
def categories(request):
    """GET: the categories and the approvals recorded; POST (the department): specify a category."""
    from powts.oversight.models import ApprovalCategory, DepartmentApproval

    if not policies.reads_categories(request.user):
        raise PermissionDenied("The department's categories are read by the department, state auditors and county staff.")
    if request.method == "POST":
        return _post(request, "category", None, "Category specified.", "oversight:categories")
    if request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405)
    approvals = DepartmentApproval.objects.select_related("permit", "category").order_by("-approved_on", "-id")
    if not policies.reads_state_view(request.user):
        approvals = approvals.filter(permit__jurisdiction_id=request.user.jurisdiction_id)
    return render(request, "oversight/categories.html", {
        "categories": ApprovalCategory.objects.all(), "approvals": approvals[:200],
        "department": policies.is_department(request.user), "today": timezone.localdate().isoformat(),
        "system_types": [(v, label) for v, label in InspectionSystem.choices],
    })


@login_required
@require_POST
def category_approve(request):
    """The department records its approval of one permit in a category (by the permit's number)."""
    if not policies.is_department(request.user):
        raise PermissionDenied("The department records its approvals.")
    number = str(request.POST.get("permit") or "").strip()[:60]
    permit = Permit.objects.filter(number=number).first() if number else None
    if permit is None:
        messages.error(request, f"permit: no permit {number or '(none given)'}")
        return redirect("oversight:categories")
    return _post(request, "department-approve", permit, f"Approval of permit {permit.number} recorded.", "oversight:categories")


# -- flagged reports and referrals ------------------------------------------------------------------------

def _county_staff(request):
    if not policies.opens_flags(request.user) or not request.user.jurisdiction_id:
        raise PermissionDenied("Flagged reports are the county staff's.")
    return request.user.jurisdiction


@login_required
@require_safe
def flag_list(request):
    unit = _county_staff(request)
    from powts.oversight.profile import oversight_profile

    flags = selectors.flags_of(unit.pk)
    profile = oversight_profile(unit.profile_slug)
    return render(request, "oversight/flags.html", {
        "unit": unit, "flags": flags, "today": timezone.localdate().isoformat(),
        "must_report": profile.errors_must_be_reported, "referral_citation": profile.citations["referral"],
        "application_errors_citation": profile.application_errors_citation,
        "referrals": Referral.objects.filter(jurisdiction=unit).select_related("license")[:50],
    })


@login_required
@require_POST
def flag_new(request):
    unit = _county_staff(request)
    raw = str(request.POST.get("report") or "")
    report = Report.objects.filter(pk=int(raw), jurisdiction=unit).first() if raw.isdigit() and len(raw) < 18 else None
    if report is None:
        messages.error(request, f"report: no report {raw or '(none given)'} of {unit.name}")
        return redirect("oversight:flags")
    return _post(request, "flag", report, "Report flagged.", "oversight:flags")


@login_required
@require_POST
def flag_application(request):
    """Where a county ordinance says so (its profile): an error on a sanitary permit application, flagged against the licence of who made it."""
    unit = _county_staff(request)
    number = str(request.POST.get("permit") or "").strip()[:60]
    permit = Permit.objects.filter(number=number, jurisdiction=unit).first() if number else None
    if permit is None:
        messages.error(request, f"permit: no permit {number or '(none given)'} of {unit.name}")
        return redirect("oversight:flags")
    return _post(request, "flag-application", permit, "Permit application flagged.", "oversight:flags")


@login_required
@require_POST
def flag_act(request, pk, action):
    if action not in ("evidence", "dismiss"):
        raise PermissionDenied
    unit = _county_staff(request)
    flag = get_object_or_404(ReportFlag, pk=pk, jurisdiction=unit)
    return _post(request, action, flag, "Saved.", "oversight:flags")


@login_required
@require_POST
def referral_new(request):
    _county_staff(request)
    raw = str(request.POST.get("license") or "")
    license = License.objects.filter(pk=int(raw)).first() if raw.isdigit() and len(raw) < 18 else None
    if license is None:
        messages.error(request, "license: choose the licence of the flagged reports")
        return redirect("oversight:flags")
    try:
        referral = actions.perform("refer", user=request.user, target=license, data=request.POST)
    except (Refused, FieldError) as exc:
        messages.error(request, refused_text(exc))
        return redirect("oversight:flags")
    messages.success(request, f"Referred to {referral.agency}.")
    return redirect(referral.get_absolute_url())


def _referral(request, pk) -> Referral:
    referral = get_object_or_404(Referral.objects.select_related("license", "jurisdiction"), pk=pk)
    if not policies.reads_county(request.user, referral.jurisdiction_id):
        raise PermissionDenied
    return referral


@login_required
@require_safe
def referral_detail(request, pk):
    referral = _referral(request, pk)
    return render(request, "oversight/referral.html", {
        "referral": referral, "flags": referral.flags.select_related("report"),
        "can_record": policies.can_flag(request.user, referral.jurisdiction_id), "today": timezone.localdate().isoformat(),
    })


@login_required
@require_POST
def referral_outcome(request, pk):
    referral = _referral(request, pk)
    return _post(request, "outcome", referral, "Outcome recorded.", referral.get_absolute_url())


@login_required
@require_safe
def referral_packet(request, pk, fmt):
    if fmt not in ("pdf", "csv"):
        raise Http404("evidence.pdf or evidence.csv")
    referral = _referral(request, pk)
    if fmt == "pdf":
        response = HttpResponse(packets.packet_pdf(referral), content_type="application/pdf")
    else:
        response = HttpResponse(packets.packet_csv(referral), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="referral-{referral.pk}-evidence.{fmt}"'
    return response


@login_required
@require_safe
def license_page(request, pk):
    """A licence's flagged reports and referrals, with each referral's outcome."""
    if not (policies.opens_flags(request.user) or policies.reads_state_view(request.user)):
        raise PermissionDenied
    license = get_object_or_404(License, pk=pk)
    referrals = selectors.referrals_of_license(license)
    flags = ReportFlag.objects.filter(Q(report__license=license) | Q(license=license)).select_related("report", "permit")
    if not policies.reads_state_view(request.user):
        referrals = referrals.filter(jurisdiction_id=request.user.jurisdiction_id)
        flags = flags.filter(jurisdiction_id=request.user.jurisdiction_id)
    return render(request, "oversight/license.html", {"license": license, "referrals": referrals, "flags": flags,
                                                      "today": timezone.localdate().isoformat()})


# -- special charges --------------------------------------------------------------------------------------

@login_required
@require_safe
def assessment_list(request):
    from powts.core.lists import table_or_export

    unit = _county_staff(request)
    today = timezone.localdate()
    try:
        year = int(request.GET.get("tax_year") or today.year)
    except ValueError:
        year = today.year
    year = min(max(year, 2000), 2199)
    table, export = table_or_export(request, AssessmentTable, selectors.roll(jurisdiction_id=unit.pk, tax_year=year),
                                    name=f"tax-roll-special-charges-{year}")
    if export is not None:
        return export
    from powts.oversight.profile import oversight_profile

    profile = oversight_profile(unit.profile_slug)
    from powts.permits.models import CorrectionOrder

    return render(request, "oversight/assessments.html", {
        "unit": unit, "table": table, "tax_year": year, "today": today.isoformat(),
        "authorities": profile.authorities, "citation": profile.citations["assessment"],
        "orders": CorrectionOrder.objects.filter(jurisdiction=unit).exclude(status="corrected").select_related("system__parcel")[:200],
    })


# -- conflicts of interest ----------------------------------------------------------------------------------

@login_required
@require_POST
def inspection_reassign(request, pk):
    inspection = get_object_or_404(Inspection.objects.select_related("permit__jurisdiction"), pk=pk)
    if not policies.can_reassign(request.user, inspection.permit.jurisdiction_id):
        raise PermissionDenied("Only the county's administrator reassigns work.")
    return _post(request, "reassign", inspection, "Inspection reassigned.", inspection.permit.get_absolute_url())


# -- random inspections of permit applications (where the county's ordinance provides for them) -------------------

@login_required
def application_samples(request):
    """GET: the county's random inspections of applications and the form to draw one; POST: draw (county staff)."""
    from powts.oversight import random_inspections

    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponse(status=405)
    unit = _county_staff(request)
    if request.method == "POST":
        try:
            sample = actions.perform("draw-applications", user=request.user, target=unit, data=request.POST)
        except (Refused, FieldError) as exc:
            messages.error(request, refused_text(exc))
            return redirect("oversight:application-samples")
        messages.success(request, f"{sample.sample_size} of {sample.population} application(s) drawn (seed {sample.seed}).")
        return redirect(sample.get_absolute_url())
    rule = random_inspections.rule_of(unit)
    return render(request, "oversight/application_samples.html", {
        "unit": unit, "rule": rule, "no_provision": random_inspections.no_provision(unit),
        "samples": selectors.application_samples_visible(request.user)[:200],
        "suggested": _last_full_period(timezone.localdate(), rule.every_months) if rule else None,
    })


def _last_full_period(today, months: int):
    """The last whole period of `months` months (calendar-aligned) before today: the form's suggestion."""
    import datetime as dt

    start_month = ((today.month - 1) // months) * months + 1  # this period's first month
    this_start = today.replace(day=1, month=start_month)
    end = this_start - dt.timedelta(days=1)
    first = (end.year * 12 + end.month - 1) - (months - 1)
    return {"start": dt.date(first // 12, first % 12 + 1, 1).isoformat(), "end": end.isoformat()}


@login_required
@require_safe
def application_sample(request, pk):
    sample = get_object_or_404(selectors.application_samples_visible(request.user), pk=pk)
    items = sample.items.select_related("permit__parcel", "permit__plumber", "permit__soil_evaluation__soil_tester", "flag")
    return render(request, "oversight/application_sample.html", {
        "sample": sample, "items": items, "today": timezone.localdate().isoformat(),
        "can_inspect": policies.can_flag(request.user, sample.jurisdiction_id),
    })


@login_required
@require_POST
def application_inspect(request, pk):
    item = get_object_or_404(selectors.sampled_applications_writable(request.user), pk=pk)
    return _post(request, "inspect-application", item, "Inspection recorded.", item.sample.get_absolute_url())
