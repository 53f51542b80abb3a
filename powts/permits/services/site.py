"""Soil and site evaluations, building-permit clearances (new structures, reconnections, flow
changes) and emergency work. Rules from the `soil`, `clearance` and `emergency` keys of the
county's permits.yaml; every write audited in its transaction."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation

from django.db import transaction

from powts.accounts.conflicts import refuse_employee_work_nearby
from powts.audit.services import audit_create, audit_update, snapshot
from powts.calendars import calendar_for
from powts.core import fields
from powts.kernel.dates import add_years
from powts.permits import choices as c
from powts.permits import rules
from powts.permits.models import Clearance, EmergencyWork, Permit, SoilEvaluation
from powts.permits.services._common import checked, refuse


def _section(jurisdiction, key: str) -> dict:
    return rules.permit_rules(jurisdiction.profile_slug).get(key) or {}


def _p(section: dict, name: str):
    entry = section.get(name)
    return (entry.get("value"), entry.get("citation", "")) if isinstance(entry, dict) else (None, "")


AREA_NUMBERS = ("pits", "depth_below_infiltrative_in", "suitable_soil_in", "frozen_within_in")


def _clean_areas(areas) -> list[dict]:
    if not isinstance(areas, list) or not areas:
        refuse("areas: at least one proposed soil absorption or dispersal area is needed", field="areas")
    out = []
    for i, a in enumerate(areas):
        if not isinstance(a, dict) or not str(a.get("name", "")).strip():
            refuse(f"areas[{i}]: each area needs a name", field="areas")
        area = {"name": str(a["name"]).strip(), "replacement": bool(a.get("replacement")),
                "below_grade_gravity": bool(a.get("below_grade_gravity"))}
        for k in AREA_NUMBERS:
            v = a.get(k)
            if v is None or v == "":
                area[k] = None
                continue
            try:  # bounded before conversion (powts.core.fields): no "1e1000000", NaN or infinity
                number = fields.decimal(k, v, minimum=0, maximum=1_000_000)
            except fields.FieldError as exc:
                refuse(f"areas[{i}] ({area['name']}): {exc.message}", field="areas")
            area[k] = None if number is None else float(number)
        out.append(area)
    return out


def soil_findings(jurisdiction, *, fieldwork_completed_on: dt.date, filed_on: dt.date, areas: list[dict]) -> list[dict]:
    """Each soil rule of the county, pass or fail, with the numbers used and the citation."""
    soil = _section(jurisdiction, "soil")
    found = []

    def add(ok, message, citation):
        found.append({"ok": bool(ok), "message": message, "citation": citation})

    pits, cite = _p(soil, "min_pits_per_area")
    depth, dcite = _p(soil, "depth_below_infiltrative_in")
    frozen, fcite = _p(soil, "frozen_within_in")
    sep, scite = _p(soil, "min_suitable_soil_in")
    gravity, gcite = _p(soil, "below_grade_gravity_min_in")
    for a in areas:
        n = a["name"]
        if pits is not None:
            add((a["pits"] or 0) >= pits, f"{n}: {int(a['pits'] or 0)} soil pit(s); at least {pits} required", cite)
        if depth is not None:
            add((a["depth_below_infiltrative_in"] or 0) >= depth,
                f"{n}: evaluated {a['depth_below_infiltrative_in'] or 0:g} in below the infiltrative surface; {depth} in required", dcite)
        if frozen is not None and a["frozen_within_in"] is not None:
            add(a["frozen_within_in"] > frozen,
                f"{n}: soil frozen {a['frozen_within_in']:g} in from the infiltrative surface; evaluation prohibited within {frozen} in",
                fcite)
        if a["suitable_soil_in"] is not None:
            need, why = (gravity, gcite) if (a["below_grade_gravity"] and gravity is not None) else (sep, scite)
            if need is not None:
                add(a["suitable_soil_in"] >= need, f"{n}: {a['suitable_soil_in']:g} in of suitable soil above groundwater or "
                                                   f"bedrock; {need} in required", why)
    need_repl, cite = _p(soil, "replacement_area_required")
    if need_repl:
        add(any(a["replacement"] for a in areas), "a replacement system area is " +
            ("delineated" if any(a["replacement"] for a in areas) else "not delineated") + "; one is required", cite)
    return found


@transaction.atomic
def soil_evaluation_file(*, jurisdiction, parcel, soil_tester, fieldwork_completed_on: dt.date, filed_on: dt.date,
                         areas: list[dict]) -> SoilEvaluation:
    """A certified soil tester files the report; each rule's finding is stored with it."""
    if soil_tester is None or soil_tester.kind != "soil_tester":
        refuse("a soil and site evaluation is filed by a certified soil tester",
               rules.step_citation(jurisdiction.profile_slug, "soil_report_by_soil_tester"), "soil_tester")
    if filed_on < fieldwork_completed_on:
        refuse(f"filed_on {filed_on.isoformat()} is before the fieldwork was completed ({fieldwork_completed_on.isoformat()})",
               field="filed_on")
    if parcel.jurisdiction_id != jurisdiction.pk:
        refuse(f"parcel {parcel.parcel_number} is in another county", field="parcel")
    refuse_employee_work_nearby(license=soil_tester, jurisdiction=jurisdiction, owner=parcel.owner,
                                what=f"file a soil and site evaluation for parcel {parcel.parcel_number}")
    areas = _clean_areas(areas)
    due_on, late_days, late_cite = soil_filing_lateness(jurisdiction, fieldwork_completed_on=fieldwork_completed_on,
                                                        filed_on=filed_on)
    ev = SoilEvaluation(jurisdiction=jurisdiction, parcel=parcel, soil_tester=soil_tester,
                        fieldwork_completed_on=fieldwork_completed_on, filed_on=filed_on, areas=areas,
                        findings=soil_findings(jurisdiction, fieldwork_completed_on=fieldwork_completed_on,
                                               filed_on=filed_on, areas=areas),
                        due_on=due_on, late_days=late_days)
    checked(ev)
    ev.save()
    late = f"; filed {late_days} day(s) late, due by {due_on.isoformat()} [{late_cite}]" if late_days else ""
    audit_create(ev, action=f"soil and site evaluation filed by {soil_tester.holder_name}{late}")
    return ev


