"""The oversight section of the permit page (registered in OversightConfig.ready)."""
from __future__ import annotations

from powts.core.prepared import Prepared


def permit_hold(permit, user) -> dict | None:
    """County staff (and everyone who reads the permit) see why the county cannot issue it now."""
    from powts.oversight.services import standing_hold

    if permit.status not in ("applied", "held", "approved"):
        return None
    hold = standing_hold(permit.jurisdiction_id)
    return {"hold": hold} if hold is not None else None


def _audits_to_answer(unit_id, status):
    from powts.oversight.models import ProgramAudit

    return ProgramAudit.objects.filter(jurisdiction_id=unit_id, status=status).order_by("respond_by")[:10]


_audits_awaiting = Prepared(_audits_to_answer)  # compiled once: read on every visit to the dashboard


def dashboard_oversight(unit, user) -> dict:
    """The county dashboard: the department's audits awaiting the county's answer, and any hold on issuance."""
    from powts.oversight.choices import AuditStatus
    from powts.oversight.services import standing_hold

    return {"audits_to_answer": _audits_awaiting(unit.pk, AuditStatus.RESPONSE_REQUESTED.value),
            "issuance_hold": standing_hold(unit.pk)}
