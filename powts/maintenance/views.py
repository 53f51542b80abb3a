"""Thin views: selectors read, services write, templates show."""
from __future__ import annotations

import datetime as dt
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from powts.accounts.choices import Role
from powts.audit.choices import Channel
from powts.core import fields, lists
from powts.core.refusals import Refused, add_to_form
from powts.inventory.choices import SystemType
from powts.inventory.models import System
from powts.maintenance import policies, selectors, services
from powts.maintenance.csv_upload import ReportFileRefused, upload_reports
from powts.maintenance.filtersets import ReportFilterSet
from powts.maintenance.forms import ReportForm, UploadForm
from powts.maintenance.models import Report
from powts.maintenance.tables import ReportTable

BUCKETS = [("current", "Current"), ("due_soon", "Due soon"), ("overdue", "Overdue"), ("delinquent", "Delinquent"),
           ("failing", "Failing"), ("needs_data", "Needs data")]


class DashboardLinks:
    """The list behind each number on the dashboard: the inventory by standing, reports by month."""

    def __init__(self, *, unit, as_of: dt.date):
        self.unit, self.as_of = unit, as_of
        # a page has about a hundred of these links: each view reversed, and the query's shared part encoded, once
        self._systems, self._reports = reverse("inventory:system-list"), reverse("maintenance:reports")
        self._day_unit = urlencode({"as_of": as_of.isoformat(), "jurisdiction": unit.slug})
        self._unit = urlencode({"jurisdiction": unit.slug})

    def standing(self, key: str, **more) -> str:
        """The inventory list of `key` (then any filters in `more`), in the query's order: standing, as_of, jurisdiction."""
        tail = f"&{urlencode(more)}" if more else ""
        return f"{self._systems}?{urlencode({'standing': key})}&{self._day_unit}{tail}"

    def reports(self, *, month: str, late: bool = False) -> str:
        return f"{self._reports}?{urlencode({'month': month})}&{self._unit}{'&late=true' if late else ''}"


def _as_of(request) -> dt.date:
    """?as_of=, a date from 1900 to 2199; anything else shows today, with the reason."""
    try:
        return fields.date("as_of", request.GET.get("as_of"), latest=fields.LATEST_DATE) or timezone.localdate()
    except fields.FieldError as exc:
        messages.warning(request, f"{exc.message}; showing today.")
        return timezone.localdate()


@login_required
@require_safe  # read-only: a POST is refused (405), never answered like a GET
def dashboard(request):
    user = request.user
    if user.role == Role.OWNER and not user.is_superuser:
        return redirect("maintenance:mine")
    if not policies.can_see_dashboard(user):
        return redirect("maintenance:report")
    unit = policies.dashboard_jurisdiction(user, request.GET.get("jurisdiction"))
    as_of = _as_of(request)
    if unit is None:
        return render(request, "maintenance/dashboard.html", {"unit": None})
    counts = selectors.dashboard_counts(jurisdiction=unit, as_of=as_of)
    trend = selectors.compliance_over_time(jurisdiction=unit, as_of=as_of)
    links = DashboardLinks(unit=unit, as_of=as_of)
    return render(request, "maintenance/dashboard.html", {
        "unit": unit, "as_of": as_of, "buckets": BUCKETS, "counts": counts,
        "totals": [(label, counts["totals"].get(key, 0), key, links.standing(key)) for key, label in BUCKETS],
        "by_type": [(SystemType(row["system__system_type"]).label if row["system__system_type"] in SystemType.values
                     else row["system__system_type"], [(row[key], links.standing(key, system_type=row["system__system_type"]))
                                                       for key, _ in BUCKETS]) for row in counts["by_type"]],
        "by_municipality": [(row["system__parcel__municipality"], [(row[key], links.standing(
            key, municipality=row["system__parcel__municipality"] or "")) for key, _ in BUCKETS]) for row in counts["by_municipality"]],
        "chart": ({"labels": [t["month"] for t in trend], "reports": [t["reports"] for t in trend],
                   "late": [t["late"] for t in trend], "notices": [t["notices"] for t in trend],
                   "standing": {label: counts["totals"].get(key, 0) for key, label in BUCKETS},
                   # where a click on a segment or bar goes: the list behind it, filtered
                   "standing_links": [links.standing(key) for key, _ in BUCKETS],
                   "reports_links": [links.reports(month=t["month"]) for t in trend],
                   "late_links": [links.reports(month=t["month"], late=True) for t in trend]}),
        "lists": selectors.morning_lists(jurisdiction=unit, as_of=as_of),
        "no_contract": selectors.holding_tanks_without_contract(jurisdiction=unit, as_of=as_of),
        "holding_overdue": (holding := selectors.holding_overdue_lines(jurisdiction=unit, as_of=as_of)),
        "holding_letters": selectors.holding_letters_sent(jurisdiction=unit, period=holding[0]),
        "can_send_notices": policies.can_send_notices(user),
        "can_manage": policies.can_manage(user),
        "panels": _dashboard_panels(unit, request),
    })


