"""Every write of the oversight app: keyword-only, one transaction each, every change audited.

Program audits, holds and exemptions are the department's (DSPS); the county answers an audit; county
staff flag reports, refer licence holders and record special charges (powts.oversight.policies says who).
"""
from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal

from django.db import IntegrityError, transaction

from powts.audit.context import current
from powts.audit.services import audit_create, audit_update, snapshot
from powts.core import fields
from powts.core.prepared import Prepared
from powts.oversight import choices as c
from powts.oversight import sampling
from powts.oversight.errors import OversightRefused
from powts.oversight.models import (
    ApprovalCategory,
    Assessment,
    DepartmentApproval,
    Exemption,
    IssuanceHold,
    ProgramAudit,
    Referral,
    ReportFlag,
    SampledPermit,
)
from powts.oversight.profile import oversight_profile


def _actor():
    actor = current().resolved_actor()
    return actor if getattr(actor, "pk", None) else None


def _refuse(message: str, field: str | None = None, citation: str = ""):
    raise OversightRefused(message, field=field, citation=citation)


def _profile(jurisdiction):
    return oversight_profile(jurisdiction.profile_slug)


def _words(field: str, raw, *, max_length: int = 4000, required: bool = True) -> str:
    return fields.text(field, raw, max_length=max_length, required=required)


# -- program audits (s. 145.20(3)(b)) ----------------------------------------------------------------

def permits_in_period(jurisdiction, start: dt.date, end: dt.date) -> list[int]:
    from powts.permits.models import Permit

    return list(Permit.objects.filter(jurisdiction=jurisdiction, issued_on__gte=start, issued_on__lte=end)
                .values_list("pk", flat=True))


def check_draw(*, period_start: dt.date, period_end: dt.date, on: dt.date, seed: int | None) -> None:
    """What any seeded draw over a period refuses (the department's audit sample, a county's random inspection)."""
    if period_end < period_start:
        _refuse(f"period_end {period_end.isoformat()} is before period_start {period_start.isoformat()}", "period_end")
    if period_start > on:
        _refuse(f"period_start {period_start.isoformat()} is after today's date {on.isoformat()}", "period_start")
    if seed is not None and not (0 <= seed < 2 ** 62):
        _refuse("seed must be a whole number from 0 to 2^62", "seed")


@transaction.atomic
def audit_draw_sample(*, jurisdiction, period_start: dt.date, period_end: dt.date, on: dt.date,
                      seed: int | None = None) -> ProgramAudit:
    """Open a review of the county's program with a random sample of the permits it issued in the period."""
    profile = _profile(jurisdiction)
    cite = profile.citations["audit"]
    check_draw(period_start=period_start, period_end=period_end, on=on, seed=seed)
    ids = permits_in_period(jurisdiction, period_start, period_end)
    if not ids:
        _refuse(f"{jurisdiction.name} issued no sanitary permit from {period_start.isoformat()} to "
                f"{period_end.isoformat()}: there is nothing to sample; choose a period with issued permits",
                "period_start", cite)
    seed = sampling.new_seed() if seed is None else seed
    audit = ProgramAudit.objects.create(jurisdiction=jurisdiction, period_start=period_start, period_end=period_end,
                                        seed=seed, sample_size=profile.sample_size, size_citation=cite, started_on=on,
                                        reviewer=_actor())
    audit_create(audit, action=f"program review of {jurisdiction.name}: random audit of sanitary permits [{cite}]")
    for position, pk in enumerate(sampling.draw(ids, seed=seed, size=profile.sample_size), start=1):
        sample = SampledPermit.objects.create(audit=audit, permit_id=pk, position=position)
        audit_create(sample, action=f"permit drawn for the random audit {audit.pk}")
    return audit


def _open(audit: ProgramAudit) -> ProgramAudit:
    audit = ProgramAudit.objects.select_for_update().select_related("jurisdiction").get(pk=audit.pk)
    if audit.status == c.AuditStatus.CLOSED:
        _refuse(f"program audit {audit.pk} was closed on {audit.closed_on.isoformat()}", "status")
    return audit


