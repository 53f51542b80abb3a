"""The county settings kept in the database, as the kernel's profile overlay (powts.kernel.profiles.Overlay).

One snapshot per process: the counties added without a profile folder and every county's stored settings,
read together on first use and kept until the version stamp moves. The stamp is the count and last id of
the settings' change history (one small query; every change and every county added writes a row), read
once per web request or job, on its first profile read (powts.kernel.profiles.check_soon).
"""
from __future__ import annotations

import threading

from django.db import DatabaseError, transaction
from django.db.models import Count, F, Max

from powts.jurisdictions import county_settings
from powts.kernel.profiles import PROFILES_DIR


def stamp() -> tuple:
    from powts.jurisdictions.models import CountySettingChange

    row = CountySettingChange.objects.aggregate(n=Count("id"), last=Max("id"))
    return row["n"], row["last"]


class DatabaseOverlay:
    def __init__(self):
        self._lock = threading.Lock()
        self._snapshot = None  # (stamp, units, layers by profile slug)

    def _read(self):
        snap = self._snapshot
        if snap is not None:
            return snap
        from powts.jurisdictions.models import CountySetting, Jurisdiction

        with self._lock:
            try:
                # a savepoint: a database without these tables yet leaves the caller's transaction usable
                with transaction.atomic():
                    seen = stamp()  # before the rows: a change in between is seen as a change next time
                    units = {}
                    for slug, name, profile_slug in Jurisdiction.objects.values_list("slug", "name", "profile_slug"):
                        if profile_slug == slug and not (PROFILES_DIR / slug / "profile.yaml").is_file():
                            units[slug] = {"name": name, "kind": "county"}
                    stored: dict[str, list] = {}
                    # settings belong to a county whose profile is its own, never to one sharing another's
                    rows = CountySetting.objects.filter(jurisdiction__profile_slug=F("jurisdiction__slug")).values_list(
                        "jurisdiction__slug", "key", "value", "citation")
                    for slug, key, value, citation in rows:
                        stored.setdefault(slug, []).append((key, value, citation))
            except (DatabaseError, RuntimeError):
                # no tables yet (before `migrate`), or no database here (a check run without one): the shipped
                # files alone, and nothing kept, so the next read asks again
                return (None, {}, {})
            layered = {slug: county_settings.layers_of(mine) for slug, mine in stored.items()}
            self._snapshot = snap = (seen, units, layered)
        return snap

    def units(self) -> dict[str, dict]:
        return self._read()[1]

    def settings(self, slug: str) -> dict:
        return self._read()[2].get(slug, {})

    def changed(self) -> bool:
        snap = self._snapshot
        return snap is not None and stamp() != snap[0]

    def forget(self) -> None:
        self._snapshot = None

