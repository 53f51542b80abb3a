"""Writes for well compensation claims (Wis. Stat. s. 281.75): receive, complete, decide, consolidate, pay.

Every rule is the law engine's (powts.law.wells): a claim is parsed by its `parse_claim` and decided by
its `decide_rows`; the order of payment is its `pay_in_order`. Here: what DNR has received and when,
which claims share a supply, and what each payment run paid. Every change is audited.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from powts.audit.models import AuditEvent
from powts.audit.services import audit_create, audit_update, build_event, snapshot
from powts.core.refusals import Refused
from powts.law import fields as LF
from powts.law import wells as law
from powts.law.engine import LawDateError, default_parameters
from powts.wells.choices import ClaimStatus, LineStatus, Missing
from powts.wells.models import WaterSupply, WellClaim, WellPaymentLine, WellPaymentRun

CONSOLIDATION = "Wis. Stat. s. 281.75(5)(e)"
COMPLETENESS = "Wis. Stat. s. 281.75(5)(c)"
ORDER = "Wis. Stat. s. 281.75(5)(f)"


class ClaimRefused(Refused):
    """A well claim or payment run refused (field, reason, citation)."""


# -- reading a claim -------------------------------------------------------------------------------

@dataclass
class Parsed:
    claim: law.WellClaim
    supply_id: str
    claimant_name: str = ""
    claimant_address: str = ""
    location: str = ""
    county: str = ""  # the county (profile slug) where the supply is: its documents are kept there
    affidavit_on: dt.date | None = None
    tax_returns_on: dt.date | None = None
    line: int | None = None
    extra: dict = field(default_factory=dict)


def _text(raw: dict, name: str, limit: int) -> str:
    value = raw.get(name)
    if LF.is_blank(value):
        return ""
    value = str(value).strip()
    if len(value) > limit:
        raise LF.FieldError(name, f"is longer than {limit} characters")
    return value


def parse(raw: dict[str, Any]) -> Parsed:
    """One row of the department's form: the fields of `powts rules evaluate well-compensation` (the law
    engine's parser) plus `supply_id`, `completed_on` and the optional dates items were received.
    A dug well is refused: it is not a "well" ((1)(h)), so no claim may be submitted for it ((3)(a))."""
    supply_id = _text(raw, "supply_id", 60)
    if not supply_id:
        raise LF.FieldError("supply_id", "is required (the water supply the claim is about)")
    claim = law.parse_claim(raw)
    if len(claim.id) > 60:
        raise LF.FieldError("id", "is longer than 60 characters")
    try:
        snap = default_parameters().snapshot(law.PROGRAM, claim.claimed_on)
    except LawDateError as e:
        raise ClaimRefused(f"claimed_on {claim.claimed_on.isoformat()}: {e}", field="claimed_on") from None
    if claim.well_kind not in snap["well_kinds"]:
        raise ClaimRefused(f"a {claim.well_kind} well is not a well under the law (\"Well\" does not include dug "
                           "wells), so no claim may be submitted for it", field="well_kind",
                           citation=f"{snap.cite('well_kinds')}, (3)(a)")
    received = {}
    for name in ("affidavit_on", "tax_returns_on"):
        received[name] = LF.parse_date(name, raw.get(name), required=False)
        if received[name] and received[name] < claim.claimed_on - dt.timedelta(days=366):
            raise LF.FieldError(name, f"{received[name].isoformat()} is more than a year before the claim")
    return Parsed(claim, supply_id, _text(raw, "claimant_name", 200), _text(raw, "claimant_address", 500),
                  _text(raw, "location", 200), _text(raw, "county", 60).lower(), received["affidavit_on"], received["tax_returns_on"])


def missing_items(claim: WellClaim) -> list[str]:
    """(5)(a)-(b), (4m)(c): what the department still needs before the claim is complete."""
    out = []
    if not claim.affidavit_on:
        out.append(Missing.AFFIDAVIT.value)
    if not claim.department_advisory and not claim.sample_dates:
        out.append(Missing.SAMPLES.value)
    if not claim.tax_returns_on:
        out.append(Missing.TAX_RETURNS.value)
    if sum(c for _, c in claim.eligible_costs) <= 0:
        out.append(Missing.COSTS.value)
    return out


# -- deciding: one call into the law engine ---------------------------------------------------------

def _law_row(claim: WellClaim) -> dict:
    s = claim.supply
    return {"id": claim.claim_id, "claimant_type": claim.claimant_type, "supply_use": s.supply_use,
            "well_kind": s.well_kind, "dwelling_units": s.dwelling_units, "sample_dates": ";".join(claim.sample_dates),
            "lab_certified": claim.lab_certified, "department_advisory": claim.department_advisory,
            "annual_family_income": f"{claim.annual_family_income / 100:.2f}",
            "eligible_costs": [{"item": i, "amount": f"{c / 100:.2f}"} for i, c in claim.eligible_costs]
            if any(i for i, _ in claim.eligible_costs) else f"{sum(c for _, c in claim.eligible_costs) / 100:.2f}",
            "claimed_on": claim.received_on.isoformat(),
            "completed_on": claim.completed_on.isoformat() if claim.completed_on else None}


def _decide(claims: list[WellClaim], by) -> None:
    """Decide complete claims together (unsaved changes; the caller saves and audits)."""
    if not claims:
        return
    decisions = law.decide_rows([_law_row(c) for c in claims])
    params, now = default_parameters(), timezone.now()
    for c, d in zip(claims, decisions, strict=True):
        c.eligible, c.award = d.eligible, d.award
        c.explanation, c.reasons = d.explanation, d.reasons
        c.law_version = f"Wis. Stat. s. {params.snapshot(law.PROGRAM, c.received_on).version}"
        c.decided_by, c.decided_at = (by if getattr(by, "pk", None) else None), now
        c.status = ClaimStatus.COMPLETE if d.eligible else ClaimStatus.INELIGIBLE


def _settle(claim: WellClaim, on: dt.date | None) -> None:
    """The claim's status from what has been received: complete on `on` when nothing is missing."""
    claim.missing = missing_items(claim)
    if claim.missing:
        claim.completed_on = None
        claim.status = ClaimStatus.INCOMPLETE
    elif on is not None:
        claim.completed_on = claim.completed_on or on
    else:
        claim.status = ClaimStatus.RECEIVED  # nothing missing, not yet found complete by the department


