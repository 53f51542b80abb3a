"""The county's side: certifying its conditions ((8)) and applying for participation ((7)(a)); the
department's review of that application ((13)(a)) and revision of its determination ((11)(a)).

Every action is one transaction with its audit event; a refusal (powts.core.refusals.Refused) names the
field, says why and cites the subsection, and changes nothing.
"""
from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from powts.audit.services import audit_create, audit_update, snapshot
from powts.core.bulk import insert_rows
from powts.core.refusals import Refused
from powts.grants import program_year as fiscal
from powts.grants import program_policies as may
from powts.grants.models import (
    PARTICIPATING,
    CountyCertification,
    GrantApplication,
    ParticipationApplication,
    ParticipationItem,
    ParticipationStatus,
)


def _county_staff(user, jurisdiction, action: str, fy: fiscal.FiscalYear, cite: str) -> None:
    if not may.acts_for_county(user, jurisdiction.pk):
        who = getattr(user, "username", None) or "this user"
        raise Refused(f"{who} is not {jurisdiction.name} staff; only the county's own staff may {action}",
                      field="user", citation=fy.cite(cite))


def check_records(*, jurisdiction, on: dt.date, fy: fiscal.FiscalYear) -> dict:
    """(8)(a) and (8)(e) from the county's records: what was checked, and whether each is met.

    (a) a maintenance program adopted and administered: the county profile's maintenance program has a
    start date on or before `on`; (e) a process for regulation and inspection: the county keeps an
    inventory of systems here (the records that process works on)."""
    from powts.inventory.models import System
    from powts.maintenance.profile import maintenance_profile

    prof = maintenance_profile(jurisdiction.profile_slug)
    start = prof.program_start_on
    program = {"met": bool(start and start <= on), "program_start_on": start.isoformat() if start else None,
               "source": prof.citations.get("program", ""), "checked_on": on.isoformat(),
               "citation": fy.cite("maintenance_program")}
    systems = System.objects.filter(jurisdiction=jurisdiction).count()
    process = {"met": systems > 0, "systems_in_inventory": systems, "checked_on": on.isoformat(),
               "citation": fy.cite("regulation_inspection")}
    return {"maintenance_program": program, "regulation_inspection": process}


def _refuse_unmet(checked: dict) -> None:
    prog, proc = checked["maintenance_program"], checked["regulation_inspection"]
    if not prog["met"]:
        raise Refused("the county has not adopted and begun administering a maintenance program "
                      f"(its program starts {prog['program_start_on'] or 'on no date on record'})",
                      field="maintenance_program", citation=prog["citation"])
    if not proc["met"]:
        raise Refused("the county has no inventory of systems on record, so no process for regulation and "
                      "inspection can be shown", field="regulation_inspection", citation=proc["citation"])


@transaction.atomic
def certify(*, jurisdiction, fiscal_year: str, user, official_name: str = "", official_title: str = "",
            eligibility_and_costs: bool = True, installed_and_maintained: bool = True,
            disbursed_to_eligible: bool = True, on: dt.date | None = None) -> CountyCertification:
    """Record (8)(b)-(d) certified by a named county official for the fiscal year; (a) and (e) checked."""
    fy = fiscal.parse(fiscal_year)
    _county_staff(user, jurisdiction, "certify its conditions", fy, "conditions")
    name = (official_name or getattr(user, "display_name", "") or user.get_username()).strip()[:200]
    title = (official_title or "").strip()[:200]
    if not title:
        raise Refused("the certifying official's title is required", field="official_title", citation=fy.cite("conditions"))
    for field, given, cite in (("eligibility_and_costs", eligibility_and_costs, "certify_eligibility"),
                               ("installed_and_maintained", installed_and_maintained, "certify_installed"),
                               ("disbursed_to_eligible", disbursed_to_eligible, "certify_disbursed")):
        if not given:
            raise Refused("the county must certify this condition to obtain grant funding", field=field,
                          citation=fy.cite(cite))
    on = on or timezone.localdate()
    checked = check_records(jurisdiction=jurisdiction, on=on, fy=fy)
    _refuse_unmet(checked)
    existing = CountyCertification.objects.select_for_update().filter(jurisdiction=jurisdiction, fiscal_year=fy.label).first()
    values = dict(checked=checked, certified_by=user, official_name=name, official_title=title,
                  certifies_eligibility_and_costs=True, certifies_installed_and_maintained=True,
                  certifies_disbursed_to_eligible=True, certified_at=timezone.now())
    if existing:
        if existing.participations.exists():
            raise Refused(f"{jurisdiction.name} already applied for participation for {fy.label} on this certification",
                          field="fiscal_year", citation=fy.cite("application"))
        before = snapshot(existing)
        for k, v in values.items():
            setattr(existing, k, v)
        existing.save()
        audit_update(existing, before=before, action=f"conditions re-certified for fiscal year {fy.label} by {name}, {title}")
        return existing
    cert = CountyCertification.objects.create(jurisdiction=jurisdiction, fiscal_year=fy.label, **values)
    audit_create(cert, action=f"conditions certified for fiscal year {fy.label} by {name}, {title}")
    return cert


def eligible_applications(*, jurisdiction, fiscal_year: str):
    """The county's owner applications for the fiscal year that the law engine found eligible."""
    from powts.grants.choices import ApplicationStatus

    return GrantApplication.objects.filter(jurisdiction=jurisdiction, fiscal_year=fiscal_year,
                                           status=ApplicationStatus.ELIGIBLE)


