"""Reads for a county's settings page: each setting's value now, its stored citation, and the change history."""
from __future__ import annotations

from powts.jurisdictions.county_settings import SETTINGS
from powts.jurisdictions.models import CountySetting, CountySettingChange

HISTORY = 50


def settings_page(*, jurisdiction) -> dict:
    stored = {s.key: s for s in CountySetting.objects.filter(jurisdiction=jurisdiction).select_related("changed_by")}
    profile = jurisdiction.profile
    rows = [{"setting": s, "shown": s.shown(profile), "stored": stored.get(key)} for key, s in SETTINGS.items()]
    history = [{"change": c, "label": SETTINGS[c.key].label if c.key in SETTINGS else "County set up"}
               for c in CountySettingChange.objects.filter(jurisdiction=jurisdiction).select_related("by")[:HISTORY]]
    return {"rows": rows, "history": history, "shares_profile": jurisdiction.profile_slug != jurisdiction.slug}


def setting_current(*, jurisdiction, key: str) -> dict:
    """The value a settings form starts from: the county's stored one, else what its profile holds now."""
    row = CountySetting.objects.filter(jurisdiction=jurisdiction, key=key).first()
    value = row.value if row else SETTINGS[key].initial(jurisdiction.profile)
    return {**value, "citation": row.citation if row else ""}
