"""One registry for what apps built on the inventory add to it, filled in each app's `AppConfig.ready`:

- "system_panel": a section of the inventory's system page: `target(system) -> context`, rendered with `template`;
- "after_import": work that follows a committed inventory import: `target(jurisdiction=...) -> summary`;
- "demo_loader": the app's demo records for `powts demo`: `target(jurisdiction) -> summary`;
- "dashboard_panel": a list on the county dashboard: `target(jurisdiction, user) -> context`, rendered with `template`;
- "permit_panel": a section of the permit page: `target(permit, user) -> context` (None: nothing to show), rendered with `template`.

One kind of registration for all three (`register`), so the inventory and the core never import the apps
built on them (NetBox's registry, kept to what powts needs). Entries are kept in `order`, then by label.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

KINDS = ("system_panel", "after_import", "demo_loader", "dashboard_panel", "permit_panel")


@dataclass(frozen=True)
class Entry:
    kind: str
    label: str
    target: Callable
    template: str = ""
    order: int = 100


_entries: dict[str, dict[str, Entry]] = {kind: {} for kind in KINDS}


def register(kind: str, label: str, target: Callable, *, template: str = "", order: int = 100) -> Entry:
    """Add (or, for the same kind and label, replace: `ready` may run twice in tests) an entry."""
    if kind not in KINDS:
        raise ValueError(f"unknown registry kind {kind!r}; one of {', '.join(KINDS)}")  # a programming error
    if kind in ("system_panel", "dashboard_panel", "permit_panel") and not template:
        raise ValueError(f"panel {label!r} needs its template")
    entry = Entry(kind=kind, label=label, target=target, template=template, order=order)
    _entries[kind][label] = entry
    return entry


def entries(kind: str) -> list[Entry]:
    return sorted(_entries[kind].values(), key=lambda e: (e.order, e.label))
