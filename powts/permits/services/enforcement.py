"""Failing systems, correction orders, variances and public complaints."""
from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from powts.audit.services import audit_create, audit_update, snapshot
from powts.core.news import publish
from powts.kernel.dates import add_years
from powts.permits import choices as c
from powts.permits import rules
from powts.permits.errors import PermitRefused
from powts.permits.models import Complaint, CorrectionOrder, FailureDetermination, Variance
from powts.permits.services._common import checked, refuse

VARIANCE_CITATION = "Wis. Stat. s. 145.24(3)"


def failure_citation(on: dt.date | None = None) -> str:
    """Where the failure conditions and their categories are written, for the date (powts.law.failure reads it
    from the cited parameter files)."""
    from powts.law import failure

    return failure.citation_on(on or dt.date.today())


def failure_category(conditions, on: dt.date | None = None) -> int:
    """The most serious category the conditions put the system in: powts.law.failure, the one
    place the categories of s. 145.246(2) are read (from the cited parameter files)."""
    from powts.law import failure

    return failure.category_on(sorted(set(conditions)), on or dt.date.today())


@transaction.atomic
def failure_determine(*, system, conditions: list[str], on: dt.date, basis: str, inspector_license=None,
                      notes: str = "") -> FailureDetermination:
    """A determination of failure: by a certified inspector's inspection, or by an enforcement order."""
    conds = sorted(set(conditions or []))
    bad = [x for x in conds if x not in c.FailureCondition.values]
    if not conds or bad:
        refuse(f"conditions must be one or more of a-e; got {conditions!r}", failure_citation(on), "conditions")
    if basis not in ("inspection", "order"):
        refuse("basis is 'inspection' (by a certified inspector) or 'order' (an enforcement order)", field="basis")
    if basis == "inspection" and (inspector_license is None or inspector_license.kind not in ("powts_inspector",)):
        refuse("a determination on inspection is made by an inspector certified to inspect POWTS",
               "Wis. Stat. s. 145.245(1)(a)1.", "inspector_license")
    det = FailureDetermination(jurisdiction=system.jurisdiction, system=system, conditions=conds,
                               category=failure_category(conds, on), determined_on=on, basis=basis,
                               inspector_license=inspector_license, notes=notes)
    checked(det)
    det.save()
    audit_create(det, action=f"system determined failing, category {det.category} ({', '.join(conds)}) [{failure_citation(on)}]")
    publish("failure.determined", determination=det)  # the inventory marks the system failing
    # (3) "becomes a failing system": a failure found on or after the grant, not one entered late with an
    # earlier date (the department granted the variance knowing the system then)
    granted = Variance.objects.filter(system=system, status=c.VarianceStatus.GRANTED)
    for variance in granted.filter(Q(decided_on__isnull=True) | Q(decided_on__lte=on)):
        variance_rescind(variance=variance, on=on, reason="the system became a failing system",
                         ground=c.RescissionGround.FAILING)
    return det


@transaction.atomic
def correction_order_issue(*, system, on: dt.date, correct_by: dt.date, requirement: str,
                           determination: FailureDetermination | None = None) -> CorrectionOrder:
    """An order to bring a failing system into compliance, replace it or stop using it, by a date."""
    rule = rules.permit_rules(system.jurisdiction.profile_slug).get("correction_order") or {}
    cite = rule.get("citation", "")
    if correct_by <= on:
        refuse(f"correct_by {correct_by.isoformat()} must be after the order date {on.isoformat()}", field="correct_by")
    if rule.get("max_years"):
        latest = add_years(on, int(rule["max_years"]))
        if correct_by > latest:
            refuse(f"an order may not grant more than {rule['max_years']} year(s): correct_by must be on or before "
                   f"{latest.isoformat()}", cite, "correct_by")
    if not requirement.strip():
        refuse("state what must be done", field="requirement")
    order = CorrectionOrder(jurisdiction=system.jurisdiction, system=system, determination=determination, issued_on=on,
                            correct_by=correct_by, requirement=requirement, citation=cite)
    checked(order)
    order.save()
    audit_create(order, action=f"correction order issued, correct by {correct_by.isoformat()}")
    return order


@transaction.atomic
def correction_order_follow_up(*, order: CorrectionOrder, on: dt.date, note: str) -> CorrectionOrder:
    before = snapshot(order, ["follow_ups"])
    order.follow_ups = [*order.follow_ups, {"on": on.isoformat(), "note": note}]
    order.save(update_fields=["follow_ups"])
    audit_update(order, before=before, action="follow-up")
    return order


@transaction.atomic
def correction_order_close(*, order: CorrectionOrder, on: dt.date) -> CorrectionOrder:
    if order.status == c.OrderStatus.CORRECTED:
        refuse("the order is already closed as corrected")
    before = snapshot(order, ["status", "corrected_on"])
    order.status, order.corrected_on = c.OrderStatus.CORRECTED, on
    order.save()
    audit_update(order, before=before, action="corrected")
    publish("correction_order.corrected", order=order)  # the inventory clears the failing status
    return order


