"""The permits section of the inventory's system page (registered in PermitsConfig.ready)."""


def system_context(system) -> dict:
    return {"system": system, "system_permits": list(system.permits.order_by("-id")[:20])}
