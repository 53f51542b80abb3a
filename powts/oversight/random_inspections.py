"""Services (writes) of a county's random inspection of sanitary permit applications, where its ordinance provides for
it (the citation and the county's share and frequency are in its oversight profile, `application_inspections`).

Drawn like the department's audit sample of permits (powts.oversight.sampling: seeded, reproducible), recorded with
its seed; each drawn application's inspection is recorded, and an error found is flagged against the licence of the
person who made it (services.application_flag), from where it is referred to the licensing agency. Keyword-only, one
transaction each, every change audited; a refusal changes nothing.
"""
from __future__ import annotations

import datetime as dt

from django.db import transaction

from powts.audit.services import audit_create, audit_update, snapshot
from powts.core import fields
from powts.oversight import choices as c
from powts.oversight import sampling, services
from powts.oversight.errors import OversightRefused
from powts.oversight.models import ApplicationSample, SampledApplication
from powts.oversight.profile import oversight_profile


def rule_of(jurisdiction):
    """The county's rule (ApplicationInspections), or None where its ordinance has no such provision."""
    return oversight_profile(jurisdiction.profile_slug).application_inspections


def no_provision(jurisdiction) -> str:
    return f"{jurisdiction.name}'s ordinance has no provision for random inspections of permit applications"


def applications_in_period(jurisdiction, start: dt.date, end: dt.date) -> list[int]:
    from powts.permits.models import Permit

    return list(Permit.objects.filter(jurisdiction=jurisdiction, filed_on__gte=start, filed_on__lte=end)
                .values_list("pk", flat=True))


@transaction.atomic
def draw(*, jurisdiction, period_start: dt.date, period_end: dt.date, on: dt.date, seed: int | None = None) -> ApplicationSample:
    """Draw the county's share of the applications filed from `period_start` through `period_end` (both days in)."""
    rule = rule_of(jurisdiction)
    if rule is None:
        raise OversightRefused(no_provision(jurisdiction), field="jurisdiction")
    cite = rule.citation
    services.check_draw(period_start=period_start, period_end=period_end, on=on, seed=seed)
    # A second draw over the same days could be repeated until it missed an application: one sample per day filed.
    overlap = ApplicationSample.objects.filter(jurisdiction=jurisdiction, period_start__lte=period_end,
                                               period_end__gte=period_start).order_by("period_start").first()
    if overlap is not None:
        raise OversightRefused(f"applications filed from {overlap.period_start.isoformat()} to "
                               f"{overlap.period_end.isoformat()} were already drawn (random inspection {overlap.pk}); "
                               "choose days not yet sampled", field="period_start", citation=cite)
    ids = applications_in_period(jurisdiction, period_start, period_end)
    if not ids:
        raise OversightRefused(f"no sanitary permit application was filed with {jurisdiction.name} from "
                               f"{period_start.isoformat()} to {period_end.isoformat()}: there is nothing to inspect; "
                               "choose a period with applications", field="period_start", citation=cite)
    seed = sampling.new_seed() if seed is None else seed
    size = rule.size(len(ids))
    sample = ApplicationSample.objects.create(
        jurisdiction=jurisdiction, period_start=period_start, period_end=period_end, seed=seed, population=len(ids),
        share_percent=rule.share_percent, sample_size=size, citation=cite, drawn_on=on, drawn_by=services._actor())
    audit_create(sample, action=f"random inspection of {jurisdiction.name}'s permit applications: {size} of {len(ids)} "
                                f"drawn, seed {seed} [{cite}]")
    for position, pk in enumerate(sampling.draw(ids, seed=seed, size=size), start=1):
        item = SampledApplication.objects.create(sample=sample, permit_id=pk, position=position)
        audit_create(item, action=f"application drawn for random inspection {sample.pk}")
    return sample


@transaction.atomic
def inspect(*, item: SampledApplication, outcome: str, inspected_on: dt.date, findings: str = "", by: str = "plumber",
            evidence=None) -> SampledApplication:
    """Record what the inspection of one drawn application found. "errors" needs the findings, who made the error
    (the application's plumber or its soil tester) and what shows it: the application is flagged against that
    licence, ready to refer. Recorded once."""
    # Only the row itself is locked: PostgreSQL refuses FOR UPDATE on the outer-joined soil evaluation.
    item = (SampledApplication.objects.select_for_update(of=("self",))
            .select_related("sample__jurisdiction", "permit__soil_evaluation__soil_tester", "permit__plumber").get(pk=item.pk))
    permit, cite = item.permit, item.sample.citation
    if item.outcome != c.ApplicationCheck.PENDING:
        raise OversightRefused(f"application {permit.number} was inspected on {item.inspected_on.isoformat()}",
                               field="outcome")
    if outcome not in (c.ApplicationCheck.CORRECT, c.ApplicationCheck.ERRORS):
        raise OversightRefused(f"outcome {outcome!r} is not one of correct, errors", field="outcome")
    if inspected_on < item.sample.drawn_on:
        raise OversightRefused(f"inspected_on {inspected_on.isoformat()} is before the sample was drawn "
                               f"({item.sample.drawn_on.isoformat()})", field="inspected_on")
    findings = fields.text("findings", findings, max_length=2000, required=outcome == c.ApplicationCheck.ERRORS)
    flag = None
    if outcome == c.ApplicationCheck.ERRORS:
        if by not in ("plumber", "soil_tester"):
            raise OversightRefused(f"by {by!r} is not one of plumber, soil_tester", field="by")
        license = permit.plumber if by == "plumber" else (
            permit.soil_evaluation.soil_tester if permit.soil_evaluation_id else None)
        if license is None:
            raise OversightRefused(f"application {permit.number} names no {by.replace('_', ' ')}", field="by", citation=cite)
        items = [f"random inspection {item.sample_id} ({cite}): {findings}", *(evidence or [])]
        flag = services.application_flag(permit=permit, license=license, reason=findings, evidence=items, on=inspected_on)
    before = snapshot(item, ["outcome", "inspected_on", "inspected_by_id", "findings", "flag_id"])
    item.outcome, item.inspected_on, item.inspected_by, item.findings, item.flag = (
        outcome, inspected_on, services._actor(), findings, flag)
    item.save()
    audit_update(item, before=before, action=f"application {permit.number} inspected: {item.get_outcome_display().lower()}"
                                             + (f"; flagged ({cite})" if flag else ""))
    return item