# -- import ----------------------------------------------------------------------------------------

@dataclass
class ImportResult:
    rows: int = 0
    stored: int = 0
    eligible: int = 0
    ineligible: int = 0
    incomplete: int = 0
    consolidated: int = 0
    rejected: list[dict] = field(default_factory=list)
    claims: list[WellClaim] = field(default_factory=list)
    refusals: list[Exception] = field(default_factory=list)  # each rejected row's refusal, its field and citation

    def counts(self) -> dict:
        return {"rows": self.rows, "stored": self.stored, "eligible": self.eligible, "ineligible": self.ineligible,
                "incomplete": self.incomplete, "consolidated": self.consolidated, "rejected": len(self.rejected)}


def _build(p: Parsed) -> WellClaim:
    c = p.claim
    return WellClaim(
        claim_id=c.id, claimant_name=p.claimant_name, claimant_address=p.claimant_address, claimant_type=c.claimant_type,
        sample_dates=[d.isoformat() for d in c.sample_dates], lab_certified=c.lab_certified,
        department_advisory=c.department_advisory, annual_family_income=c.annual_family_income,
        eligible_costs=[[i, x] for i, x in c.eligible_costs], received_on=c.claimed_on,
        affidavit_on=p.affidavit_on or c.completed_on, tax_returns_on=p.tax_returns_on or c.completed_on,
        completed_on=c.completed_on)


