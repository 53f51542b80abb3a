"""The one table of oversight actions, used by the pages (views.py) and the API (api/views.py) alike: for each,
what it acts on, who may run it (powts.oversight.policies) and how its inputs are read (powts.core.fields)
before the service runs. A refused input or move is a Refused, mapped once by the page and once by the API."""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.utils import timezone

from powts.core import fields
from powts.oversight import policies, services
from powts.oversight.errors import OversightRefused


def _date(data, name, *, default_today=True, required=False):
    raw = data.get(name)
    if fields.blank(raw):
        if required:
            raise fields.FieldError(name, f"{name} is required")
        return timezone.localdate() if default_today else None
    return fields.date(name, raw, latest=fields.LATEST_DATE)


def _text(data, name, required=False, max_length=4000):
    return fields.text(name, data.get(name), max_length=max_length, required=required)


def _lines(data, name) -> list[str]:
    raw = data.get(name)
    if isinstance(raw, (list, tuple)):
        return [str(x) for x in raw]
    return [x for x in str(raw or "").splitlines() if x.strip()]


def _ids(data, name) -> list[int]:
    raw = data.get(name)
    items = raw if isinstance(raw, (list, tuple)) else str(raw or "").replace(",", " ").split()
    if len(items) > 500:
        raise fields.FieldError(name, f"{name}: at most 500")
    return [fields.integer(name, x, minimum=1, maximum=2 ** 62, required=True) for x in items]


def _county(target):
    return getattr(target, "jurisdiction_id", None) or getattr(target, "pk", None)


@dataclass(frozen=True)
class Action:
    name: str
    target: str  # what the URL names: jurisdiction, audit, sample, hold, exemption, flag, referral, report, license, inspection
    policy: Callable  # (user, target) -> bool
    run: Callable  # (target, data, user) -> the record written


def _draw_fields(d) -> dict:
    """The period, the day and the seed of a draw (the department's audit sample, a county's random inspection)."""
    seed = d.get("seed")
    return {"period_start": _date(d, "period_start", required=True), "period_end": _date(d, "period_end", required=True),
            "on": _date(d, "on"),
            "seed": None if fields.blank(seed) else fields.integer("seed", seed, minimum=0, maximum=2 ** 62 - 1)}


def _draw(unit, d, user):
    return services.audit_draw_sample(jurisdiction=unit, **_draw_fields(d))


def _flag_new(report, d, user):
    return services.report_flag(report=report, reason=_text(d, "reason", required=True, max_length=2000),
                                evidence=_lines(d, "evidence"), on=_date(d, "on"))


def _flag_application(permit, d, user):
    """Who made the error: "plumber" (the application's plumber) or "soil_tester" (its soil evaluation's tester)."""
    by = _text(d, "by", max_length=20) or "plumber"
    if by not in ("plumber", "soil_tester"):
        raise OversightRefused(f"by {by!r} is not one of plumber, soil_tester", field="by")
    license = permit.plumber if by == "plumber" else (permit.soil_evaluation.soil_tester if permit.soil_evaluation_id else None)
    if license is None:
        raise OversightRefused(f"permit {permit.number} names no {by.replace('_', ' ')}", field="by")
    return services.application_flag(permit=permit, license=license, reason=_text(d, "reason", required=True, max_length=2000),
                                     evidence=_lines(d, "evidence"), on=_date(d, "on"))


def _category(_unit, d, user):
    return services.category_specify(name=_text(d, "name", required=True, max_length=200),
                                     system_types=d.getlist("system_types") if hasattr(d, "getlist") else _lines(d, "system_types"),
                                     above_gpd=d.get("above_gpd"), on=_date(d, "on"))


def _approve(permit, d, user):
    from powts.oversight.models import ApprovalCategory

    cid = fields.integer("category", d.get("category"), minimum=1, maximum=2 ** 62, required=True)
    category = ApprovalCategory.objects.filter(pk=cid).first()
    if category is None:
        raise OversightRefused(f"no category {cid}", field="category")
    return services.department_approve(permit=permit, category=category, on=_date(d, "on"),
                                       reference=_text(d, "reference", max_length=100))


def _refer(license, d, user):
    from powts.oversight.models import ReportFlag

    ids = _ids(d, "flags")
    flags = list(ReportFlag.objects.filter(pk__in=ids, jurisdiction_id=user.jurisdiction_id).select_related("report", "permit"))
    if len(flags) != len(set(ids)):
        raise OversightRefused("one of the flags is not a flag of your county", field="flags")
    return services.referral_make(license=license, flags=flags, on=_date(d, "on"), note=_text(d, "note"))


def _assess(unit, d, user):
    from powts.permits.models import CorrectionOrder

    order_id = d.get("order")
    order = None
    if not fields.blank(order_id):
        order = CorrectionOrder.objects.filter(pk=fields.integer("order", order_id, minimum=1, maximum=2 ** 62),
                                               jurisdiction=unit).select_related("system").first()
        if order is None:
            raise OversightRefused(f"order {order_id} is not an order of {unit.name}", field="order")
    return services.assessment_record(
        jurisdiction=unit, parcel_number=d.get("parcel_number"), order=order, cost=d.get("cost"),
        work_done_on=_date(d, "work_done_on", required=True), work=_text(d, "work", required=True, max_length=300),
        authority_kind=_text(d, "authority_kind", required=True, max_length=10),
        authority_name=_text(d, "authority_name", max_length=200), on=_date(d, "on"), tax_year=d.get("tax_year"))


