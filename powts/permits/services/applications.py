"""Applications: filing (with the signing plumber), documents, recording, amendments, the plot plan."""
from __future__ import annotations

import datetime as dt

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from powts.audit.services import audit_create, audit_update, snapshot
from powts.calendars import inspection_rules_for
from powts.permits import choices as c
from powts.permits import policies, rules
from powts.permits.models import Permit, PermitDocument
from powts.accounts.conflicts import refuse_employee_work_nearby
from powts.permits.selectors import recordings, setback_violation_count
from powts.permits.services._common import _actor, _event, _lock, _save, checked, refuse
from powts.permits.services.fees import invoice_raise

# -- application ---------------------------------------------------------------------------

APPLICATION_FIELDS = ("kind", "system_type", "work", "building_use", "lot_dimensions", "driving_directions",
                      "reference_points", "estimated_daily_flow_gpd", "design_flow_gpd", "bedrooms", "has_pumps",
                      "plans_signed", "state_plan_required", "plan_stamped_by_designer", "existing_system_on_lot",
                      "recording_required", "system", "soil_evaluation", "holding_tank", "frequent_servicing", "off_lot",
                      "shared", "owned_by_other", "flow_not_by_bedrooms", "flow_rated_reconnection", "nonplumbing_kind",
                      "container_gallons", "placement_days", "temporary_until", "temporary_reason", "replaces_system")


def _next_number(jurisdiction, year: int) -> str:
    prefix = f"{year}-"
    taken = Permit.objects.filter(jurisdiction=jurisdiction, number__startswith=prefix).values_list("number", flat=True)
    n = max((int(x[len(prefix):]) for x in taken if x[len(prefix):].isdigit()), default=0) + 1
    return f"{prefix}{n:04d}"


def _check_applicant(jurisdiction, plumber, on: dt.date) -> None:
    r = rules.permit_rules(jurisdiction.profile_slug)
    if plumber is None:
        refuse("an application needs the licensed master plumber who signs it", r["applicant_citation"], "plumber")
    if plumber.kind not in r["applicant_license_kinds"]:
        refuse(f"{plumber} may not sign a sanitary permit application; it must be a "
               f"{' or '.join(k.replace('_', ' ') for k in r['applicant_license_kinds'])}", r["applicant_citation"], "plumber")
    if plumber.expires_on and plumber.expires_on < on:
        refuse(f"license {plumber.number} expired on {plumber.expires_on.isoformat()}", r["applicant_citation"], "plumber")


def _check_permit_needed(jurisdiction, fields: dict) -> None:
    """A portable restroom placed for no longer than the county's exemption needs no permit: refused before any
    fee is charged, with the reason."""
    exempt = rules.nonplumbing(jurisdiction.profile_slug).get("portable_restroom_exempt_days")
    days = fields.get("placement_days")
    if exempt and fields.get("nonplumbing_kind") == c.NonplumbingKind.PORTABLE_RESTROOM and days is not None \
            and days <= int(exempt["value"]):
        refuse(f"a portable restroom placed for {days} day(s) needs no sanitary permit: one is required only beyond "
               f"{int(exempt['value'])} consecutive days", exempt["citation"], "placement_days")