def soil_filing_lateness(jurisdiction, *, fieldwork_completed_on: dt.date, filed_on: dt.date):
    """(due date, days late, citation) of the soil tester's filing duty; a late report is kept, marked late.

    The filing period is the tester's duty: missing it does not make the soil unsuitable, so the report still
    counts for verification and the county may act on the lateness.
    """
    days, cite = _p(_section(jurisdiction, "soil"), "filing_days_after_fieldwork")
    if days is None:
        return None, 0, cite
    due_on = fieldwork_completed_on + dt.timedelta(days=int(days))
    return due_on, max(0, (filed_on - due_on).days), cite


@transaction.atomic
def soil_evaluation_verify(*, evaluation: SoilEvaluation, outcome: str, on: dt.date, note: str = "") -> SoilEvaluation:
    """The county's verification outcome (one of the profile's soil.verification_outcomes)."""
    from powts.accounts.conflicts import refuse_if_conflicted, soil_parties

    refuse_if_conflicted(parties=soil_parties(evaluation), what=f"verify soil evaluation {evaluation.pk}")
    allowed, cite = _p(_section(evaluation.jurisdiction, "soil"), "verification_outcomes")
    allowed = allowed or [c.SoilVerification.ISSUE, c.SoilVerification.DENY]
    if outcome not in allowed:
        refuse(f"outcome {outcome!r} is not one of {', '.join(allowed)}", cite, "outcome")
    failing = [f for f in evaluation.findings if not f["ok"]]
    if outcome in (c.SoilVerification.ISSUE, c.SoilVerification.FILE) and failing:
        refuse("the report does not meet: " + "; ".join(f"{f['message']} [{f['citation']}]" for f in failing), field="outcome")
    if outcome in (c.SoilVerification.HOLD, c.SoilVerification.DENY) and not note.strip():
        refuse("a hold or a denial states what is unclear or why", cite, "note")
    before = snapshot(evaluation, ["verification", "verified_on", "verification_note"])
    evaluation.verification, evaluation.verified_on, evaluation.verification_note = outcome, on, note
    evaluation.save()
    audit_update(evaluation, before=before, action=f"soil evaluation verified: {outcome}")
    return evaluation