def _reassign(inspection, d, user):
    from powts.accounts.models import User

    uid = fields.integer("to_user", d.get("to_user"), minimum=1, maximum=2 ** 62, required=True)
    to_user = User.objects.filter(pk=uid).first()
    if to_user is None:
        raise OversightRefused(f"no person {uid}", field="to_user")
    return services.conflict_reassign(inspection=inspection, to_user=to_user, reason=_text(d, "reason", required=True))


def _draw_applications(unit, d, user):
    from powts.oversight import random_inspections

    return random_inspections.draw(jurisdiction=unit, **_draw_fields(d))


def _inspect_application(item, d, user):
    from powts.oversight import random_inspections

    return random_inspections.inspect(
        item=item, outcome=_text(d, "outcome", required=True, max_length=20), inspected_on=_date(d, "inspected_on"),
        findings=_text(d, "findings", max_length=2000), by=_text(d, "by", max_length=20) or "plumber",
        evidence=_lines(d, "evidence"))


DEPT = lambda user, target: policies.is_department(user)  # noqa: E731
COUNTY = lambda user, target: policies.can_flag(user, _county(target))  # noqa: E731

ACTIONS: dict[str, Action] = {a.name: a for a in [
    Action("draw", "jurisdiction", DEPT, _draw),
    Action("verify", "sample", DEPT, lambda s, d, u: services.sample_verify(
        sample=s, outcome=_text(d, "outcome", required=True, max_length=20), verified_on=_date(d, "verified_on"),
        findings=_text(d, "findings"))),
    Action("request", "audit", DEPT, lambda a, d, u: services.audit_request_response(
        audit=a, on=_date(d, "on"), request_text=_text(d, "request_text", required=True),
        respond_by=_date(d, "respond_by", default_today=False))),
    Action("respond", "audit", lambda u, a: policies.answers_for(u, a.jurisdiction_id), lambda a, d, u: services.audit_respond(
        audit=a, on=_date(d, "on"), response_text=_text(d, "response_text", required=True))),
    Action("close", "audit", DEPT, lambda a, d, u: services.audit_close(audit=a, on=_date(d, "on"),
                                                                          note=_text(d, "note", required=True))),
    Action("hold", "jurisdiction", DEPT, lambda j, d, u: services.hold_place(
        jurisdiction=j, on=_date(d, "on"), reason=_text(d, "reason", required=True, max_length=2000))),
    Action("lift", "hold", DEPT, lambda h, d, u: services.hold_lift(hold=h, on=_date(d, "on"),
                                                                      note=_text(d, "note", required=True))),
    Action("exempt", "jurisdiction", DEPT, lambda j, d, u: services.exemption_grant(
        jurisdiction=j, category=_text(d, "category", required=True, max_length=200),
        grounds=_text(d, "grounds", required=True), on=_date(d, "on"))),
    Action("hearing", "exemption", DEPT, lambda e, d, u: services.exemption_hearing_notice(
        exemption=e, noticed_on=_date(d, "noticed_on"), hearing_on=_date(d, "hearing_on", required=True),
        clerk=_text(d, "clerk", required=True, max_length=200))),
    Action("revoke", "exemption", DEPT, lambda e, d, u: services.exemption_revoke(
        exemption=e, on=_date(d, "on"), grounds=_text(d, "grounds", required=True))),
    Action("flag", "report", COUNTY, _flag_new),
    Action("flag-application", "permit", COUNTY, _flag_application),
    Action("category", "state", DEPT, _category),
    Action("department-approve", "permit", DEPT, _approve),
    Action("detect", "jurisdiction", COUNTY, lambda j, d, u: services.flags_detect(jurisdiction=j, on=_date(d, "on"))),
    Action("evidence", "flag", COUNTY, lambda f, d, u: services.flag_add_evidence(
        flag=f, what=_text(d, "what", required=True, max_length=1000), on=_date(d, "on"))),
    Action("dismiss", "flag", COUNTY, lambda f, d, u: services.flag_dismiss(flag=f, note=_text(d, "note", required=True))),
    Action("refer", "license", lambda u, lic: policies.opens_flags(u), _refer),
    Action("outcome", "referral", COUNTY, lambda r, d, u: services.referral_outcome(
        referral=r, outcome=_text(d, "outcome", required=True, max_length=20), on=_date(d, "on"), note=_text(d, "note"))),
    Action("assess", "jurisdiction", COUNTY, _assess),
    Action("draw-applications", "jurisdiction", COUNTY, _draw_applications),
    Action("inspect-application", "sampled application",
           lambda u, item: policies.can_flag(u, item.sample.jurisdiction_id), _inspect_application),
    Action("reassign", "inspection", lambda u, i: policies.can_reassign(u, i.permit.jurisdiction_id), _reassign),
]}


def perform(name: str, *, user, target, data):
    action = ACTIONS[name]
    if not action.policy(user, target):
        raise PermissionDenied("You may not do this.")
    return action.run(target, data, user)


def today() -> dt.date:
    return timezone.localdate()
