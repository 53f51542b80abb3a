"""Sections other apps add to the system page (maintenance, permits), named in settings so the
inventory does not import the apps built on top of it."""
from __future__ import annotations

from django.conf import settings
from django.template.loader import render_to_string
from django.utils.module_loading import import_string


def system_panels(system, request) -> list[str]:
    """The HTML of each panel in settings.POWTS_SYSTEM_PANELS: (template, "module.function(system)")."""
    return [
        render_to_string(template, import_string(context_path)(system), request=request)
        for template, context_path in getattr(settings, "POWTS_SYSTEM_PANELS", [])
    ]