# -- building permits, reconnections, flow changes ------------------------------------------

def building_permit_gate(*, parcel, on: dt.date | None = None) -> dict:
    """May a municipality issue a building permit for a new structure on `parcel` needing a POWTS?"""
    rule, cite = _p(_section(parcel.jurisdiction, "clearance"), "new_structure_needs_issued_permit")
    permit = Permit.objects.filter(parcel=parcel, status__in=[c.PermitStatus.ISSUED, c.PermitStatus.COMPLETED]).first()
    if rule and permit is None:
        return {"allowed": False, "citation": cite,
                "message": f"no sanitary permit has been issued for parcel {parcel.parcel_number}; no building permit for a new structure until one is"}
    return {"allowed": True, "citation": cite, "permit": permit.number if permit else None,
            "message": f"sanitary permit {permit.number} is {permit.get_status_display().lower()}" if permit else "no rule"}


def flow_changes(jurisdiction, *, bedrooms_before, bedrooms_after, living_area_changed_pct) -> tuple[bool, str]:
    rule = _section(jurisdiction, "clearance").get("flow_change") or {}
    cite = rule.get("citation", "")
    if rule.get("bedrooms_change") and bedrooms_before is not None and bedrooms_after is not None and bedrooms_before != bedrooms_after:
        return True, cite
    over = rule.get("area_pct_over")
    if over is not None and living_area_changed_pct is not None and float(living_area_changed_pct) > float(over):
        return True, cite
    return False, cite


def remodel_needs_approval(jurisdiction, *, living_area_changed_pct) -> tuple[bool, str]:
    """Does remodelling this share of the living space need the reconnection approval? (a county's "at least" threshold)"""
    at_least, cite = _p(_section(jurisdiction, "clearance"), "reconnection_area_pct_at_least")
    if at_least is None or living_area_changed_pct is None:
        return False, cite
    try:
        pct = Decimal(str(living_area_changed_pct))
    except InvalidOperation:
        refuse(f"living_area_changed_pct {living_area_changed_pct!r} is not a number", field="living_area_changed_pct")
    return pct >= Decimal(str(at_least)), cite


# A county may name the recorded affidavit as one way to give a listed document (the rule's stands_for).
def undersized_stands_for(section: dict) -> str:
    return (section.get("undersized_affidavit") or {}).get("stands_for") or ""


def _undersized_finding(section: dict, *, kind: str, requested_on: dt.date, short, number: str,
                        recorded_on: dt.date | None) -> dict | None:
    """An existing system too small for the changed flow: the county's undersized-affidavit rule (None: not undersized).

    A recording number for an affidavit that is not required is refused, not kept."""
    if short is not None and (isinstance(short, bool) or not isinstance(short, int) or short < 0):
        refuse(f"undersized_bedrooms {short!r} is not a whole number of bedrooms, 0 or more", field="undersized_bedrooms")
    if not short:
        if number or recorded_on:
            refuse("no affidavit is required: the existing system is not stated to be undersized",
                   field="affidavit_recording_number")
        return None
    if kind != c.ClearanceKind.FLOW_CHANGE:
        refuse("an undersized system is stated only for construction changing wastewater flow or load",
               field="undersized_bedrooms")
    rule = section.get("undersized_affidavit")
    flow_cite = (section.get("flow_change") or {}).get("citation", "")
    if not rule:
        return {"ok": False, "citation": flow_cite,
                "message": "the existing system is undersized: a sanitary permit to modify or replace it is needed"}
    cite, most = rule["citation"], rule.get("max_bedrooms_short")
    if most is not None and short > most:
        return {"ok": False, "citation": cite,
                "message": f"the existing system is undersized by the load of {short} bedrooms, more than {most}: "
                           "a sanitary permit to modify or replace it is needed"}
    if bool(number) != bool(recorded_on):
        refuse("give both the affidavit's recording number and its recording date", cite,
               "affidavit_recorded_on" if number else "affidavit_recording_number")
    if recorded_on and recorded_on > requested_on:
        refuse(f"the affidavit's recording date {recorded_on.isoformat()} is after the request "
               f"({requested_on.isoformat()})", cite, "affidavit_recorded_on")
    if not number:
        return {"ok": False, "citation": cite,
                "message": "record the affidavit for the use of the undersized system with the register of deeds, "
                           "then give its recording number and date"}
    return {"ok": True, "citation": cite, "stands_for": True,
            "message": f"affidavit for the undersized system recorded {recorded_on.isoformat()}, number {number}"}