@transaction.atomic
def claims_import(*, rows: list[dict], line_errors: dict[int, str] | None = None, lines: list[int] | None = None,
                  by=None) -> ImportResult:
    """Store and decide many claims at once (one transaction): each row stored or reported with its
    line and reason. Claims on one supply are consolidated into the first received ((5)(e))."""
    result = ImportResult(rows=len(rows))
    parsed: list[Parsed] = []
    seen: set[str] = set()

    def reject(i: int, raw: dict, exc: Exception) -> None:
        line = lines[i] if lines else i + 2
        reason = str(exc) + (f" ({exc.citation})" if getattr(exc, "citation", "") else "")
        result.rejected.append({"line": line, "id": str(raw.get("id") or ""), "reason": reason})
        result.refusals.append(exc)

    for i, raw in enumerate(rows):
        if line_errors and i in line_errors:
            reject(i, raw, Refused(line_errors[i]))
            continue
        try:
            p = parse(raw)
        except Refused as exc:
            reject(i, raw, exc)
            continue
        if p.claim.id in seen:
            reject(i, raw, Refused(f"id {p.claim.id!r} is given twice in the file", field="id"))
            continue
        seen.add(p.claim.id)
        p.line = i
        parsed.append(p)
    existing = set(WellClaim.objects.filter(claim_id__in=seen).values_list("claim_id", flat=True))
    from powts.jurisdictions.models import Jurisdiction

    counties = {j.slug: j for j in Jurisdiction.objects.filter(slug__in={p.county for p in parsed if p.county})}
    supplies = {s.supply_id: s for s in WaterSupply.objects.filter(supply_id__in={p.supply_id for p in parsed})}
    kept: list[Parsed] = []
    for p in parsed:
        raw = rows[p.line]
        if p.claim.id in existing:
            reject(p.line, raw, Refused(f"claim {p.claim.id!r} is already recorded", field="id"))
            continue
        if p.county and p.county not in counties:
            reject(p.line, raw, Refused(f"county {p.county!r} is not a county set up here", field="county"))
            continue
        s = supplies.get(p.supply_id)
        c = p.claim
        if s is None:
            s = supplies[p.supply_id] = WaterSupply(supply_id=p.supply_id, well_kind=c.well_kind, supply_use=c.supply_use,
                                                    dwelling_units=c.dwelling_units, location=p.location,
                                                    jurisdiction=counties.get(p.county))
        elif (s.well_kind, s.supply_use) != (c.well_kind, c.supply_use):
            reject(p.line, raw, ClaimRefused(
                f"supply {p.supply_id} is recorded as a {s.supply_use} {s.well_kind} well; this claim says "
                f"{c.supply_use} {c.well_kind}", field="supply_id", citation=CONSOLIDATION))
            continue
        kept.append(p)
    new_supplies = [s for s in supplies.values() if s.pk is None]
    WaterSupply.objects.bulk_create(new_supplies)
    claims = []
    for p in kept:
        claim = _build(p)
        claim.supply = supplies[p.supply_id]
        claims.append(claim)
    _link_owners(claims)
    _consolidate_and_settle(claims, by)
    WellClaim.objects.bulk_create(claims)
    joined = [c for c in claims if getattr(c, "lead", None) is not None]
    for c in joined:
        c.consolidated_into = c.lead  # saved now (bulk_create refuses a link to an unsaved claim)
    WellClaim.objects.bulk_update(joined, ["consolidated_into"])
    events = [build_event(s, action="water supply recorded", verb="create", changes={"supply_id": [None, s.supply_id]})
              for s in new_supplies]
    events += [build_event(c, action=f"well claim received ({c.get_status_display().lower()}) [{COMPLETENESS}]",
                           verb="create", changes={k: [None, v] for k, v in snapshot(c).items() if v not in (None, "", [], {})})
               for c in claims]
    AuditEvent.objects.bulk_create(events)
    result.claims = claims
    result.stored = len(claims)
    for c in claims:
        if c.status in (ClaimStatus.INCOMPLETE, ClaimStatus.RECEIVED):
            result.incomplete += 1
        elif c.status == ClaimStatus.CONSOLIDATED:
            result.consolidated += 1
        elif c.eligible:
            result.eligible += 1
        else:
            result.ineligible += 1
    return result


def _link_owners(claims: list[WellClaim]) -> None:
    """A claimant whose name is one inventory owner's, exactly (case aside), is linked to that owner."""
    from powts.inventory.models import Owner

    names = {c.claimant_name.lower() for c in claims if c.claimant_name}
    if not names:
        return
    found: dict[str, list] = {}
    for o in Owner.objects.filter(name__iregex=r"^(" + "|".join(_re(n) for n in names) + r")$").only("id", "name")[:10000]:
        found.setdefault(o.name.lower(), []).append(o)
    for c in claims:
        match = found.get(c.claimant_name.lower(), [])
        if len(match) == 1:
            c.owner = match[0]


def _re(name: str) -> str:
    import re

    return re.escape(name)


