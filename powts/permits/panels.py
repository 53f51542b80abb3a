"""The permits section of the inventory's system page (see settings.POWTS_SYSTEM_PANELS)."""


def system_context(system) -> dict:
    return {"system": system, "system_permits": list(system.permits.order_by("-id")[:20])}