@transaction.atomic
def sample_verify(*, sample: SampledPermit, outcome: str, verified_on: dt.date, findings: str = "") -> SampledPermit:
    """The on-site verification of one sampled permit and what it found."""
    _open(sample.audit)
    sample = SampledPermit.objects.select_for_update().select_related("permit").get(pk=sample.pk)
    if outcome not in (c.SampleOutcome.SATISFACTORY, c.SampleOutcome.DEFICIENT):
        _refuse(f"outcome {outcome!r} is not one of satisfactory, deficient", "outcome")
    findings = _words("findings", findings, required=outcome == c.SampleOutcome.DEFICIENT)
    if sample.permit.issued_on and verified_on < sample.permit.issued_on:
        _refuse(f"verified_on {verified_on.isoformat()} is before the permit was issued "
                f"({sample.permit.issued_on.isoformat()})", "verified_on")
    before = snapshot(sample, ["outcome", "verified_on", "findings"])
    sample.outcome, sample.verified_on, sample.findings = outcome, verified_on, findings
    sample.save()
    audit_update(sample, before=before, action=f"on-site verification of {sample.permit.number}: {outcome}")
    return sample


@transaction.atomic
def audit_request_response(*, audit: ProgramAudit, on: dt.date, request_text: str,
                           respond_by: dt.date | None = None) -> ProgramAudit:
    """Ask the county to answer the findings, once every sampled permit is verified."""
    audit = _open(audit)
    pending = audit.samples.filter(outcome=c.SampleOutcome.PENDING).count()
    if pending:
        _refuse(f"{pending} sampled permit(s) are not yet verified on site", "status")
    text = _words("request_text", request_text)
    respond_by = respond_by or on + dt.timedelta(days=_profile(audit.jurisdiction).respond_within_days)
    if respond_by < on:
        _refuse(f"respond_by {respond_by.isoformat()} is before the request ({on.isoformat()})", "respond_by")
    before = snapshot(audit, ["status", "request_text", "requested_on", "respond_by"])
    audit.status, audit.request_text, audit.requested_on, audit.respond_by = (
        c.AuditStatus.RESPONSE_REQUESTED, text, on, respond_by)
    audit.save()
    audit_update(audit, before=before, action="county response requested")
    return audit


@transaction.atomic
def audit_respond(*, audit: ProgramAudit, on: dt.date, response_text: str) -> ProgramAudit:
    """The county's answer to the department's findings."""
    audit = _open(audit)
    if audit.status not in (c.AuditStatus.RESPONSE_REQUESTED, c.AuditStatus.RESPONDED):
        _refuse("the department has not asked for a response to this audit yet", "status")
    text = _words("response_text", response_text)
    if on < audit.requested_on:
        _refuse(f"the response date {on.isoformat()} is before the request ({audit.requested_on.isoformat()})", "on")
    before = snapshot(audit, ["status", "response_text", "responded_on", "responded_by_id"])
    audit.status, audit.response_text, audit.responded_on, audit.responded_by = c.AuditStatus.RESPONDED, text, on, _actor()
    audit.save()
    audit_update(audit, before=before, action="county responded to the program audit")
    return audit


@transaction.atomic
def audit_close(*, audit: ProgramAudit, on: dt.date, note: str) -> ProgramAudit:
    """Close the audit: deficient findings need the county's response first."""
    audit = _open(audit)
    if audit.samples.filter(outcome=c.SampleOutcome.PENDING).exists():
        _refuse("sampled permits are not yet verified on site", "status")
    deficient = audit.samples.filter(outcome=c.SampleOutcome.DEFICIENT).exists()
    if deficient and audit.status != c.AuditStatus.RESPONDED:
        _refuse("the audit found deficiencies: the county's response comes before closing", "status")
    note = _words("note", note)
    before = snapshot(audit, ["status", "closed_on", "closing_note"])
    audit.status, audit.closed_on, audit.closing_note = c.AuditStatus.CLOSED, on, note
    audit.save()
    audit_update(audit, before=before, action="program audit closed")
    return audit


# -- the hold on issuance and exemptions (s. 145.20(3)(a)2., (c)) ------------------------------------------

# compiled once (powts.core.prepared): read on every dashboard and permit page; first() in the model's order
_holds_standing = Prepared(lambda unit_id: IssuanceHold.objects.filter(jurisdiction_id=unit_id, lifted_on__isnull=True)[:1])


def standing_hold(jurisdiction_id) -> IssuanceHold | None:
    return next(iter(_holds_standing(jurisdiction_id)), None)