@transaction.atomic
def permit_file(*, jurisdiction, parcel, owner, plumber, filed_on: dt.date | None = None, filed_by=None,
                plot_plan: dict | None = None, documents: list[dict] | None = None, **fields) -> Permit:
    """A master plumber files an application for the owner; the application fee is charged."""
    filed_on = filed_on or timezone.localdate()
    unknown = set(fields) - set(APPLICATION_FIELDS)
    if unknown:
        refuse(f"unknown application field(s): {', '.join(sorted(unknown))}", field=sorted(unknown)[0])
    if parcel.jurisdiction_id != jurisdiction.pk:
        refuse(f"parcel {parcel.parcel_number} is in another county", field="parcel")
    if owner is None or owner.jurisdiction_id != jurisdiction.pk:
        refuse("the owner must be a property owner on record in this county", field="owner")
    _check_applicant(jurisdiction, plumber, filed_on)
    refuse_employee_work_nearby(license=plumber, jurisdiction=jurisdiction, owner=owner,
                                what=f"apply for a sanitary permit for parcel {parcel.parcel_number}")
    if fields.get("system_type"):
        known = inspection_rules_for(jurisdiction.profile_slug).system_types
        if fields["system_type"] not in known:
            refuse(f"system_type {fields['system_type']!r} is not one of {', '.join(known)}", field="system_type")
    _check_permit_needed(jurisdiction, fields)
    permit = Permit(jurisdiction=jurisdiction, number=_next_number(jurisdiction, filed_on.year), parcel=parcel,
                    owner=owner, plumber=plumber, filed_by=filed_by, filed_on=filed_on, **fields)
    checked(permit)
    permit.save()
    audit_create(permit, action=f"sanitary permit application {permit.number} filed by {plumber.holder_name}")
    r = rules.permit_rules(jurisdiction.profile_slug)
    _event(permit, step="filed", on=filed_on, citation=r["applicant_citation"],
           summary=f"Application filed by {plumber} for {owner.name}")
    for doc in documents or []:
        permit_add_document(permit=permit, **doc)
    if plot_plan is not None:
        permit_set_plot_plan(permit=permit, plot_plan=plot_plan, on=filed_on)
    invoice_raise(jurisdiction=jurisdiction, fee_code="application", on=filed_on, permit=permit, payer=owner.name)
    return permit


@transaction.atomic
def permit_add_document(*, permit: Permit, kind: str, received_on: dt.date | None = None, title: str = "",
                        recorded: bool = False, file=None) -> PermitDocument:
    if kind not in c.DOCUMENT_KINDS:
        refuse(f"document kind {kind!r} is not one of {', '.join(c.DOCUMENT_KINDS)}", field="kind")
    # transfer forms, recordings and servicing contracts arrive after review too (up to final approval)
    open_to = ({c.PermitStatus.APPLIED, c.PermitStatus.HELD, c.PermitStatus.APPROVED, c.PermitStatus.ISSUED,
                c.PermitStatus.SUSPENDED} if kind in c.DOCUMENT_KINDS_AFTER_REVIEW else
               {c.PermitStatus.APPLIED, c.PermitStatus.HELD})
    if permit.status not in open_to:
        refuse(f"a {c.DOCUMENT_KINDS[kind].lower()} cannot be added: permit {permit.number} is "
               f"{permit.get_status_display().lower()}", field="kind")
    doc = PermitDocument(permit=permit, kind=kind, title=title, received_on=received_on or timezone.localdate(),
                         recorded=recorded)
    if file is not None:
        doc.file = file
    checked(doc)
    doc.save()
    label = c.DOCUMENT_KINDS.get(kind, kind)  # people read the kind's name, not its code
    audit_create(doc, action=f"document added to {permit.number}: {label}")
    _event(permit, step="document", on=doc.received_on, summary=f"Document received: {label}{' - ' + title if title else ''}")
    return doc