def _consolidate_and_settle(claims: list[WellClaim], by) -> None:
    """(5)(e): a claim on a supply that already has one is consolidated into the first received; the
    others are settled from what was received and, when complete, decided."""
    leads = {c.supply_id: c for c in WellClaim.objects.filter(supply__in={c.supply.pk for c in claims},
                                                                  consolidated_into__isnull=True).order_by("received_on", "id")[::-1]}
    to_decide = []
    for c in sorted(claims, key=lambda c: c.received_on):  # stable: file order among the same day
        lead = leads.get(c.supply.pk)
        if lead is not None:
            c.lead, c.status = lead, ClaimStatus.CONSOLIDATED
            c.missing = []
            continue
        leads[c.supply.pk] = c
        _settle(c, c.completed_on)
        if c.completed_on:
            to_decide.append(c)
    _decide(to_decide, by)


# -- one claim at a time (web and API) ----------------------------------------------------------------

@transaction.atomic
def claim_create(*, data: dict, by=None, owner=None) -> WellClaim:
    """One claim from the form: the same reading as the import; refused (nothing stored) when bad."""
    r = claims_import(rows=[data], by=by)
    if r.rejected:  # the row's own refusal, naming its field and citation (a form shows it on the field)
        exc = r.refusals[0]
        raise exc if isinstance(exc, Refused) else ClaimRefused(r.rejected[0]["reason"])
    claim = r.claims[0]
    if owner is not None:
        claim.owner = owner
        claim.save(update_fields=["owner"])
    return claim


@transaction.atomic
def claim_receive_items(*, claim: WellClaim, on: dt.date, by=None, affidavit: bool = False, tax_returns: bool = False,
                        sample_dates: list[dt.date] | None = None, lab_certified: bool | None = None) -> WellClaim:
    """Items the department asked for arrive on `on`; when nothing is missing any more the claim becomes
    complete on that date ((5)(c)) and is decided."""
    claim = WellClaim.objects.select_for_update().select_related("supply").get(pk=claim.pk)
    if claim.status not in (ClaimStatus.RECEIVED, ClaimStatus.INCOMPLETE):
        raise ClaimRefused(f"the claim is already {claim.get_status_display().lower()}", field="status")
    if on < claim.received_on:
        raise ClaimRefused(f"{on.isoformat()} is before the claim was received ({claim.received_on.isoformat()})", field="on")
    before = snapshot(claim)
    if affidavit:
        claim.affidavit_on = claim.affidavit_on or on
    if tax_returns:
        claim.tax_returns_on = claim.tax_returns_on or on
    if sample_dates:
        claim.sample_dates = sorted({*claim.sample_dates, *(d.isoformat() for d in sample_dates)})
    if lab_certified is not None:
        claim.lab_certified = lab_certified
    claim.missing = missing_items(claim)
    return _complete_if_ready(claim, on, by, before)


@transaction.atomic
def claim_mark_complete(*, claim: WellClaim, on: dt.date, by=None) -> WellClaim:
    """The department finds the claim complete on `on` ((5)(c)): refused while an item is missing."""
    claim = WellClaim.objects.select_for_update().select_related("supply").get(pk=claim.pk)
    if claim.status not in (ClaimStatus.RECEIVED, ClaimStatus.INCOMPLETE):
        raise ClaimRefused(f"the claim is already {claim.get_status_display().lower()}", field="status")
    if on < claim.received_on:
        raise ClaimRefused(f"{on.isoformat()} is before the claim was received ({claim.received_on.isoformat()})", field="on")
    claim.missing = missing_items(claim)
    if claim.missing:
        raise ClaimRefused("the claim is not complete: missing " + "; ".join(Missing(m).label for m in claim.missing),
                           field="on", citation=COMPLETENESS)
    return _complete_if_ready(claim, on, by, snapshot(claim))


def _complete_if_ready(claim: WellClaim, on: dt.date, by, before: dict) -> WellClaim:
    if claim.missing:
        claim.status = ClaimStatus.INCOMPLETE
        claim.save()
        audit_update(claim, before=before, action=f"well claim items received; still missing: {', '.join(claim.missing)} [{COMPLETENESS}]")
        return claim
    claim.completed_on = on
    _decide([claim], by)
    claim.save()
    audit_update(claim, before=before, action=(f"well claim complete on {on.isoformat()} [{COMPLETENESS}] and decided: "
                                               f"{'eligible' if claim.eligible else 'not eligible'} [{claim.law_version}]"))
    return claim