@transaction.atomic
def hold_place(*, jurisdiction, on: dt.date, reason: str, audit: ProgramAudit | None = None) -> IssuanceHold:
    """The department holds the county's permit issuance until it lifts the hold."""
    reason = _words("reason", reason, max_length=2000)
    if audit is not None and audit.jurisdiction_id != jurisdiction.pk:
        _refuse("that audit is of another county", "audit")
    if standing_hold(jurisdiction.pk) is not None:
        _refuse(f"{jurisdiction.name}'s permit issuance is already on hold", "jurisdiction")
    try:
        with transaction.atomic():
            hold = IssuanceHold.objects.create(jurisdiction=jurisdiction, audit=audit, reason=reason, placed_on=on,
                                               placed_by=_actor(), citation=_profile(jurisdiction).citations["hold"])
    except IntegrityError:  # two holds placed at once: the other one stands
        _refuse(f"{jurisdiction.name}'s permit issuance is already on hold", "jurisdiction")
    audit_create(hold, action=f"permit issuance of {jurisdiction.name} held by the department")
    return hold


@transaction.atomic
def hold_lift(*, hold: IssuanceHold, on: dt.date, note: str) -> IssuanceHold:
    hold = IssuanceHold.objects.select_for_update().get(pk=hold.pk)
    if hold.lifted_on:
        _refuse(f"this hold was lifted on {hold.lifted_on.isoformat()}", "status")
    if on < hold.placed_on:
        _refuse(f"the lifting date {on.isoformat()} is before the hold ({hold.placed_on.isoformat()})", "on")
    before = snapshot(hold, ["lifted_on", "lifted_by_id", "lift_note"])
    hold.lifted_on, hold.lifted_by, hold.lift_note = on, _actor(), _words("note", note, max_length=2000)
    hold.save()
    audit_update(hold, before=before, action="hold on permit issuance lifted")
    return hold


def on_permit_issuing(*, permit, on) -> None:
    """News subscriber: no permit issues while the department holds the county's issuance (whatever date the
    issuance is given: a hold standing now stops a back-dated issuance too), nor, in a category needing the
    department's approval, before that approval (unless the county is exempt from the category)."""
    hold = standing_hold(permit.jurisdiction_id)
    if hold is not None:
        raise OversightRefused(f"the department has held {permit.jurisdiction.name}'s permit issuance since "
                               f"{hold.placed_on.isoformat()}: {hold.reason}", field="status", citation=hold.citation)
    waiting = approvals_missing(permit, on)
    if waiting:
        names = ", ".join(c_.name for c_ in waiting)
        raise OversightRefused(f"permit {permit.number} is in a category the department approves before the county "
                               f"issues it ({names}); the department's approval is not yet recorded",
                               field="status", citation=waiting[0].citation)


# -- categories needing the department's approval (s. 145.20(3)(a)1.) ---------------------------------------

CATEGORY_CITATION = "Wis. Stat. s. 145.20(3)(a)1."


def _exempt_from(jurisdiction_id, category: ApprovalCategory, on: dt.date) -> bool:
    """An exemption of the county from the category (s. 145.20(3)(a)2.), granted by `on` and not revoked by it."""
    return (Exemption.objects.filter(jurisdiction_id=jurisdiction_id, category__iexact=category.name, granted_on__lte=on)
            .exclude(revoked_on__lte=on).exists())


def approvals_missing(permit, on: dt.date) -> list[ApprovalCategory]:
    """The categories in force on `on` that cover the permit, the county is not exempt from, and have no approval."""
    live = ApprovalCategory.objects.filter(specified_on__lte=on).exclude(withdrawn_on__lte=on)
    approved = set(DepartmentApproval.objects.filter(permit=permit, approved_on__lte=on).values_list("category_id", flat=True))
    return [cat for cat in live if cat.covers(permit) and cat.pk not in approved
            and not _exempt_from(permit.jurisdiction_id, cat, on)]