@transaction.atomic
def document_verify_recording(*, document: PermitDocument, recording_number: str, recorded_on: dt.date,
                              verified_on: dt.date | None = None) -> PermitDocument:
    """Staff verify that a document was recorded: the register of deeds' recording number and date."""
    number = recording_number.strip() if isinstance(recording_number, str) else ""
    if len(number) > 60:
        refuse("recording_number is longer than 60 characters", field="recording_number")
    if not number:
        refuse("recording_number is required: the register of deeds' document number", field="recording_number")
    verified_on = verified_on or timezone.localdate()
    required = {r["kind"] for r in recordings(document.permit)}
    if document.kind not in required:
        # A recording number is kept for what the text requires recorded; anything else is refused, not stored.
        refuse(f"a {c.DOCUMENT_KINDS.get(document.kind, 'document').lower()} is not a document permit "
               f"{document.permit.number} must have recorded with the register of deeds"
               + (f" (it must have: {'; '.join(sorted(c.DOCUMENT_KINDS[k].lower() for k in required))})" if required else
                  "; none is required for it"), field="document")
    if not isinstance(recorded_on, dt.date):
        refuse("recorded_on is required: the date the document was recorded", field="recorded_on")
    if recorded_on > verified_on:
        refuse(f"recorded_on {recorded_on.isoformat()} is after the verification date", field="recorded_on")
    before = snapshot(document, ["recorded", "recording_number", "recorded_on", "recording_verified_on",
                                 "recording_verified_by_id"])
    document.recorded, document.recording_number, document.recorded_on = True, number, recorded_on
    document.recording_verified_on, document.recording_verified_by = verified_on, _actor()
    document.save()
    label = c.DOCUMENT_KINDS.get(document.kind, document.kind)
    audit_update(document, before=before, action=f"recording of {label} verified: {number}")
    _event(document.permit, step="document", on=verified_on,
           summary=f"Recording verified: {label} recorded {recorded_on.isoformat()} as {number}")
    return document


@transaction.atomic
def permit_update_application(*, permit: Permit, data: dict) -> Permit:
    permit = _lock(permit)
    if permit.status not in (c.PermitStatus.APPLIED, c.PermitStatus.HELD):
        refuse(f"permit {permit.number} is {permit.get_status_display().lower()}; only an application under review "
               "can be amended")
    before = snapshot(permit, [f if f not in ("system", "soil_evaluation") else f + "_id" for f in data])
    for k, v in data.items():
        if k not in APPLICATION_FIELDS:
            refuse(f"{k} cannot be changed here", field=k)
        setattr(permit, k, v)
    return _save(permit, before, "application amended")


@transaction.atomic
def permit_set_plot_plan(*, permit: Permit, plot_plan: dict, on: dt.date | None = None) -> Permit:
    """Store the plot plan and its setback check (powts.setbacks) against the county profile."""
    from powts.permits.plot_files import in_feet
    from powts.setbacks import PlanError, check_plan, parse_plan, rules_for

    # drawn on the map or uploaded in longitude and latitude: in the county, then on the local grid in feet
    plot_plan = in_feet(plot_plan, slug=permit.slug, county=permit.jurisdiction.name)
    try:
        plan = parse_plan(plot_plan)
    except PlanError as exc:
        refuse(f"plot plan: {exc}", field="plot_plan")
    result = check_plan(plan, rules_for(permit.slug))
    before = snapshot(permit, ["plot_plan", "setback_result"])
    replaced = permit.plot_plan
    permit.plot_plan = plot_plan
    # the count is complete; the list stops at 200, so the stored result and the pages stay small
    permit.setback_result = result.as_json(limit=200)
    permit.save(update_fields=["plot_plan", "setback_result"])
    audit_update(permit, before=before, action="plot plan stored and checked")
    n = setback_violation_count(permit.setback_result)
    if replaced and replaced != plot_plan and permit.status in (c.PermitStatus.APPLIED, c.PermitStatus.HELD):
        from powts.permits.services.amendments import record_plan_amendment

        record_plan_amendment(permit=permit, old=replaced, new=plot_plan, on=on or timezone.localdate())
    _event(permit, step="plot_plan", on=on or timezone.localdate(),
           summary="Plot plan checked: complies with the setbacks" if result.complies else
           f"Plot plan checked: {n} setback violation(s): " + "; ".join(
               f"{v['feature']} {v['measured_ft']} ft from {v['other']}, needs {v['required_ft']} ft [{v['citation']}]"
               for v in permit.setback_result["violations"][:5]))
    return permit


