"""Web pages of the program between counties and the department (s. 145.246(7)-(8), (11)-(13)).

County staff: certification, application for participation, disbursement. DSPS: review queue, allocation
runs (per county and category, with exports), payments to counties, what-if. Thin: each POST calls one
service and comes back to its page with the outcome or the refusal (with its citation) as a message.
"""
from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from powts.core import lists
from powts.core.refusals import Refused
from powts.grants import allocating, participation, program_selectors, whatif
from powts.grants import program_policies as may
from powts.grants import program_year as fiscal
from powts.grants.models import AllocationRun, CountyPayment, ParticipationApplication, ParticipationItem
from powts.grants.tables_program import AllocationLineTable
from powts.jurisdictions.models import Jurisdiction
from powts.law import fields as F


def _year(request, default=None) -> str:
    label = (request.POST.get("fiscal_year") or request.GET.get("fiscal_year") or "").strip()
    try:
        return fiscal.parse(label).label if label else (default or fiscal.upcoming(timezone.localdate()))
    except Refused:
        return default or fiscal.upcoming(timezone.localdate())


def _date(request, name):
    raw = request.POST.get(name, "").strip()
    return F.parse_date(name, raw) if raw else None


def _cents(raw, name):
    raw = (raw or "").strip()
    return F.parse_cents(name, raw) if raw else None


def said(exc: Refused) -> str:
    """A refusal in plain words for the page: the reasons and the citation, without the field codes."""
    text = "; ".join(m for ms in exc.errors.values() for m in ms)
    text = text[:1].upper() + text[1:]
    return f"{text} ({exc.citation})" if exc.citation else text


def _back(request, url: str, fn, ok: str):
    try:
        fn()
    except Refused as exc:
        messages.error(request, said(exc))
    else:
        messages.success(request, ok)
    return redirect(url)


# -- county staff -------------------------------------------------------------------------------------

def _county_of(user):
    if not may.can_view_county_side(user):
        raise PermissionDenied("The county's Wisconsin Fund pages are for its staff.")
    return user.jurisdiction


@login_required
@require_safe
def county(request):
    unit = _county_of(request.user)
    fy = _year(request)
    ctx = program_selectors.county_year(jurisdiction=unit, fiscal_year=fy)
    year = fiscal.parse(fy)
    eligible = participation.eligible_applications(jurisdiction=unit, fiscal_year=fy).count()
    return render(request, "grants/program/county.html", {
        **ctx, "jurisdiction": unit, "fiscal_year": fy, "year": year, "eligible": eligible,
        "today": timezone.localdate(), "deadline_passed": timezone.localdate() >= year.deadline})


def _county_url(fy):
    return reverse("grants_program:county") + f"?fiscal_year={fy}"


@login_required
@require_POST
def certify(request):
    unit = _county_of(request.user)
    fy = _year(request)
    return _back(request, _county_url(fy), lambda: participation.certify(
        jurisdiction=unit, fiscal_year=fy, user=request.user, official_name=request.POST.get("official_name", ""),
        official_title=request.POST.get("official_title", ""),
        eligibility_and_costs=bool(request.POST.get("eligibility_and_costs")),
        installed_and_maintained=bool(request.POST.get("installed_and_maintained")),
        disbursed_to_eligible=bool(request.POST.get("disbursed_to_eligible"))),
        f"Conditions certified for fiscal year {fy}.")


@login_required
@require_POST
def submit(request):
    unit = _county_of(request.user)
    fy = _year(request)

    def act():
        participation.submit(jurisdiction=unit, fiscal_year=fy, user=request.user,
                             received_on=_date(request, "received_on"))
    return _back(request, _county_url(fy), act, f"Application for participation for {fy} submitted.")


@login_required
@require_POST
def disburse(request, pk):
    payment = get_object_or_404(CountyPayment.objects.restrict(request.user, "change"), pk=pk)
    if not may.can_disburse(request.user, payment.jurisdiction_id):
        raise PermissionDenied("Only the county's staff disburse its funds.")
    return _back(request, _county_url(payment.run.fiscal_year),
                 lambda: allocating.disburse(payment=payment, user=request.user, paid_on=_date(request, "paid_on")),
                 "Grants paid to the owners and recorded.")


# -- the department -----------------------------------------------------------------------------------

def _state(user):
    if not may.can_view_state_side(user):
        raise PermissionDenied("The state's Wisconsin Fund pages are for DSPS and the state's auditors.")


def _department(user):
    if not may.is_department(user):
        raise PermissionDenied("Only the department (DSPS) does this.")


@login_required
@require_safe
def review_queue(request):
    _state(request.user)
    fy = _year(request)
    return render(request, "grants/program/queue.html", {
        "fiscal_year": fy, "year": fiscal.parse(fy), "rows": program_selectors.queue(fiscal_year=fy),
        "acts": may.is_department(request.user)})


@login_required
@require_safe
def participation_detail(request, pk):
    _state(request.user)
    part = get_object_or_404(ParticipationApplication.objects.select_related("jurisdiction", "certification"), pk=pk)
    items = part.items.select_related("application").order_by("application_id")
    return render(request, "grants/program/participation.html", {
        "p": part, "year": fiscal.parse(part.fiscal_year), "items": items[:500], "more": max(items.count() - 500, 0), "acts": may.is_department(request.user)})