@transaction.atomic
def category_specify(*, name: str, system_types, above_gpd, on: dt.date) -> ApprovalCategory:
    """The department specifies a category needing its approval before a county issues the permit."""
    from powts.permits.choices import InspectionSystem

    name = _words("name", name, max_length=200)
    types = [str(t).strip() for t in (system_types or []) if str(t).strip()]
    bad = [t for t in types if t not in InspectionSystem.values]
    if bad:
        _refuse(f"system_types: {', '.join(bad)} not one of {', '.join(InspectionSystem.values)}", "system_types", CATEGORY_CITATION)
    gpd = None if fields.blank(above_gpd) else fields.integer("above_gpd", above_gpd, minimum=0, maximum=10**7)
    if not types and gpd is None:
        _refuse("a category names the system types it covers, a design flow, or both", "system_types", CATEGORY_CITATION)
    if ApprovalCategory.objects.filter(name__iexact=name).exists():
        _refuse(f"a category named {name!r} is already specified", "name", CATEGORY_CITATION)
    category = ApprovalCategory.objects.create(name=name, system_types=types, above_gpd=gpd, citation=CATEGORY_CITATION,
                                               specified_on=on, specified_by=_actor())
    audit_create(category, action=f"category needing the department's approval specified: {name}")
    return category


@transaction.atomic
def department_approve(*, permit, category: ApprovalCategory, on: dt.date, reference: str = "") -> DepartmentApproval:
    """The department's approval of a permit in a category, before the county issues it."""
    from powts.permits import choices as pc

    if not category.covers(permit):
        _refuse(f"permit {permit.number} is not in the category {category.name}", "category", CATEGORY_CITATION)
    if category.withdrawn_on and category.withdrawn_on <= on:
        _refuse(f"the category {category.name} was withdrawn on {category.withdrawn_on.isoformat()}", "category", CATEGORY_CITATION)
    if permit.status not in (pc.PermitStatus.APPLIED, pc.PermitStatus.HELD, pc.PermitStatus.APPROVED):
        _refuse(f"permit {permit.number} is {permit.get_status_display().lower()}: the approval comes before issuance",
                "permit", CATEGORY_CITATION)
    if DepartmentApproval.objects.filter(category=category, permit=permit).exists():
        _refuse(f"permit {permit.number} already has the department's approval for {category.name}", "permit", CATEGORY_CITATION)
    approval = DepartmentApproval.objects.create(category=category, permit=permit, approved_on=on, approved_by=_actor(),
                                                 reference=fields.text("reference", reference, max_length=100) or "")
    audit_create(approval, action=f"department approval of permit {permit.number} recorded ({category.name}; {CATEGORY_CITATION})")
    return approval


@transaction.atomic
def exemption_grant(*, jurisdiction, category: str, grounds: str, on: dt.date) -> Exemption:
    """An exemption from a category needing the department's approval, with its grounds (past performance on
    reviews and audits, the capacity to review)."""
    exemption = Exemption.objects.create(jurisdiction=jurisdiction, category=_words("category", category, max_length=200),
                                         grounds=_words("grounds", grounds), granted_on=on, granted_by=_actor(),
                                         citation=_profile(jurisdiction).citations["exemption"])
    audit_create(exemption, action=f"exemption granted to {jurisdiction.name}")
    return exemption


@transaction.atomic
def exemption_hearing_notice(*, exemption: Exemption, noticed_on: dt.date, hearing_on: dt.date, clerk: str) -> Exemption:
    """Notice to the governmental unit's clerk of the public hearing on revoking its exemption; the hearing is
    at least the profile's days (30) after the notice."""
    exemption = Exemption.objects.select_for_update().get(pk=exemption.pk)
    prof = _profile(exemption.jurisdiction)
    cite, days = prof.revocation_citation, prof.revocation_notice_days
    if exemption.revoked_on:
        _refuse(f"this exemption was revoked on {exemption.revoked_on.isoformat()}", "status", cite)
    if noticed_on < exemption.granted_on:
        _refuse(f"noticed_on {noticed_on.isoformat()} is before the exemption was granted "
                f"({exemption.granted_on.isoformat()})", "noticed_on", cite)
    earliest = noticed_on + dt.timedelta(days=days)
    if hearing_on < earliest:
        _refuse(f"the hearing must be at least {days} days after the notice to the clerk: {earliest.isoformat()} "
                f"or later, not {hearing_on.isoformat()}", "hearing_on", cite)
    before = snapshot(exemption, ["hearing_noticed_on", "hearing_on", "hearing_clerk"])
    exemption.hearing_noticed_on, exemption.hearing_on = noticed_on, hearing_on
    exemption.hearing_clerk = _words("clerk", clerk, max_length=200)
    exemption.save()
    audit_update(exemption, before=before, action=f"revocation hearing on {hearing_on.isoformat()} noticed to the clerk")
    return exemption