def _dashboard_panels(unit, request) -> list[str]:
    """Lists other apps add (powts.core.registry "dashboard_panel"): the maintenance app imports none of them."""
    from django.template.loader import render_to_string

    from powts.core import registry

    return [render_to_string(e.template, e.target(unit, request.user), request=request)
            for e in registry.entries("dashboard_panel")]


@login_required
@require_http_methods(["GET", "POST"])
def report(request):
    if not policies.can_file_reports(request.user):
        raise PermissionDenied("Only licensed contractors and county staff file maintenance reports.")
    initial = {"work_date": timezone.localdate().isoformat()}
    lic = request.user.licenses.first() if hasattr(request.user, "licenses") else None
    if lic:
        initial["license_number"] = lic.number
    if request.GET.get("system_id"):
        initial["system_id"] = request.GET["system_id"]
    form = ReportForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        unit = policies.filing_jurisdiction(request.user, request.POST.get("jurisdiction"))
        if unit is None:
            form.add_error(None, "Choose the county.")
        else:
            from powts.attachments.content import FileRefused
            from powts.attachments.services import report_with_photos

            try:  # the report and its photos together: a refused photo files nothing
                result = report_with_photos(lambda: services.report_submit(
                    jurisdiction=unit, data=form.cleaned_data, filed_by=request.user, channel=Channel.WEB),
                    photos=request.FILES.getlist("photos"), by=request.user)
            except FileRefused as exc:  # the report and its photos go together: say that neither was kept
                form.add_error(None, f"Nothing was filed. {exc.message}")
            except Refused as exc:
                add_to_form(form, exc)
            else:
                r = result.report
                if result.duplicate:
                    messages.info(request, f"Already on file: {r} (filed {timezone.localtime(r.filed_at):%b %-d, %Y}). Nothing was added.")
                else:
                    bits = [f"Filed: {r}."]
                    if r.system_id is None:
                        bits.append("The system is not in the inventory yet; the county will review it.")
                    if r.late:
                        bits.append("Filed more than 30 days after the work (SPS 383.55).")
                    if r.failure_flag:
                        bits.append("County staff are told of the failure signs.")
                    messages.success(request, " ".join(bits))
                return redirect("maintenance:report")
    from powts.jurisdictions.models import Jurisdiction

    # The contractor's own reports under the form: what they filed, to check it went in.
    filed = selectors.reports_visible(user=request.user).filter(filed_by=request.user).order_by("-filed_at", "-id")[:10]
    return render(request, "maintenance/report_form.html", {"form": form, "units": Jurisdiction.objects.all(), "filed": filed})