@transaction.atomic
def claim_notice(*, claim: WellClaim, on: dt.date) -> WellClaim:
    """(5)(c): the notice to the claimant that the claim is complete, or what is missing; its date is kept."""
    claim = WellClaim.objects.select_for_update().get(pk=claim.pk)
    if claim.status == ClaimStatus.CONSOLIDATED:
        raise ClaimRefused("a consolidated claim is answered with the claim it was consolidated into", field="status",
                           citation=CONSOLIDATION)
    before = snapshot(claim, ["notice_on", "missing"])
    claim.notice_on = on
    if claim.status in (ClaimStatus.RECEIVED, ClaimStatus.INCOMPLETE):
        claim.missing = missing_items(claim)
    claim.save(update_fields=["notice_on", "missing"])
    audit_update(claim, before=before, action=f"completeness notice sent [{COMPLETENESS}]")
    return claim


# -- payment runs ------------------------------------------------------------------------------------

def _line_status(claim: WellClaim, on: dt.date) -> str:
    if claim.status == ClaimStatus.CONSOLIDATED:
        return LineStatus.CONSOLIDATED
    if claim.status == ClaimStatus.INELIGIBLE:
        return LineStatus.INELIGIBLE
    return LineStatus.INCOMPLETE  # received, incomplete, or complete only after the run's date


@transaction.atomic
def payment_run(*, funds: int, on: dt.date, by=None) -> WellPaymentRun:
    """(5)(f): pay complete claims in the order they became complete, then received; conditionally approve
    what the funds cannot pay; claims conditionally approved by an earlier run are paid first. Runs
    accumulate: a claim paid by an earlier run is not in a later one."""
    if funds < 0:
        raise ClaimRefused("funds may not be negative", field="funds")
    run = WellPaymentRun.objects.create(on=on, funds=funds, created_by=by if getattr(by, "pk", None) else None, citation=ORDER)
    open_claims = list(WellClaim.objects.select_for_update().exclude(status=ClaimStatus.PAID)
                       .select_related("supply").order_by("received_on", "id"))
    payable = [c for c in open_claims if c.status in (ClaimStatus.COMPLETE, ClaimStatus.CONDITIONAL)
               and c.completed_on and c.completed_on <= on and c.eligible]
    decisions = [law.WellDecision(c.claim_id, True, c.award or 0, claimed_on=c.received_on, completed_on=c.completed_on)
                 for c in payable]
    waiting = {c.claim_id for c in payable if c.status == ClaimStatus.CONDITIONAL}
    payments = {p.id: p for p in law.pay_in_order(decisions, funds, waiting=waiting)}
    lines, changed, total = [], [], 0
    payable_ids = {c.pk for c in payable}
    for c in open_claims:
        p = payments.get(c.claim_id) if c.pk in payable_ids else None
        if p is None:
            lines.append(WellPaymentLine(run=run, claim=c, status=_line_status(c, on)))
            continue
        before = c.status
        if p.status == "paid" or p.award == 0:
            c.status, c.paid = ClaimStatus.PAID, p.paid
            lines.append(WellPaymentLine(run=run, claim=c, status=LineStatus.PAID, paid=p.paid, position=p.position))
            total += p.paid
        else:
            c.status = ClaimStatus.CONDITIONAL
            lines.append(WellPaymentLine(run=run, claim=c, status=LineStatus.CONDITIONAL, position=p.position))
        if c.status != before:
            changed.append((c, before))
    WellPaymentLine.objects.bulk_create(lines)
    WellClaim.objects.bulk_update([c for c, _ in changed], ["status", "paid"])
    run.paid = total
    run.save(update_fields=["paid"])
    audit_create(run, action=f"well payment run: {len(lines)} claims, {total} cents paid of {funds} [{ORDER}]")
    AuditEvent.objects.bulk_create([
        build_event(c, action=f"well claim {c.get_status_display().lower()} by payment run {run.pk} [{ORDER}]", verb="update",
                    changes={"status": [before, c.status], **({"paid": [0, c.paid]} if c.paid else {})})
        for c, before in changed])
    return run