@transaction.atomic
def exemption_revoke(*, exemption: Exemption, on: dt.date, grounds: str) -> Exemption:
    """Revoke after the public hearing (s. 145.20(3)(a)2.): refused before a hearing noticed 30 days ahead is held."""
    exemption = Exemption.objects.select_for_update().get(pk=exemption.pk)
    prof = _profile(exemption.jurisdiction)
    cite = prof.revocation_citation
    if exemption.revoked_on:
        _refuse(f"this exemption was revoked on {exemption.revoked_on.isoformat()}", "status")
    if not exemption.hearing_on or not exemption.hearing_noticed_on:
        _refuse("a revocation's findings come only after a public hearing noticed to the unit's clerk "
                f"{prof.revocation_notice_days} days ahead: record the notice and the hearing first", "status", cite)
    if on < exemption.hearing_on:
        _refuse(f"the hearing is on {exemption.hearing_on.isoformat()}; the exemption can be revoked on that day "
                f"or later, not {on.isoformat()}", "on", cite)
    before = snapshot(exemption, ["revoked_on", "revocation_grounds"])
    exemption.revoked_on, exemption.revocation_grounds = on, _words("grounds", grounds)
    exemption.save()
    audit_update(exemption, before=before, action="exemption revoked")
    return exemption


# -- falsified or erroneous reports (s. 145.20(5)(c) and the county's referral rule) ----------------------

def _evidence(items) -> list[dict]:
    out = []
    for i, item in enumerate(items or []):
        what = item.get("what") if isinstance(item, dict) else item
        what = fields.text(f"evidence[{i}]", what, max_length=1000)
        if what:
            out.append({"what": what, **({"on": str(item["on"])} if isinstance(item, dict) and item.get("on") else {})})
    return out


@transaction.atomic
def report_flag(*, report, reason: str, evidence: list, on: dt.date) -> ReportFlag:
    """Staff flag a report as falsified or in error, with what shows it."""
    flag = ReportFlag.objects.create(jurisdiction_id=report.jurisdiction_id, report=report, kind=c.FlagKind.STAFF,
                                     reason=_words("reason", reason, max_length=2000), evidence=_evidence(evidence),
                                     flagged_on=on, flagged_by=_actor())
    audit_create(flag, action=f"report flagged: {flag.reason}")
    return flag


@transaction.atomic
def application_flag(*, permit, license, reason: str, evidence: list, on: dt.date) -> ReportFlag:
    """Staff flag an error found on a sanitary permit application (a county ordinance, cited in the profile: "report errors found to the state
    agency in charge of licensing the person making the error"), naming the licence of the person who made it: the
    application's plumber or its soil tester. Refused where the county's ordinance has no such rule."""
    cite = _profile(permit.jurisdiction).application_errors_citation
    if not cite:
        _refuse(f"{permit.jurisdiction.name}'s ordinance does not provide for reporting errors on permit applications; "
                "flag the maintenance report instead", "permit")
    makers = {permit.plumber_id: "plumber"}
    if permit.soil_evaluation_id and permit.soil_evaluation.soil_tester_id:
        makers[permit.soil_evaluation.soil_tester_id] = "soil tester"
    if license is None or license.pk not in makers:
        _refuse(f"name the licence of the person who made the error: the application's plumber"
                f"{' or soil tester' if len(makers) > 1 else ''}", "license", cite)
    items = _evidence(evidence)
    if not items:
        _refuse("record what shows the error (the application's entry and what was found)", "evidence", cite)
    flag = ReportFlag.objects.create(jurisdiction_id=permit.jurisdiction_id, permit=permit, license=license,
                                     kind=c.FlagKind.STAFF, reason=_words("reason", reason, max_length=2000),
                                     evidence=items, flagged_on=on, flagged_by=_actor())
    audit_create(flag, action=f"permit application {permit.number} flagged ({makers[license.pk]} {license.number}): "
                              f"{flag.reason} ({cite})")
    return flag


@transaction.atomic
def flag_add_evidence(*, flag: ReportFlag, what: str, on: dt.date) -> ReportFlag:
    flag = ReportFlag.objects.select_for_update().get(pk=flag.pk)
    before = snapshot(flag, ["evidence"])
    flag.evidence = [*flag.evidence, {"what": _words("what", what, max_length=1000), "on": on.isoformat()}]
    flag.save(update_fields=["evidence"])
    audit_update(flag, before=before, action="evidence added to a flagged report")
    return flag