def _replacement_documents(section: dict, *, parcel, kind: str, requested_on: dt.date) -> dict | None:
    """A structure replaced within the county's period after a reconnection permit: its shorter list (None: none)."""
    rule = section.get("replacement_after_reconnection")
    if not rule or kind not in (c.ClearanceKind.RECONNECT_OTHER, c.ClearanceKind.REBUILD):
        return None
    earliest = add_years(requested_on, -int(rule["years"]))
    recent = Permit.objects.filter(parcel=parcel, kind=c.PermitKind.RECONNECTION, issued_on__isnull=False,
                                   issued_on__gte=earliest, issued_on__lte=requested_on).order_by("-issued_on").first()
    if recent is None:
        return None
    return {"value": rule["documents"], "citation": f"{rule['citation']} (reconnection permit {recent.number}, "
                                                    f"issued {recent.issued_on.isoformat()})"}


@transaction.atomic
def clearance_request(*, jurisdiction, parcel, kind: str, requested_on: dt.date, documents: list[str] | None = None,
                      permit: Permit | None = None, bedrooms_before=None, bedrooms_after=None,
                      living_area_changed_pct=None, undersized_bedrooms=None, affidavit_recording_number: str = "",
                      affidavit_recorded_on: dt.date | None = None) -> Clearance:
    """The owner asks the county's approval before the zoning or building permit; the answer lists what is missing."""
    if kind not in c.ClearanceKind.values:
        refuse(f"kind {kind!r} is not one of {', '.join(c.ClearanceKind.values)}", field="kind")
    section = _section(jurisdiction, "clearance")
    docs = sorted(set(documents or []))
    findings = []
    affidavit_recording_number = (affidavit_recording_number or "").strip()
    undersized = _undersized_finding(section, kind=kind, requested_on=requested_on, short=undersized_bedrooms,
                                     number=affidavit_recording_number, recorded_on=affidavit_recorded_on)
    if undersized is not None and undersized.pop("stands_for", None):
        docs = sorted({*docs, undersized_stands_for(section)} - {""})
    if kind == c.ClearanceKind.NEW_STRUCTURE:
        gate = building_permit_gate(parcel=parcel)
        findings.append({"ok": gate["allowed"], "message": gate["message"], "citation": gate["citation"]})
    else:
        modified, fcite = (flow_changes(jurisdiction, bedrooms_before=bedrooms_before, bedrooms_after=bedrooms_after,
                                        living_area_changed_pct=living_area_changed_pct)
                           if kind == c.ClearanceKind.FLOW_CHANGE else (True, ""))
        # Remodelling "at least" the reconnection threshold needs the reconnection approval even where the
        # flow rule's "exceeds" is not met: the two thresholds can differ at exactly the same percentage.
        remodel, rcite = (remodel_needs_approval(jurisdiction, living_area_changed_pct=living_area_changed_pct)
                          if kind == c.ClearanceKind.FLOW_CHANGE else (False, ""))
        if kind == c.ClearanceKind.FLOW_CHANGE and not modified and not remodel:
            findings.append({"ok": True, "citation": fcite,
                             "message": "the construction does not modify wastewater flow or load; setbacks still apply"})
        else:
            has_permit = permit is not None and permit.status in (c.PermitStatus.ISSUED, c.PermitStatus.COMPLETED)
            required = (_replacement_documents(section, parcel=parcel, kind=kind, requested_on=requested_on)
                        or section.get("reconnection_documents") or {})
            missing = [d for d in required.get("value", []) if d["id"] not in docs]
            ok = has_permit or not missing
            msg = (f"sanitary permit {permit.number} covers the work" if has_permit else
                   "documentation complete" if not missing else
                   "missing: " + "; ".join(d["label"] for d in missing) + " (or obtain a sanitary permit)")
            cite = required.get("citation", fcite)
            if remodel and rcite and rcite not in cite:
                cite = f"{rcite}; {cite}"
            findings.append({"ok": ok, "message": msg, "citation": cite})
            if undersized is not None and not has_permit:
                findings.append(undersized)
    approved = all(f["ok"] for f in findings)
    cl = Clearance(jurisdiction=jurisdiction, parcel=parcel, kind=kind, requested_on=requested_on, approved=approved,
                   decided_on=requested_on if approved else None, permit=permit, documents=docs,
                   bedrooms_before=bedrooms_before, bedrooms_after=bedrooms_after,
                   living_area_changed_pct=living_area_changed_pct, findings=findings,
                   undersized_bedrooms=undersized_bedrooms or None,
                   affidavit_recording_number=affidavit_recording_number, affidavit_recorded_on=affidavit_recorded_on)
    checked(cl)
    cl.save()
    audit_create(cl, action=f"clearance {kind}: {'approved' if approved else 'not yet approved'}")
    return cl