@transaction.atomic
def correction_orders_mark_overdue(*, today: dt.date) -> int:
    n = 0
    for order in CorrectionOrder.objects.select_for_update().filter(status=c.OrderStatus.OPEN, correct_by__lt=today):
        before = snapshot(order, ["status"])
        order.status = c.OrderStatus.OVERDUE
        order.save(update_fields=["status"])
        audit_update(order, before=before, action="past its correction date")
        n += 1
    return n


# -- variances (Wis. Stat. s. 145.24) -------------------------------------------------------

PETITION_CITATION = "Wis. Stat. s. 145.24(1)"


def _user(by):
    return by if getattr(by, "pk", None) else None


@transaction.atomic
def variance_petition(*, system, standard: str, on: dt.date, reason: str = "", by=None) -> Variance:
    """(1): the owner petitions the department for a variance to the siting or design standards; the county
    may record the petition on the owner's behalf. Who may petition is the caller's check (policies)."""
    if standard not in ("siting", "design"):
        refuse("a variance is to the siting or the design standards", PETITION_CITATION, "standard")
    if Variance.objects.filter(system=system, standard=standard, status__in=[c.VarianceStatus.PETITIONED, c.VarianceStatus.GRANTED]).exists():
        refuse(f"this system already has a {standard} variance petitioned or granted", PETITION_CITATION, "standard")
    owner = getattr(getattr(system, "parcel", None), "owner", None)
    by_owner = bool(_user(by) and owner is not None and owner.user_id == by.pk)
    v = Variance(jurisdiction=system.jurisdiction, system=system, standard=standard, petitioned_on=on, reason=reason,
                 petitioner=c.VariancePetitioner.OWNER if by_owner else c.VariancePetitioner.COUNTY, petitioned_by=_user(by))
    checked(v)
    v.save()
    audit_create(v, action=f"variance to the {standard} standards petitioned to the department by "
                           f"{'the owner' if by_owner else 'the county for the owner'} [{PETITION_CITATION}]")
    return v


@transaction.atomic
def variance_decide(*, variance: Variance, grant: bool, on: dt.date, reason: str = "", threat_to_waters: bool = False,
                    by=None) -> Variance:
    """(3): the department grants a variance only when the system is not failing and its continued use will
    not threaten waters of the state; a denial says why. Who decides (DSPS) is the caller's check."""
    variance = Variance.objects.select_for_update().select_related("system").get(pk=variance.pk)
    if variance.status != c.VarianceStatus.PETITIONED:
        refuse(f"the variance is already {variance.get_status_display().lower()}")
    if on < variance.petitioned_on:
        refuse(f"{on.isoformat()} is before the petition ({variance.petitioned_on.isoformat()})", field="on")
    if grant and (variance.system.status == "failing" or threat_to_waters):
        refuse("a variance may be issued only for a system that is not failing and whose continued use will not "
               "threaten waters of the state", VARIANCE_CITATION, "grant")
    reason = (reason or "").strip()
    if not grant and not reason:
        refuse("say why the variance is denied", VARIANCE_CITATION, "reason")
    before = snapshot(variance, ["status", "decided_on", "decision_reason", "decided_by_id", "citation"])
    variance.status = c.VarianceStatus.GRANTED if grant else c.VarianceStatus.DENIED
    variance.decided_on, variance.decision_reason, variance.decided_by = on, reason, _user(by)
    variance.citation = VARIANCE_CITATION
    variance.save()
    audit_update(variance, before=before, action=f"variance {'granted' if grant else 'denied'} by the department [{VARIANCE_CITATION}]")
    return variance


@transaction.atomic
def variance_rescind(*, variance: Variance, on: dt.date, reason: str, ground: str = c.RescissionGround.FAILING,
                     by=None) -> Variance:
    """(3): "The department shall rescind the variance if the existing ... system becomes a failing ...
    system or contaminates waters of the state": either ground, with the department's reason."""
    variance = Variance.objects.select_for_update().get(pk=variance.pk)
    if ground not in c.RescissionGround.values:
        refuse("the ground is that the system became a failing system or contaminates waters of the state",
               VARIANCE_CITATION, "ground")
    if variance.status != c.VarianceStatus.GRANTED:
        refuse(f"only a granted variance is rescinded; this one is {variance.get_status_display().lower()}", field="status")
    if variance.decided_on and on < variance.decided_on:
        refuse(f"{on.isoformat()} is before the variance was granted ({variance.decided_on.isoformat()})", field="on")
    before = snapshot(variance, ["status", "rescinded_on", "reason", "rescission_ground", "rescinded_by_id", "citation"])
    variance.status, variance.rescinded_on, variance.rescission_ground = c.VarianceStatus.RESCINDED, on, ground
    variance.rescinded_by, variance.citation = _user(by), VARIANCE_CITATION
    variance.reason = f"{variance.reason}; rescinded: {reason}".strip("; ")
    variance.save()
    audit_update(variance, before=before, action=f"variance rescinded: {c.RescissionGround(ground).label.lower()}"
                                                 f"{': ' + reason if reason else ''} [{VARIANCE_CITATION}]")
    return variance