@transaction.atomic
def flag_dismiss(*, flag: ReportFlag, note: str) -> ReportFlag:
    flag = ReportFlag.objects.select_for_update().get(pk=flag.pk)
    if flag.status != c.FlagStatus.OPEN:
        _refuse(f"this flag is {flag.get_status_display().lower()}", "status")
    before = snapshot(flag, ["status", "evidence"])
    flag.status = c.FlagStatus.DISMISSED
    flag.evidence = [*flag.evidence, {"what": "dismissed: " + _words("note", note, max_length=1000)}]
    flag.save(update_fields=["status", "evidence"])
    audit_update(flag, before=before, action="flag dismissed")
    return flag


def _miles(a, b) -> float | None:
    """Great-circle miles between two licences' bases, or None where either is unknown."""
    if None in (a.latitude, a.longitude, b.latitude, b.longitude):
        return None
    la1, lo1, la2, lo2 = (math.radians(float(x)) for x in (a.latitude, a.longitude, b.latitude, b.longitude))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 3958.8 * 2 * math.asin(math.sqrt(h))


@transaction.atomic
def flags_detect(*, jurisdiction, on: dt.date) -> list[ReportFlag]:
    """Flag what the county's reports show by themselves; a report flagged for a reason is not flagged again."""
    from powts.oversight.detection import findings

    made = []
    # The flags powts already made in the county, read once (not one query a finding).
    flagged = set(ReportFlag.objects.filter(jurisdiction=jurisdiction, report__isnull=False).exclude(kind=c.FlagKind.STAFF)
                  .values_list("report_id", "kind"))
    for report, kind, reason, evidence in findings(jurisdiction, _profile(jurisdiction)):
        if (report.pk, kind) in flagged:
            continue
        flagged.add((report.pk, kind))
        flag = ReportFlag.objects.create(jurisdiction=jurisdiction, report=report, kind=kind, reason=reason,
                                         evidence=evidence, flagged_on=on)
        audit_create(flag, action=f"report flagged by powts: {reason}")
        made.append(flag)
    return made


@transaction.atomic
def referral_make(*, license, flags: list[ReportFlag], on: dt.date, note: str = "") -> Referral:
    """Refer the licence holder to the agency that licenses them, with the flagged reports as evidence."""
    if not flags:
        _refuse("a referral needs at least one flagged report as evidence", "flags")
    jurisdictions = {f.jurisdiction_id for f in flags}
    if len(jurisdictions) != 1:
        _refuse("the flagged reports are of more than one county", "flags")
    for flag in flags:
        if flag.licence_id_at_fault != license.pk:
            _refuse(f"{flag.subject} is another licence holder's", "flags")
        if flag.status == c.FlagStatus.DISMISSED:
            _refuse(f"the flag on {flag.subject} was dismissed", "flags")
        if not flag.evidence:
            _refuse(f"the flag on {flag.subject} records no evidence: add what shows the error first", "flags")
    jurisdiction = flags[0].jurisdiction
    profile = _profile(jurisdiction)
    citation = profile.citations["referral"]
    if any(f.permit_id for f in flags) and profile.application_errors_citation not in citation:
        citation = f"{profile.application_errors_citation}; {citation}"
    agency = profile.agencies.get(license.kind)
    if not agency:
        _refuse(f"no licensing agency is on record for {license.get_kind_display().lower()} licences", "license")
    referral = Referral.objects.create(jurisdiction=jurisdiction, license=license, agency=agency, referred_on=on,
                                       referred_by=_actor(), note=_words("note", note, required=False),
                                       citation=citation)
    referral.flags.set(flags)
    audit_create(referral, action=f"{license} referred to {agency} with {len(flags)} flagged record(s)")
    for flag in flags:
        before = snapshot(flag, ["status"])
        flag.status = c.FlagStatus.REFERRED
        flag.save(update_fields=["status"])
        audit_update(flag, before=before, action=f"flag referred ({referral})")
    return referral