# -- emergency work (the profile's `emergency` rule) ----------------------------------------

@transaction.atomic
def emergency_report(*, jurisdiction, parcel, plumber, work_started_on: dt.date, reported_on: dt.date,
                     description: str, absorption_replacement_found_on: dt.date | None = None,
                     state_plan_required: bool = False) -> EmergencyWork:
    rule = _section(jurisdiction, "emergency")
    if not rule:
        refuse(f"the {jurisdiction.name} profile has no emergency-work rule: a permit is needed before the work")
    if reported_on < work_started_on:
        refuse(f"reported_on {reported_on.isoformat()} is before the work began ({work_started_on.isoformat()})",
               field="reported_on")
    if not description.strip():
        refuse("describe the work and why it could not wait", field="description")
    cal = calendar_for(jurisdiction.profile_slug)
    report_due = cal.add_working_days(work_started_on, int(rule["report_working_days"]))
    app_due = cal.add_working_days(work_started_on, int(rule["application_working_days"]))
    findings = [{"ok": reported_on <= report_due, "citation": rule["citation"],
                 "message": f"reported {reported_on.isoformat()}; due by {report_due.isoformat()} (the next working day)"}]
    if absorption_replacement_found_on is not None:
        # the evaluation after an emergency tank replacement found the soil absorption area must be replaced too
        days = rule.get("absorption_replacement_working_days")
        if days is None:
            refuse(f"the {jurisdiction.name} profile sets no period for an application after an emergency tank "
                   "replacement", field="absorption_replacement_found_on")
        if absorption_replacement_found_on < work_started_on:
            refuse(f"absorption_replacement_found_on {absorption_replacement_found_on.isoformat()} is before the work "
                   f"began ({work_started_on.isoformat()})", field="absorption_replacement_found_on")
        due = cal.add_working_days(absorption_replacement_found_on, int(days))
        app_due = max(app_due, due)
        findings.append({"ok": True, "citation": rule["absorption_replacement_citation"],
                         "message": f"the soil absorption area must be replaced: the owner applies for a permit by "
                                    f"{due.isoformat()} ({days} working days after {absorption_replacement_found_on.isoformat()})"
                                    + ("; the county may grant more time because state plan approval is required"
                                       if state_plan_required else "")})
    em = EmergencyWork(jurisdiction=jurisdiction, parcel=parcel, plumber=plumber, work_started_on=work_started_on,
                       reported_on=reported_on, report_due_on=report_due, application_due_on=app_due,
                       description=description, findings=findings)
    checked(em)
    em.save()
    audit_create(em, action=f"emergency work reported; application due {app_due.isoformat()}")
    return em
