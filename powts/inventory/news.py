"""What the inventory does with other records' news (registered in InventoryConfig.ready).

Permits and reports are read through the objects the news carries: the inventory imports no app
built on it.
"""
from __future__ import annotations

from powts.core import news
from powts.inventory import lifecycle
from powts.inventory.choices import RETIRED_STATUSES, ComponentKind, SystemStatus, SystemType

# The permit's inspection system type -> the inventory's system type. "standard" is an in-ground
# system: pressure-dosed when the permit says it has pumps, gravity otherwise.
PERMIT_TYPES = {
    "standard": SystemType.CONVENTIONAL, "mound": SystemType.MOUND, "at_grade": SystemType.AT_GRADE,
    "sand_filter": SystemType.SAND_FILTER, "experimental": SystemType.EXPERIMENTAL,
    "site_built_holding_tank": SystemType.HOLDING_TANK,
}
# Plot plan features (powts.setbacks.plan.KINDS) that are components of the system.
PLAN_COMPONENTS = {"treatment_tank": ComponentKind.SEPTIC_TANK, "holding_tank": ComponentKind.HOLDING_TANK,
                   "dispersal_area": ComponentKind.DISPERSAL_CELL}
# The permit's nonplumbing kind -> the inventory's type (a privy is a pit privy unless the record already says vaulted).
NONPLUMBING_TYPES = {"portable_restroom": SystemType.PORTABLE_RESTROOM, "rv_transfer_container": SystemType.RV_TRANSFER_CONTAINER}
PRIVY_TYPES = {SystemType.PIT_PRIVY, SystemType.VAULTED_PRIVY}
DEFAULT_COMPONENTS = {SystemType.HOLDING_TANK: [ComponentKind.HOLDING_TANK],
                      SystemType.PIT_PRIVY: [], SystemType.VAULTED_PRIVY: [], SystemType.PORTABLE_RESTROOM: [],
                      SystemType.RV_TRANSFER_CONTAINER: []}


def _system_type(permit) -> str:
    features = [f.get("properties", {}).get("kind") for f in (permit.plot_plan or {}).get("features", []) if isinstance(f, dict)]
    # A nonplumbing permit (its kind, or its system type) installs the unit it names, never a septic system: its
    # servicing reports then count under the unit's own maintenance rule (the county's maintenance.yaml types).
    nonplumbing = getattr(permit, "nonplumbing_kind", "") or ""
    if nonplumbing or permit.system_type == "nonplumbing" or getattr(permit, "kind", "") == "nonplumbing":
        if nonplumbing in NONPLUMBING_TYPES:
            return NONPLUMBING_TYPES[nonplumbing]
        if "portable_restroom" in features:
            return SystemType.PORTABLE_RESTROOM
        return permit.system.system_type if permit.system_id and permit.system.system_type in PRIVY_TYPES else SystemType.PIT_PRIVY
    if permit.system_type == "standard" and permit.has_pumps:
        return SystemType.IN_GROUND_PRESSURE
    return PERMIT_TYPES.get(permit.system_type, SystemType.CONVENTIONAL)


def _components(permit, system_type: str) -> list[str]:
    if system_type in NONPLUMBING_TYPES.values() or system_type in PRIVY_TYPES:
        return []  # a unit, not a tank and field: its plot plan's features are where it stands
    kinds = []
    for feature in (permit.plot_plan or {}).get("features", []):
        kind = PLAN_COMPONENTS.get((feature.get("properties") or {}).get("kind")) if isinstance(feature, dict) else None
        if kind and kind not in kinds:
            kinds.append(kind)
    if not any(k in (ComponentKind.SEPTIC_TANK, ComponentKind.HOLDING_TANK) for k in kinds):
        kinds = DEFAULT_COMPONENTS.get(system_type, [ComponentKind.SEPTIC_TANK]) + kinds
    if permit.has_pumps and ComponentKind.DOSING_CHAMBER not in kinds:
        kinds.append(ComponentKind.DOSING_CHAMBER)
    if system_type not in DEFAULT_COMPONENTS and ComponentKind.DISPERSAL_CELL not in kinds:
        kinds.append(ComponentKind.DISPERSAL_CELL)
    return kinds


def _installed_on(permit, on):
    """The day the system passed its last inspection (the final inspection), else the approval day:
    no system is used before its inspection is accepted (the county's final-inspection rule, cited in its profile)."""
    days = [d for d in permit.inspections.filter(result="passed").values_list("inspected_on", flat=True) if d and d <= on]
    return max(days) if days else on


def on_permit_final_approved(*, permit, on) -> None:
    """Final approval: the system the permit installed is in the inventory, with its permit number;
    the system it replaced is marked replaced (its maintenance cycle and notices end with it). A replacement is
    the permit's own "replaces an existing system" answer, or its work words where older permits lack it."""
    replacing = bool(getattr(permit, "replaces_system", False)) or "replac" in (permit.work or "").lower()
    existing = replaces = None
    if permit.system_id and not replacing:
        existing = permit.system
    elif permit.system_id:
        replaces = permit.system
    elif replacing:  # the permit names no system: the one live system on the parcel, if there is exactly one
        live = list(permit.parcel.systems.exclude(status__in=RETIRED_STATUSES)[:2])
        replaces = live[0] if len(live) == 1 else None
    system_type = _system_type(permit)
    lifecycle.system_install(installation=lifecycle.Installation(
        jurisdiction=permit.jurisdiction, parcel=permit.parcel, permit_number=permit.number, system_type=system_type,
        installed_on=_installed_on(permit, on), cause=f"permit {permit.number}, final approval {on.isoformat()}",
        design_flow_gpd=permit.design_flow_gpd, bedrooms=permit.bedrooms, component_kinds=_components(permit, system_type),
        existing=existing, replaces=replaces), source=permit)


def on_failure_determined(*, determination) -> None:
    lifecycle.system_mark_failing(system=determination.system,
                                  cause=f"failure determination of {determination.determined_on.isoformat()}, "
                                        f"category {determination.category}")


def on_correction_order_corrected(*, order) -> None:
    """The order corrected clears the failing status, unless another order on the system is still open."""
    others = order.system.correction_orders.exclude(pk=order.pk).exclude(status="corrected")
    if not others.exists():
        lifecycle.system_clear_failing(system=order.system,
                                       cause=f"correction order of {order.issued_on.isoformat()} corrected on "
                                             f"{order.corrected_on.isoformat()}")


def on_abandonment_reported(*, report) -> None:
    if report.system_id:
        lifecycle.system_retire(system=report.system, status=SystemStatus.ABANDONED, source=report,
                                cause=f"final report of abandonment, work of {report.work_date.isoformat()}, "
                                      f"license {report.license.number}")


def register() -> None:
    news.subscribe("permit.final_approved", on_permit_final_approved)
    news.subscribe("failure.determined", on_failure_determined)
    news.subscribe("correction_order.corrected", on_correction_order_corrected)
    news.subscribe("abandonment.reported", on_abandonment_reported)
