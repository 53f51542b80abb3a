"""County staff edit a system, its components, its parcel and owner, and record a sale, from the system's page.

Thin: the form parses (as the import does), the service checks the rules and the version and audits
with the reason; a refusal is shown on its field (add_to_form); a stale version keeps the editor's input.
"""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from powts.core.refusals import Refused, add_to_form
from powts.inventory import forms, policies, services
from powts.inventory.models import Component, System
from powts.inventory.versions import StaleEdit


def _system(request, pk: int) -> System:
    """The system, if the user is staff of its county: others get 403 (not staff) or 404 (another county)."""
    if not policies.can_edit_systems(request.user):
        raise PermissionDenied("Only county staff edit the inventory.")
    system = get_object_or_404(System.objects.select_related("parcel__owner", "jurisdiction"), pk=pk)
    if not policies.can_edit_system(request.user, system):
        raise Http404
    return system


def edit_page(request, *, form_class, initial: dict, save, title: str, back: str, crumbs: list[tuple[str, str]],
              done: str, intro: str = "", button: str = "Save changes", to=None):
    """GET: the form with the record's values and version. POST: parse, save through `save(data, version=,
    reason=)`, back to `to` (or `back`); a refusal on its field, a stale version with what changed."""
    stale = None
    if request.method == "POST":
        form = form_class(request.POST)
        if form.is_valid():
            try:
                saved = save(form.parsed, version=form.cleaned_data.get("version"), reason=form.cleaned_data["reason"])
            except StaleEdit as exc:
                stale = exc
                # The editor keeps their input, now against the current version: saving again is deliberate.
                data = request.POST.copy()
                data["version"] = str(exc.current_version)
                form = form_class(data)
                form.is_valid()
                add_to_form(form, exc)
            except Refused as exc:
                add_to_form(form, exc)
            else:
                messages.success(request, done)
                return redirect(to(saved) if to else back)
    else:
        form = form_class(initial=initial)
    return render(request, "inventory/edit_form.html", {
        "form": form, "title": title, "intro": intro, "button": button, "back": back, "crumbs": crumbs, "stale": stale,
    }, status=400 if form.is_bound and form.errors else 200)


def _edit(request, system: System, **kwargs):
    crumbs = [("Inventory", reverse("inventory:system-list")), (system.system_id, system.get_absolute_url())]
    return edit_page(request, back=system.get_absolute_url(), crumbs=crumbs, **kwargs)


@login_required
@require_http_methods(["GET", "POST"])
def system_edit(request, pk: int):
    system = _system(request, pk)
    return _edit(request, system, form_class=forms.SystemEditForm, initial=forms.SystemEditForm.initial_from(system),
                 title=f"Edit system {system.system_id}", done=f"System {system.system_id} saved.",
                 save=lambda data, **kw: services.system_update(system=system, data=data, **kw))


@login_required
@require_http_methods(["GET", "POST"])
def component_add(request, pk: int):
    system = _system(request, pk)
    return _edit(request, system, form_class=forms.ComponentForm, initial={"version": system.version},
                 title=f"Add a component to system {system.system_id}", done="Component added.", button="Add component",
                 save=lambda data, **kw: services.component_add(system=system, data=data, **kw))


def _component(system: System, component_pk: int) -> Component:
    return get_object_or_404(Component, pk=component_pk, system=system)


@login_required
@require_http_methods(["GET", "POST"])
def component_edit(request, pk: int, component_pk: int):
    system = _system(request, pk)
    component = _component(system, component_pk)
    return _edit(request, system, form_class=forms.ComponentForm,
                 initial=forms.ComponentForm.initial_from(component, version=system.version),
                 title=f"Edit {component} of system {system.system_id}", done="Component saved.",
                 save=lambda data, **kw: services.component_update(component=component, data=data, **kw))


@login_required
@require_http_methods(["GET", "POST"])
def component_remove(request, pk: int, component_pk: int):
    system = _system(request, pk)
    component = _component(system, component_pk)
    return _edit(request, system, form_class=forms.ComponentRemoveForm, initial={"version": system.version},
                 title=f"Remove {component} from system {system.system_id}", button="Remove component",
                 intro="The component leaves the system's list; its record stays in the history.",
                 done=f"{component} removed.",
                 save=lambda data, **kw: services.component_remove(component=component, **kw))


@login_required
@require_http_methods(["GET", "POST"])
def parcel_edit(request, pk: int):
    system = _system(request, pk)
    parcel = system.parcel
    return _edit(request, system, form_class=forms.ParcelEditForm, initial=forms.ParcelEditForm.initial_from(parcel),
                 title=f"Edit parcel {parcel.parcel_number}", done=f"Parcel {parcel.parcel_number} saved.",
                 intro="Every system on this parcel shows the change.",
                 save=lambda data, **kw: services.parcel_update(parcel=parcel, data=data, **kw))


@login_required
@require_http_methods(["GET", "POST"])
def owner_edit(request, pk: int):
    system = _system(request, pk)
    owner = system.parcel.owner
    if owner is None:
        messages.info(request, "No owner is recorded for this parcel: record the sale or transfer to its owner.")
        return redirect("inventory:parcel-sale", pk=system.pk)
    return _edit(request, system, form_class=forms.OwnerEditForm, initial=forms.OwnerEditForm.initial_from(owner),
                 title=f"Edit owner {owner.name}", done=f"Owner {owner.name} saved.",
                 intro="The owner's other parcels show the change too. A sale is recorded with \"Record a sale\" instead.",
                 save=lambda data, **kw: services.owner_update(owner=owner, data=data, **kw))


@login_required
@require_http_methods(["GET", "POST"])
def parcel_sale(request, pk: int):
    system = _system(request, pk)
    parcel = system.parcel
    return _edit(request, system, form_class=forms.SaleForm, initial={"version": parcel.version},
                 title=f"Record a sale of parcel {parcel.parcel_number}", button="Record the sale",
                 intro=f"The current ownership{f' ({parcel.owner.name})' if parcel.owner_id else ''} ends on the sale date "
                       "and the buyer's begins; the ownership history keeps both.",
                 done="Sale recorded.",
                 save=lambda data, version, reason: services.ownership_transfer(
                     parcel=parcel, on=data.pop("sold_on"), buyer=data, version=version, reason=reason))
