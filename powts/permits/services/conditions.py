"""What must be on file before a permit is approved or issued beyond a complete application: recorded documents
verified by staff, a holding tank's conditions, a nonplumbing system's limits. Each check reads the county
profile (permits.yaml `recorded_documents`, `holding_tank`, `nonplumbing`) and refuses with the citation; a
county whose text is silent has no section and no check."""
from __future__ import annotations

import datetime as dt

from powts.kernel.dates import add_months, add_years
from powts.permits import choices as c
from powts.permits import rules
from powts.permits.models import Permit
from powts.permits.selectors import unverified_recordings
from powts.permits.services._common import refuse

STEP_WORDS = {"approve": "the application is approved", "issue": "the permit issues"}


def _has(permit: Permit, kind: str) -> bool:
    return permit.documents.filter(kind=kind).exists()


def _label(kind: str) -> str:
    return c.DOCUMENT_KINDS.get(kind, kind).lower()


def require_recordings(permit: Permit, step: str) -> None:
    """Each document the text requires recorded, verified by staff (recording number and date) before `step`."""
    missing = unverified_recordings(permit, step)
    if missing:
        first = missing[0]
        state = "is not on file" if first["document"] is None else "is on file but its recording is not yet verified by staff"
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        refuse(f"{first['label']} must be recorded with the register of deeds, and its recording verified, before "
               f"{STEP_WORDS[step]}: it {state}{more}", first["citation"], "documents")


def _flow(permit: Permit) -> int | None:
    return permit.design_flow_gpd if permit.design_flow_gpd is not None else permit.estimated_daily_flow_gpd


def before_approval(permit: Permit) -> None:
    require_recordings(permit, "approve")
    if permit.holding_tank:
        ht = rules.holding_tank(permit.slug)
        soil_rule = ht.get("soil_verification")
        if soil_rule and not permit.temporary_until:
            soil = permit.soil_evaluation
            if soil is None or soil.verification in (c.SoilVerification.PENDING, c.SoilVerification.HOLD):
                refuse("a holding tank is approved only after the county's verification of the soil evaluation confirms "
                       "that no area of the parcel is suitable for another type of system; it is not yet verified",
                       soil_rule["citation"], "soil_evaluation")
            if soil.verification in (c.SoilVerification.ISSUE, c.SoilVerification.FILE):
                refuse("a holding tank is not approved where the parcel has soil suitable for another type of system; "
                       "the county's verification found suitable soil", soil_rule["citation"], "soil_evaluation")
        dnr = ht.get("dnr_approval")
        flow = _flow(permit)
        if dnr and flow is not None and flow > int(dnr["above_gpd"]):
            lacking = [k for k in dnr["documents"] if not _has(permit, k)]
            if lacking:
                refuse(f"a holding tank for {flow:,} gallons per day (more than {int(dnr['above_gpd']):,}) is approved only "
                       f"after the owner files: {'; '.join(_label(k) for k in lacking)}", dnr["citation"], "documents")
    nonplumbing = rules.nonplumbing(permit.slug)
    cap = nonplumbing.get("rv_container_max_gallons")
    if cap and permit.nonplumbing_kind == c.NonplumbingKind.RV_TRANSFER_CONTAINER:
        if permit.container_gallons is None:
            refuse("a transfer container's capacity in gallons is needed", cap["citation"], "container_gallons")
        if permit.container_gallons > int(cap["value"]):
            refuse(f"a recreational vehicle transfer container may hold at most {int(cap['value'])} gallons; this one holds "
                   f"{permit.container_gallons}", cap["citation"], "container_gallons")


def check_temporary(permit: Permit, on: dt.date) -> None:
    """A temporary holding tank: the county must provide for one, and a tank waiting for the public sewer needs
    the sewer agreement and an end within the county's months."""
    if not permit.temporary_until:
        return
    rule = rules.holding_tank(permit.slug).get("temporary")
    if not permit.holding_tank:
        refuse("an end date is for a temporary holding tank; this permit is not for a holding tank", field="temporary_until")
    if not rule:
        refuse(f"the {permit.jurisdiction.name} ordinance provides no temporary holding tank permit; the permit is for a "
               "holding tank without an end date", field="temporary_until")
    if permit.temporary_until <= on:
        refuse(f"the temporary holding tank's end date {permit.temporary_until.isoformat()} is not after the issue date "
               f"{on.isoformat()}", rule["citation"], "temporary_until")
    if not permit.temporary_reason:
        refuse("a temporary holding tank states why: weather or soil conditions, or public sewer to come",
               rule["citation"], "temporary_reason")
    if permit.temporary_reason == c.TemporaryReason.SEWER_COMING:
        months = int(rule["sewer_within_months"])
        last = add_months(on, months)
        if permit.temporary_until > last:
            refuse(f"a temporary holding tank waiting for the public sewer is for sewer provided within {months} months: "
                   f"the end date {permit.temporary_until.isoformat()} is after {last.isoformat()}", rule["citation"],
                   "temporary_until")
        if not _has(permit, rule["sewer_agreement_document"]):
            refuse(f"the {_label(rule['sewer_agreement_document'])} must be provided before the permit issues",
                   rule["citation"], "documents")


def before_issue(permit: Permit, on: dt.date) -> None:
    require_recordings(permit, "issue")
    if permit.holding_tank:
        contract = rules.holding_tank(permit.slug).get("servicing_contract")
        if contract and not _has(permit, contract["document"]):
            refuse(f"a holding tank's permit issues only after the owner files the {_label(contract['document'])}",
                   contract["citation"], "documents")
        check_temporary(permit, on)
    elif permit.temporary_until:
        check_temporary(permit, on)


def annual_expiry(permit: Permit, issued_on: dt.date) -> tuple[dt.date, str] | None:
    """A nonplumbing system the county permits for one year at a time: its expiry, or None."""
    rule = rules.nonplumbing(permit.slug).get("annual_permit")
    if rule and permit.nonplumbing_kind in rule["kinds"]:
        return add_years(issued_on, int(rule["years"])), rule["citation"]
    return None