# -- complaints (Open311 GeoReport v2) --------------------------------------------------------

SERVICES = [
    {"service_code": "failing-septic", "service_name": "Failing septic system",
     "description": "Sewage on the ground, in a ditch, stream or lake, or odors from a private septic system (Wis. Stat. s. 145.01(4m))",
     "metadata": False, "type": "realtime", "keywords": "septic,sewage,POWTS,failing", "group": "Private sewage"},
    {"service_code": "unpermitted-work", "service_name": "Septic work without a permit",
     "description": "Installation or repair of a private sewage system without a posted sanitary permit card",
     "metadata": False, "type": "realtime", "keywords": "permit,card,septic", "group": "Private sewage"},
    {"service_code": "holding-tank", "service_name": "Holding tank overflowing or not pumped",
     "description": "A holding tank discharging or not serviced", "metadata": False, "type": "realtime",
     "keywords": "holding tank,pumping", "group": "Private sewage"},
]


# Longest accepted value of each public field, named as Open311 names it (the model's limits, and a
# description long enough for any report but not a dump: a 1 MB description is refused).
COMPLAINT_MAX = {"service_code": 40, "description": 4000, "address_string": 200, "email": 254,
                 "first_name": 100, "last_name": 100, "phone": 40, "lat": 20, "long": 20}


def _public_text(field: str, value) -> str:
    """A submitted value as text, refused (naming the field) if it is not text, too long or has NUL bytes."""
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and field in ("lat", "long"):
        value = str(value)
    if not isinstance(value, str):
        refuse("must be text", field=field)
    if len(value) > COMPLAINT_MAX[field]:
        refuse(f"too long: at most {COMPLAINT_MAX[field]:,} characters (got {len(value):,})", field=field)
    if "\x00" in value:
        refuse("must not contain NUL characters", field=field)
    return value.strip()


def _coordinate(field: str, value: str, limit: int):
    """Decimal degrees within +/-limit, or None when blank. The text is short (checked above) before it is read."""
    if not value:
        return None
    from decimal import Decimal, InvalidOperation

    try:
        number = Decimal(value)
    except InvalidOperation:
        number = None
    if number is None or not number.is_finite() or not -limit <= number <= limit:
        refuse(f"must be decimal degrees between -{limit} and {limit}", field=field)
    return number.quantize(Decimal("0.000001"))


@transaction.atomic
def complaint_create(*, jurisdiction, service_code: str, description: str, address: str = "", lat=None, long=None,
                     email: str = "", first_name: str = "", last_name: str = "", phone: str = "") -> Complaint:
    values = {k: _public_text(k, v) for k, v in (
        ("service_code", service_code), ("description", description), ("address_string", address), ("email", email),
        ("first_name", first_name), ("last_name", last_name), ("phone", phone), ("lat", lat), ("long", long))}
    codes = [s["service_code"] for s in SERVICES]
    if values["service_code"] not in codes:
        refuse(f"service_code {values['service_code']!r} is not one of {', '.join(codes)}", field="service_code")
    if not values["description"]:
        refuse("description is required: what did you see, and where?", field="description")
    lat, long = _coordinate("lat", values["lat"], 90), _coordinate("long", values["long"], 180)
    if not values["address_string"] and (lat is None or long is None):
        refuse("a location is required: address_string, or lat and long", field="address_string")
    now = timezone.now()
    comp = Complaint(jurisdiction=jurisdiction, service_code=values["service_code"], description=values["description"],
                     address=values["address_string"], lat=lat, long=long, email=values["email"],
                     first_name=values["first_name"], last_name=values["last_name"], phone=values["phone"],
                     requested_at=now, updated_at=now)
    try:
        checked(comp)
    except PermitRefused as exc:  # name the fields as the public sees them
        raise PermitRefused.several({"address_string" if k == "address" else k: v for k, v in exc.errors.items()}) from None
    comp.save()
    audit_create(comp, action=f"public complaint received ({values['service_code']})")
    publish("complaint.received", complaint=comp)  # linked to the system at its address, or queued for staff
    return comp


@transaction.atomic
def complaint_close(*, complaint: Complaint, notes: str) -> Complaint:
    before = snapshot(complaint, ["status", "status_notes"])
    complaint.status, complaint.status_notes, complaint.updated_at = c.ComplaintStatus.CLOSED, notes, timezone.now()
    complaint.save()
    audit_update(complaint, before=before, action="complaint closed")
    return complaint