@transaction.atomic  # an owner put on record for a refused application is rolled back with it
def application_submit(*, user, data: dict) -> Permit:
    """The web form and the API file through here: find the county, parcel and owner (an owner named for the
    first time is put on record through the inventory's audited service), the signing plumber, then file."""
    from powts.accounts.models import License
    from powts.inventory.models import Owner, Parcel
    from powts.inventory.services import owner_get_or_create
    from powts.jurisdictions.models import Jurisdiction

    data = dict(data)
    slug = data.pop("jurisdiction", None)
    if user.jurisdiction_id:
        jurisdiction = user.jurisdiction
    elif slug:
        jurisdiction = Jurisdiction.objects.filter(slug=slug).first()
        if jurisdiction is None:
            refuse(f"unknown jurisdiction {slug!r}", field="jurisdiction")
    else:
        refuse("jurisdiction is required (the county's slug)", field="jurisdiction")
    number = data.pop("parcel_number")
    new_parcel = data.pop("new_parcel", False)
    site_address, municipality = data.pop("site_address", ""), data.pop("municipality", "")
    legal_description = data.pop("legal_description", "")
    parcel = Parcel.objects.filter(jurisdiction=jurisdiction, parcel_number=number).select_related("owner").first()
    if parcel is None and not new_parcel:
        refuse(f"no such parcel in {jurisdiction.name}'s inventory ({number}); for new construction on a parcel not yet in "
               "it, choose \"new parcel\" and give its site address and municipality", field="parcel_number")
    owner_name = data.pop("owner_name", None)
    address = data.pop("owner_mailing_address", "")
    if new_parcel:  # new construction: the parcel is created pending; staff confirm it (powts.inventory.pending)
        from powts.inventory.pending import parcel_create_pending

        if not owner_name:
            refuse("owner_name is required for a parcel not yet in the inventory", field="owner_name")
        owner = Owner.objects.filter(jurisdiction=jurisdiction, name=owner_name).first() or owner_get_or_create(
            jurisdiction=jurisdiction, name=owner_name, mailing_address=address, action="owner named in a permit application")
        parcel = parcel_create_pending(jurisdiction=jurisdiction, parcel_number=number, site_address=site_address,
                                       municipality=municipality, legal_description=legal_description, owner=owner,
                                       cause="named in a permit application")
    elif owner_name:
        owner = Owner.objects.filter(jurisdiction=jurisdiction, name=owner_name).first() or owner_get_or_create(
            jurisdiction=jurisdiction, name=owner_name, mailing_address=address, action="owner named in a permit application")
    elif parcel.owner_id:
        owner = parcel.owner
    else:
        refuse("the parcel has no owner on record; give owner_name", field="owner_name")
    number = data.pop("plumber_license", None)
    if number:
        plumber = License.objects.filter(number=number).order_by("id").first()
        if plumber is None:
            refuse(f"no license {number!r} on record", field="plumber_license")
    else:
        plumber = policies.plumber_license(user)
    if plumber is None:
        refuse("the signing master plumber's license number is required", field="plumber_license")
    if not policies.is_county_staff_for(user, jurisdiction.pk) and plumber.user_id != user.pk:
        raise PermissionDenied("A plumber files under their own license.")
    filed_on = data.pop("filed_on", None)
    docs = [{"kind": k, "received_on": filed_on or timezone.localdate()} for k in data.pop("documents", [])]
    permit = permit_file(jurisdiction=jurisdiction, parcel=parcel, owner=owner, plumber=plumber, filed_by=user,
                         filed_on=filed_on, documents=docs, **data)
    if parcel.pending:
        _event(permit, step="parcel_pending", on=permit.filed_on, citation=rules.step_citation(permit.slug, "approval"),
               summary=f"Parcel {parcel.parcel_number} ({parcel.site_address}, {parcel.municipality}) is not yet in the "
                       "inventory: county staff confirm it before the application is approved")
    return permit
