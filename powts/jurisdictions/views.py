"""The state roles' home (the counties they oversee), the department's page to add a county, and a county
administrator's settings pages."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from powts.core import lists
from powts.inventory.policies import can_browse as can_browse_inventory
from powts.core.refusals import add_to_form
from powts.jurisdictions import forms, selectors, services
from powts.jurisdictions.county_settings import SETTINGS
from powts.jurisdictions.models import Jurisdiction
from powts.jurisdictions.policies import can_add_counties, can_change_settings_of, can_list_counties
from powts.kernel.refusals import Refused
from powts.jurisdictions.tables import CountyTable
from powts.maintenance.policies import can_list_reports, can_see_dashboard
from powts.permits.policies import can_browse as can_browse_permits


@login_required
@require_safe  # read-only: a POST is refused (405), never answered like a GET
def county_list(request):
    user = request.user
    if not can_list_counties(user):
        raise PermissionDenied("The list of counties is for the state's auditors, DSPS and DNR.")
    # Each county's pages the reader may open (DNR: systems and maintenance reports, not permits or the dashboard).
    links = [(label, name, word) for label, name, word, may in (
        ("Dashboard", "maintenance:dashboard", "jurisdiction", can_see_dashboard(user)),
        ("Systems", "inventory:system-list", "jurisdiction", can_browse_inventory(user)),
        ("Reports", "maintenance:reports", "jurisdiction", can_list_reports(user)),
        ("Permits", "permits:list", "jurisdiction", can_browse_permits(user)),
    ) if may]
    table, export = lists.table_or_export(request, CountyTable, Jurisdiction.objects.all(), name="counties", links=links)
    if export:
        return export
    return render(request, "jurisdictions/county_list.html", {"table": table, "may_add": can_add_counties(user)})


# ---------------------------------------------------------------- the department adds a county

@login_required
@require_http_methods(["GET", "POST"])
def county_new(request):
    if not can_add_counties(request.user):
        raise PermissionDenied("Counties are set up by the department's administrator.")
    form = forms.CountyAddForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            unit = services.county_add(slug=form.cleaned_data["slug"], name=form.cleaned_data["name"], by=request.user)
        except Refused as exc:
            add_to_form(form, exc)
        else:
            messages.success(request, f"{unit.name} is set up on the state minimum profile. Next: give it a county "
                                      "administrator, who sets its contact, closures, notices and fees on its settings page; "
                                      f"then load its inventory (powts import inventory FILE --jurisdiction {unit.slug}).")
            return redirect("jurisdictions:list")
    return render(request, "jurisdictions/county_new.html", {"form": form},
                  status=400 if form.is_bound and form.errors else 200)


# ---------------------------------------------------------------- a county's administrator changes its settings

def _own_county(request):
    unit = request.user.jurisdiction if getattr(request.user, "jurisdiction_id", None) else None
    if unit is None or not can_change_settings_of(request.user, unit.pk):
        raise PermissionDenied("A county's settings are changed by its own county administrator.")
    return unit


@login_required
@require_safe
def county_settings(request):
    unit = _own_county(request)
    return render(request, "jurisdictions/settings.html", {"unit": unit, **selectors.settings_page(jurisdiction=unit)})


@login_required
@require_http_methods(["GET", "POST"])
def county_setting_edit(request, key: str):
    unit = _own_county(request)
    setting = SETTINGS.get(key)
    if setting is None:
        raise Http404
    form_class = forms.FORMS[key]
    if request.method == "POST":
        form = form_class(request.POST)
        if form.is_valid():
            try:
                services.county_setting_change(jurisdiction=unit, key=key, value=form.value(),
                                               citation=form.cleaned_data["citation"], by=request.user,
                                               reason=form.cleaned_data.get("reason") or "")
            except Refused as exc:
                add_to_form(form, exc)
            else:
                messages.success(request, f"{setting.label} saved ({form.cleaned_data['citation']}).")
                return redirect("jurisdictions:settings")
    else:
        form = form_class(initial=form_class.initial_from(selectors.setting_current(jurisdiction=unit, key=key)))
    return render(request, "jurisdictions/setting_edit.html", {"unit": unit, "setting": setting, "form": form,
                                                               "shown": setting.shown(unit.profile)},
                  status=400 if form.is_bound and form.errors else 200)
