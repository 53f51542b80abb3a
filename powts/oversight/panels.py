"""The oversight section of the permit page (registered in OversightConfig.ready)."""
from __future__ import annotations


def permit_hold(permit, user) -> dict | None:
    """County staff (and everyone who reads the permit) see why the county cannot issue it now."""
    from powts.oversight.services import standing_hold

    if permit.status not in ("applied", "held", "approved"):
        return None
    hold = standing_hold(permit.jurisdiction_id)
    return {"hold": hold} if hold is not None else None
