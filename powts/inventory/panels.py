"""Sections other apps add to the system page (maintenance, permits), registered in their AppConfig.ready
(powts.core.registry) so the inventory does not import the apps built on top of it."""
from __future__ import annotations

from django.template.loader import render_to_string

from powts.core import registry


def system_panels(system, request) -> list[str]:
    """The HTML of each registered system panel: its template rendered with `target(system)`."""
    return [render_to_string(e.template, e.target(system), request=request) for e in registry.entries("system_panel")]