@transaction.atomic
def referral_outcome(*, referral: Referral, outcome: str, on: dt.date, note: str = "") -> Referral:
    referral = Referral.objects.select_for_update().get(pk=referral.pk)
    if outcome not in c.ReferralOutcome.values or outcome == c.ReferralOutcome.PENDING:
        _refuse(f"outcome {outcome!r} is not one of " + ", ".join(v for v in c.ReferralOutcome.values if v != "pending"),
                "outcome")
    if on < referral.referred_on:
        _refuse(f"the outcome date {on.isoformat()} is before the referral ({referral.referred_on.isoformat()})", "on")
    before = snapshot(referral, ["outcome", "outcome_on", "outcome_note"])
    referral.outcome, referral.outcome_on, referral.outcome_note = outcome, on, _words("note", note, required=False)
    referral.save()
    audit_update(referral, before=before, action=f"agency's decision recorded: {referral.get_outcome_display()}")
    return referral


# -- pumping assessed as a special charge (s. 145.20(4)) ----------------------------------------------------

@transaction.atomic
def assessment_record(*, jurisdiction, parcel_number: str, order, cost, work_done_on: dt.date, work: str,
                      authority_kind: str, authority_name: str, on: dt.date, tax_year=None) -> Assessment:
    """The owner did not comply with the order; the county (or town) had the pumping done and assesses its cost."""
    from powts.inventory.models import Parcel
    from powts.permits.choices import OrderStatus

    profile = _profile(jurisdiction)
    cite = profile.citations["assessment"]
    number = fields.text("parcel_number", parcel_number, max_length=60, required=True)
    parcel = Parcel.objects.filter(jurisdiction=jurisdiction, parcel_number=number).select_related("owner").first()
    if parcel is None:
        _refuse(f"parcel {number} is not in {jurisdiction.name}'s inventory: a special charge goes on a parcel of "
                "the county", "parcel_number", cite)
    if order is None:
        _refuse("name the order the owner did not comply with", "order", cite)
    if order.jurisdiction_id != jurisdiction.pk or order.system.parcel_id != parcel.pk:
        _refuse(f"order {order.pk} is not for a system on parcel {number}", "order")
    if order.status == OrderStatus.CORRECTED:
        _refuse(f"order {order.pk} was complied with on {order.corrected_on}", "order")
    if work_done_on <= order.correct_by:
        _refuse(f"the work of {work_done_on.isoformat()} was done before the owner's time to comply ran out "
                f"({order.correct_by.isoformat()})", "work_done_on", cite)
    if work_done_on > on:
        _refuse(f"work_done_on {work_done_on.isoformat()} is after today's date {on.isoformat()}", "work_done_on")
    amount = fields.decimal("cost", cost, minimum=Decimal("0.01"), maximum=Decimal("99999999.99"), places=2, required=True)
    if authority_kind not in profile.authorities:
        _refuse(f"authority_kind {authority_kind!r} is not one of {', '.join(profile.authorities)}", "authority_kind", cite)
    name = _words("authority_name", authority_name or (jurisdiction.name if authority_kind == "county" else ""), max_length=200)
    year = fields.integer("tax_year", tax_year if tax_year not in (None, "") else on.year, minimum=on.year - 1,
                          maximum=on.year + 1)
    assessment = Assessment.objects.create(
        jurisdiction=jurisdiction, parcel=parcel, system=order.system, order=order, authority_kind=authority_kind,
        authority_name=name, work_done_on=work_done_on, work=_words("work", work, max_length=300), cost=amount,
        assessed_on=on, tax_year=year, citation=cite)
    audit_create(assessment, action=f"special charge of ${amount} on parcel {number} by {name} [{cite}]")
    return assessment


# -- conflicts of interest (the county's recusal policy): the supervisor reassigns ---------------------------

@transaction.atomic
def conflict_reassign(*, inspection, to_user, reason: str):
    """A county administrator gives an inspection to a colleague (the check refuses a colleague who is also
    conflicted); the reason is audited."""
    from powts.accounts.policies import is_county_staff_of
    from powts.permits.services import inspection_assign

    if not is_county_staff_of(to_user, inspection.permit.jurisdiction_id) or to_user.is_superuser:
        _refuse(f"{to_user.username} is not on {inspection.permit.jurisdiction.name}'s staff", "to_user")
    reason = _words("reason", reason, max_length=300)
    inspection = inspection_assign(inspection=inspection, inspector=to_user)
    from powts.audit.services import build_event

    build_event(inspection, action=f"reassigned to {to_user.username}: {reason}", verb="update",
                changes={"inspector_id": [None, to_user.pk]}).save()
    return inspection
