"""Load every parameter file and every county profile through every reader, once, at start-up.

No Django: the command line can run it too. A bad file is reported as "file:line: problem" and the
web application refuses to start (see apps.py) rather than run on it.
"""
from __future__ import annotations

from collections.abc import Callable


def _readers() -> list[tuple[str, Callable[[str], object]]]:
    # imported here so that a broken reader module is itself reported, not an import-time crash
    from powts.calendars.inspections import inspection_rules_for
    from powts.calendars.loading import calendar_for
    from powts.grants.letter_rules import letter_rules
    from powts.maintenance.profile import maintenance_profile
    from powts.oversight.profile import oversight_profile
    from powts.permits import rules as permit_rules
    from powts.setbacks.rules import rules_for

    return [
        ("calendar", calendar_for),
        ("inspections", inspection_rules_for),
        ("setbacks", rules_for),
        ("maintenance", maintenance_profile),
        ("permits", permit_rules.permit_rules),
        ("fees", permit_rules._schedules),
        ("grants", letter_rules),
        ("oversight", oversight_profile),
    ]


def first_problem(slug: str) -> str | None:
    """The first problem in one unit's profile as it loads now (its settings laid over its files), in words
    for the person who changed it: no file paths; None when every reader takes it."""
    from powts.kernel.profiles import load_profile

    for concern, read in [("profile", load_profile), *_readers()]:
        try:
            read(slug)
        except ValueError as exc:
            return str(getattr(exc, "problem", None) or exc)
    return None


def problems() -> list[str]:
    """Every problem found in the law parameters and the profiles, one line each; [] when all load."""
    from powts.kernel.profiles import available, load_profile
    from powts.law.engine import default_parameters

    found: list[str] = []
    try:
        default_parameters()  # cached: the first load, which every later reader then shares
    except ValueError as exc:
        found.append(f"law parameters: {exc}")
    for slug in available():
        try:
            load_profile(slug)
        except ValueError as exc:
            found.append(f"profile {slug}: {exc}")
            continue
        for concern, read in _readers():
            try:
                read(slug)
            except ValueError as exc:
                found.append(f"profile {slug} {concern}: {exc}")
    return found