def _queue_url(fy):
    return reverse("grants_program:queue") + f"?fiscal_year={fy}"


@login_required
@require_POST
def review(request, pk):
    _department(request.user)
    part = get_object_or_404(ParticipationApplication, pk=pk)
    meets = request.POST.get("decision") == "meets"
    return _back(request, _queue_url(part.fiscal_year), lambda: participation.review(
        participation=part, user=request.user, meets_conditions=meets, reason=request.POST.get("reason", "")),
        f"{part.jurisdiction.name}: review recorded.")


@login_required
@require_POST
def revise(request, pk):
    _department(request.user)
    part = get_object_or_404(ParticipationApplication, pk=pk)
    return _back(request, _queue_url(part.fiscal_year), lambda: participation.revise_county(
        participation=part, user=request.user, reason=request.POST.get("reason", "")),
        f"{part.jurisdiction.name}: determination revised.")


@login_required
@require_POST
def revise_item(request, pk):
    _department(request.user)
    item = get_object_or_404(ParticipationItem.objects.select_related("participation"), pk=pk)
    return _back(request, reverse("grants_program:participation", kwargs={"pk": item.participation_id}),
                 lambda: participation.revise_item(item=item, user=request.user, reason=request.POST.get("reason", "")),
                 f"Application {item.application_id} taken out of the allocation.")


@login_required
def allocations(request):
    _state(request.user)
    fy = _year(request)
    if request.method == "POST":
        _department(request.user)
        # A background job; when it is done by the time the page answers, straight to the run.
        from powts.grants import background
        from powts.jobs.errors import QueueUnavailable
        from powts.jobs.services import job_start

        try:
            job = job_start(kind=background.KIND, title=f"Allocation for fiscal year {fy}", user=request.user,
                            params={"fiscal_year": fy, "funds_cents": _cents(request.POST.get("funds"), "funds") or 0})
        except QueueUnavailable as exc:
            messages.warning(request, exc.message)
            return redirect(reverse("grants_program:allocations") + f"?fiscal_year={fy}")
        except Refused as exc:
            messages.error(request, said(exc))
            return redirect(reverse("grants_program:allocations") + f"?fiscal_year={fy}")
        if job.state == "failed":
            messages.error(request, job.error)
            return redirect(reverse("grants_program:allocations") + f"?fiscal_year={fy}")
        if job.state == "done":
            messages.success(request, job.result["summary"])
            return redirect("grants_program:run", pk=job.result["run"])
        return redirect("jobs:job", pk=job.pk)
    return render(request, "grants/program/allocations.html", {
        "fiscal_year": fy, "year": fiscal.parse(fy), "runs": program_selectors.runs(fiscal_year=fy)[:50], "acts": may.is_department(request.user),
        "participating": allocating.participating(fy).count()})


@login_required
@require_safe
def run_detail(request, pk):
    _state(request.user)
    run = get_object_or_404(AllocationRun, pk=pk)
    lines = run.lines.select_related("jurisdiction")
    table, export = lists.table_or_export(request, AllocationLineTable, lines, name=f"allocation-{run.fiscal_year}-{run.pk}")
    if export:
        return export
    paid = program_selectors.payments(run)
    rows = program_selectors.totals(run)
    for r in rows:
        r["payment"] = paid.get(r["jurisdiction_id"]) if r["category"] == "all" else None
    return render(request, "grants/program/run.html", {
        "run": run, "table": table, "rows": rows, "acts": may.is_department(request.user),
        "total": sum(r["award"] for r in rows if r["category"] == "all"), "today": timezone.localdate()})


@login_required
@require_POST
def pay(request, pk):
    _department(request.user)
    run = get_object_or_404(AllocationRun, pk=pk)
    unit = get_object_or_404(Jurisdiction, pk=request.POST.get("jurisdiction") or 0)

    def act():
        allocating.pay_county(run=run, jurisdiction=unit, user=request.user, paid_on=_date(request, "paid_on"),
                              amount_cents=_cents(request.POST.get("amount"), "amount"))
    return _back(request, reverse("grants_program:run", kwargs={"pk": run.pk}), act, f"{unit.name} paid.")


@login_required
@require_safe
def whatif_page(request):
    _department(request.user)
    fy = _year(request)
    g = request.GET
    result, error = None, None
    if g.get("funds"):
        try:
            pct = None
            if g.get("table_percent", "").strip():
                try:
                    pct = Decimal(g["table_percent"].strip())
                except InvalidOperation:
                    raise Refused("is not a number", field="table_percent") from None
            result = whatif.run(fiscal_year=fy, funds_cents=_cents(g.get("funds"), "funds"),
                                base_funds_cents=_cents(g.get("base_funds"), "base_funds"),
                                income_limit_cents=_cents(g.get("income_limit"), "income_limit"),
                                max_share_cents=_cents(g.get("max_share"), "max_share"), table_percent=pct)
        except Refused as exc:
            error = said(exc)
    return render(request, "grants/program/whatif.html", {"fiscal_year": fy, "result": result, "error": error,
                                                           "values": g}, status=400 if error else 200)
