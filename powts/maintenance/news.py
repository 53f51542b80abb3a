"""What the maintenance program does with the inventory's news (registered in MaintenanceConfig.ready)."""
from __future__ import annotations

from powts.core import news


def on_system_installed(*, system, replaced, source, cause) -> None:
    """A system installed (or rebuilt) under a permit starts a new cycle from its installation: no notice
    of the old due date follows it."""
    from powts.maintenance.services import schedule_refresh

    schedule_refresh(system=system, action=f"maintenance cycle restarted: {cause}")


def on_system_retired(*, system, source, cause) -> None:
    """A replaced or abandoned system leaves the program: no due date, no notice."""
    from powts.maintenance.services import schedule_refresh

    schedule_refresh(system=system, action=f"off the maintenance program: {cause}")


def register() -> None:
    news.subscribe("system.installed", on_system_installed)
    news.subscribe("system.retired", on_system_retired)
