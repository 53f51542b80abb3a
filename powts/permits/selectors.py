"""Reads: the rows a user may see, and what a permit lacks, owes or still needs (no writes here)."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.shortcuts import get_object_or_404

from powts.calendars import required_stages
from powts.permits import choices as c
from powts.permits import rules
from powts.permits.models import Inspection, Invoice, Permit

ZERO = Decimal("0.00")


def permit_list(*, user):
    return Permit.objects.restrict(user, "view").select_related("jurisdiction", "parcel", "owner", "plumber")


def permit_get(*, user, pk: int) -> Permit:
    return get_object_or_404(permit_list(user=user), pk=pk)


def inspection_get(*, user, pk: int) -> Inspection:
    return get_object_or_404(Inspection.objects.select_related("permit__jurisdiction", "permit__plumber")
                             .filter(permit__in=permit_list(user=user)), pk=pk)


def jurisdiction_slugs() -> list[str]:
    """The counties on record, by slug (what a public form or Open311's jurisdiction_id may name)."""
    from powts.jurisdictions.models import Jurisdiction

    return list(Jurisdiction.objects.order_by("slug").values_list("slug", flat=True))


def complaint_jurisdiction(slug):
    """The county a public complaint names by slug, or None. Anything but a short text without NUL is None
    before it reaches the database (PostgreSQL refuses NUL in text: that was a 500)."""
    from powts.jurisdictions.models import Jurisdiction

    if not isinstance(slug, str) or not slug or len(slug) > 50 or "\x00" in slug:
        return None
    return Jurisdiction.objects.filter(slug=slug).first()


def unpaid_invoices(permit: Permit):
    return [i for i in permit.invoices.exclude(status=c.InvoiceStatus.VOID) if i.balance > ZERO]


def setback_violation_count(result: dict) -> int:
    """Results stored before the count was kept list every violation."""
    return result.get("violation_count", len(result.get("violations", [])))


def _attr(permit: Permit, path: str):
    if path.startswith("documents."):
        return permit.documents.filter(kind=path.split(".", 1)[1]).exists()
    value = permit
    for part in path.split("."):
        value = getattr(value, part, None)
        if value is None:
            return None
    return value


def holds(permit: Permit, condition: str) -> bool:
    """A profile condition on a permit: a field that is set ("holding_tank") or a field with a value
    ("nonplumbing_kind=privy")."""
    if "=" in condition:
        field, value = condition.split("=", 1)
        return str(_attr(permit, field.strip()) or "") == value.strip()
    return _attr(permit, condition) not in (None, "", False)


def recordings(permit: Permit) -> list[dict]:
    """The documents this permit must have recorded with the register of deeds (the profile's recorded_documents
    whose facts hold, and an application requirement asking for verified recordings), each with the document
    on file, whether staff verified its recording, and the step it must be verified before."""
    wanted = [{"id": r["id"], "label": r["label"], "citation": r["citation"], "kind": r["document"], "before": r["before"]}
              for r in rules.recorded_documents(permit.slug) if any(holds(permit, x) for x in r["applies_if_any"])]
    for req in rules.permit_rules(permit.slug).get("application_requirements") or []:
        if req.get("recording_verified") and (not req.get("applies_if") or holds(permit, req["applies_if"])):
            wanted.append({"id": req["id"], "label": req["label"], "citation": req["citation"], "kind": req["document"],
                           "before": "approve"})
    docs = list(permit.documents.all())
    for w in wanted:
        of_kind = [d for d in docs if d.kind == w["kind"]]
        verified = [d for d in of_kind if d.recording_verified_on]
        w["document"] = (verified or of_kind or [None])[0]
        w["verified"] = bool(verified)
    return wanted


def unverified_recordings(permit: Permit, step: str) -> list[dict]:
    """The recordings that must be verified before `step` (approve or issue) and are not yet; for issue, those
    due before approval count too."""
    steps = {"approve": ("approve",), "issue": ("approve", "issue")}[step]
    return [r for r in recordings(permit) if r["before"] in steps and not r["verified"]]


def missing_items(permit: Permit) -> list[dict]:
    """What the application lacks, each item with its label and citation (empty when complete)."""
    out = []
    for req in rules.permit_rules(permit.slug).get("application_requirements") or []:
        cond = req.get("applies_if")
        if cond and not holds(permit, cond):
            continue
        if "field" in req:
            ok = _attr(permit, req["field"]) not in (None, "", False)
        elif "any_of" in req:
            ok = any(_attr(permit, p) not in (None, "", False) for p in req["any_of"])
        elif "document" in req:
            docs = permit.documents.filter(kind=req["document"])
            if req.get("recording_verified"):
                docs = docs.filter(recording_verified_on__isnull=False)
            ok = docs.exists()
        else:
            fee_invoices = permit.invoices.filter(fee_code=req["fee_paid"]).exclude(status=c.InvoiceStatus.VOID)
            ok = fee_invoices.exists() and all(i.balance <= ZERO for i in fee_invoices)
        if not ok:
            out.append({"id": req["id"], "label": req["label"], "citation": req["citation"]})
    return out


def overdue_invoices(*, jurisdiction, today: dt.date):
    """Open invoices past their due date (the fee schedule's due period; unpaid by then may be a violation)."""
    return [i for i in Invoice.objects.filter(jurisdiction=jurisdiction, status=c.InvoiceStatus.OPEN, due_on__lt=today)
            .select_related("permit")]


def stages_for(permit: Permit):
    return required_stages(permit.slug, permit.system_type)


def plan_check(*, plan, jurisdiction) -> dict:
    """The setback check of a plan not yet stored (the application form's preview): the result and the drawing.
    A plan that cannot be read is refused naming plot_plan; nothing is written."""
    from powts.permits.errors import PermitRefused
    from powts.permits.plot_files import in_feet
    from powts.setbacks import PlanError, check_plan, parse_plan, render_svg, rules_for

    plan = in_feet(plan, slug=jurisdiction.profile_slug, county=jurisdiction.name)
    try:
        parsed = parse_plan(plan)
    except PlanError as exc:
        raise PermitRefused(f"plot plan: {exc}", field="plot_plan") from None
    result = check_plan(parsed, rules_for(jurisdiction.profile_slug))
    return {"result": result.as_json(limit=200), "svg": render_svg(parsed, result), "features": len(parsed.features)}
def temporary_holding_tanks_ended(*, jurisdiction, today: dt.date):
    """Temporary holding tanks whose end date has passed: staff follow up (the permanent system or the sewer)."""
    return (Permit.objects.filter(jurisdiction=jurisdiction, holding_tank=True, temporary_until__lt=today,
                                  status__in=[c.PermitStatus.ISSUED, c.PermitStatus.SUSPENDED, c.PermitStatus.COMPLETED])
            .select_related("parcel", "owner").order_by("temporary_until"))


def late_contract_changes(*, jurisdiction):
    """Servicing contract changes filed after the county's period (marked late, kept for staff to act on)."""
    from powts.permits.models import PermitDocument

    return (PermitDocument.objects.filter(permit__jurisdiction=jurisdiction, kind="servicing_contract_change", late_days__gt=0)
            .select_related("permit").order_by("-received_on"))