@transaction.atomic
def submit(*, jurisdiction, fiscal_year: str, user, received_on: dt.date | None = None) -> ParticipationApplication:
    """The county's application for participation with its eligible applications, received on `received_on`."""
    fy = fiscal.parse(fiscal_year)
    _county_staff(user, jurisdiction, "apply for participation", fy, "application")
    received_on = received_on or timezone.localdate()
    if received_on >= fy.deadline:
        raise Refused(f"an application for participation for fiscal year {fy.label} must be received before "
                      f"{fy.deadline:%B} {fy.deadline.day}, {fy.deadline.year}; it was received on "
                      f"{received_on.isoformat()}", field="received_on", citation=fy.deadline_citation)
    cert = CountyCertification.objects.filter(jurisdiction=jurisdiction, fiscal_year=fy.label).first()
    if cert is None:
        raise Refused(f"{jurisdiction.name} has not certified its conditions for fiscal year {fy.label}",
                      field="certification", citation=fy.cite("conditions"))
    _refuse_unmet(check_records(jurisdiction=jurisdiction, on=received_on, fy=fy))
    if ParticipationApplication.objects.filter(jurisdiction=jurisdiction, fiscal_year=fy.label).exists():
        raise Refused(f"{jurisdiction.name} already applied for participation for fiscal year {fy.label}",
                      field="fiscal_year", citation=fy.cite("application"))
    app_ids = list(eligible_applications(jurisdiction=jurisdiction, fiscal_year=fy.label)
                   .order_by("id").values_list("id", flat=True))
    if not app_ids:
        raise Refused(f"{jurisdiction.name} has no eligible owner applications for fiscal year {fy.label} to apply with",
                      field="applications", citation=fy.cite("application"))
    part = ParticipationApplication.objects.create(jurisdiction=jurisdiction, fiscal_year=fy.label,
                                                   received_on=received_on, certification=cert, submitted_by=user,
                                                   submitted_at=timezone.now())
    insert_rows(ParticipationItem, ["participation_id", "application_id", "included", "revised_reason"],
                [(part.pk, a, True, "") for a in app_ids])
    audit_create(part, action=f"application for participation for {fy.label} received on {received_on.isoformat()} "
                              f"with {len(app_ids)} eligible applications")
    return part


def _department(user, fy) -> None:
    if not may.can_review(user):
        raise Refused("only the department (DSPS) reviews applications for participation", field="user",
                      citation=fy.cite("review"))


@transaction.atomic
def review(*, participation: ParticipationApplication, user, meets_conditions: bool, reason: str = "") -> ParticipationApplication:
    """(13)(a): the department determines whether the county meets the conditions of (8)."""
    fy = fiscal.parse(participation.fiscal_year)
    _department(user, fy)
    participation = ParticipationApplication.objects.select_for_update().get(pk=participation.pk)
    if participation.status != ParticipationStatus.RECEIVED:
        raise Refused(f"this application was already reviewed ({participation.get_status_display().lower()})",
                      field="status", citation=fy.cite("review"))
    reason = (reason or "").strip()
    if not meets_conditions and not reason:
        raise Refused("say which condition the county does not meet", field="reason", citation=fy.cite("conditions"))
    before = snapshot(participation)
    participation.status = ParticipationStatus.APPROVED if meets_conditions else ParticipationStatus.REFUSED
    participation.reviewed_by, participation.reviewed_at, participation.review_reason = user, timezone.now(), reason
    participation.save()
    audit_update(participation, before=before, action=("conditions met: application for participation approved"
                                                       if meets_conditions else f"conditions not met: {reason}"))
    return participation


@transaction.atomic
def revise_county(*, participation: ParticipationApplication, user, reason: str) -> ParticipationApplication:
    """(11)(a): the department revises its determination when the county does not meet a condition of (8)."""
    fy = fiscal.parse(participation.fiscal_year)
    _department(user, fy)
    participation = ParticipationApplication.objects.select_for_update().get(pk=participation.pk)
    reason = (reason or "").strip()
    if not reason:
        raise Refused("say which condition the county does not meet", field="reason", citation=fy.cite("determination"))
    if participation.status not in PARTICIPATING:
        raise Refused(f"this application is {participation.get_status_display().lower()}, not participating",
                      field="status", citation=fy.cite("determination"))
    before = snapshot(participation)
    participation.status = ParticipationStatus.REVISED
    participation.reviewed_by, participation.reviewed_at, participation.review_reason = user, timezone.now(), reason
    participation.save()
    audit_update(participation, before=before, action=f"determination revised, county does not meet a condition: {reason}")
    return participation


@transaction.atomic
def revise_item(*, item: ParticipationItem, user, reason: str) -> ParticipationItem:
    """(11)(a): the department takes out an owner application that does not meet the eligibility tests of (3)."""
    fy = fiscal.parse(item.participation.fiscal_year)
    _department(user, fy)
    item = ParticipationItem.objects.select_for_update().get(pk=item.pk)
    reason = (reason or "").strip()
    if not reason:
        raise Refused("say which eligibility requirement the owner does not meet", field="reason",
                      citation=fy.cite("determination"))
    if not item.included:
        raise Refused("this application was already taken out", field="status", citation=fy.cite("determination"))
    before = snapshot(item)
    item.included, item.revised_reason, item.revised_by, item.revised_at = False, reason, user, timezone.now()
    item.save()
    audit_update(item, before=before, action=f"application {item.application_id} taken out of the allocation: {reason}")
    return item