@login_required
@require_safe  # read-only: a POST is refused (405), never answered like a GET
def system_lookup(request):
    """The report form's "find the system by address": system ids and site addresses (never owners), 10 at most."""
    if not policies.can_file_reports(request.user):
        raise PermissionDenied("Only licensed contractors and county staff file maintenance reports.")
    query = request.GET.get("address", "").strip()[:100]
    county = request.GET.get("jurisdiction", "").strip()[:50]  # the county chosen on the form, if any
    found = selectors.systems_by_address(user=request.user, query=query, county=county) if len(query) >= 3 else []
    return render(request, "maintenance/_system_lookup.html", {"found": found, "query": query})


@login_required
@require_safe  # read-only: a POST is refused (405), never answered like a GET
def report_list(request):
    """Filed reports: a contractor's own, staff their county's, an owner their systems' (Report.restrict)."""
    filterset, rows = lists.filtered(request, ReportFilterSet, selectors.reports_visible(user=request.user))
    table, export = lists.table_or_export(request, ReportTable, rows, name="maintenance-reports")
    if export:
        return export
    template = "maintenance/_report_table.html" if request.htmx else "maintenance/report_list.html"
    return render(request, template, {"filterset": filterset, "table": table,
                                      "can_file": policies.can_file_reports(request.user)})


@login_required
@require_http_methods(["GET", "POST"])
def upload(request):
    if not policies.can_file_reports(request.user):
        raise PermissionDenied("Only licensed contractors and county staff file maintenance reports.")
    form = UploadForm(request.POST or None, request.FILES or None)
    result = None
    if request.method == "POST" and form.is_valid():
        unit = policies.filing_jurisdiction(request.user, request.POST.get("jurisdiction"))
        if unit is None:
            form.add_error(None, "Choose the county.")
        else:
            try:
                result = upload_reports(jurisdiction=unit, data=form.cleaned_data["file"].read(), filed_by=request.user, channel=Channel.WEB)
            except ReportFileRefused as exc:
                form.add_error("file", str(exc))
    from powts.jurisdictions.models import Jurisdiction

    return render(request, "maintenance/upload.html", {"form": form, "result": result, "units": Jurisdiction.objects.all()})


@login_required
@require_safe  # read-only: a POST is refused (405), never answered like a GET
def mine(request):
    """An owner's systems: due date, reports and notices."""
    systems = System.objects.restrict(request.user, "view").select_related("parcel", "jurisdiction")
    if request.user.role != Role.OWNER and not request.user.is_superuser:
        systems = systems.filter(parcel__owner__user=request.user)
    items = [{"system": s, **selectors.system_maintenance(system=s)} for s in systems[:20]]
    return render(request, "maintenance/mine.html", {"items": items})


@login_required
@require_POST
def failure_reviewed(request, pk: int):
    if not policies.can_manage(request.user):
        raise PermissionDenied("County staff review failure signs.")
    report = get_object_or_404(Report, pk=pk)
    if not policies.can_manage_report(request.user, report):
        raise Http404
    services.failure_reviewed(report=report, note=request.POST.get("note", ""))
    messages.success(request, f"Marked reviewed: {report}.")
    return redirect("maintenance:dashboard")


@login_required
@require_POST
def match(request, pk: int):
    if not policies.can_manage(request.user):
        raise PermissionDenied("County staff match queued reports.")
    report = get_object_or_404(Report, pk=pk, review_status="pending")
    if not policies.can_manage_report(request.user, report):
        raise Http404
    system = System.objects.filter(jurisdiction_id=report.jurisdiction_id, system_id=request.POST.get("system_id", "").strip()).first()
    if system is None:
        messages.error(request, f"No system {request.POST.get('system_id')!r} in the inventory.")
    else:
        services.report_match(report=report, system=system)
        messages.success(request, f"{report} matched to {system}.")
    return redirect("maintenance:dashboard")


def system_context(system) -> dict:
    """For the inventory's system page: `{% include "maintenance/_system_maintenance.html" %}` with this context."""
    return selectors.system_maintenance(system=system)
