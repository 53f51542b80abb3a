"""The county settings kept in the database, as the kernel's profile overlay (powts.kernel.profiles.Overlay).

One snapshot per process: the counties added without a profile folder and every county's stored settings,
read together on first use and kept until the version stamp moves. The stamp is a small file in the data
directory, replaced when a change commits (`touch_stamp`); each web request or job looks at it (one stat,
no query) on its first profile read (powts.kernel.profiles.check_soon). With several machines the data
directory is the one shared directory docs/deploy.md asks for, so every process on every machine sees it.
The report API's statements stay what they were: the check costs no database round trip.
"""
from __future__ import annotations

import logging
import os
import threading
import uuid
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import F

from powts.jurisdictions import county_settings
from powts.kernel.profiles import PROFILES_DIR


log = logging.getLogger(__name__)
STAMP_FILE = "county-settings.stamp"


def _stamp_path() -> Path:
    return Path(settings.DATA_DIR) / STAMP_FILE


def stamp() -> tuple | None:
    """The version stamp: the stamp file's identity and time (None before the first change)."""
    try:
        st = os.stat(_stamp_path())
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns, st.st_size


def touch_stamp() -> None:
    """Move the stamp (after a change commits): every process reads its profiles afresh on its next request."""
    path = _stamp_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{STAMP_FILE}.{uuid.uuid4().hex}")
        temporary.write_text(uuid.uuid4().hex + "\n", encoding="utf-8")
        os.replace(temporary, path)  # a new file: a new inode and time, seen at once by the other processes
    except OSError as exc:  # the change is stored; other processes see it when they next start
        log.warning("county settings changed, but the version stamp %s could not be written: %s", path, exc)


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

