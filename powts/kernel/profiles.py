"""County profiles as data: one folder per governmental unit, one YAML file per concern. No Django.

`load_profile(<unit>)` gives `profile.yaml`'s top-level keys plus each other file under its stem
(`calendar.yaml` -> profile["calendar"]). Inheritance has one direction and one depth: a county's
file for a concern is laid over the state minimum's file of the same name, never over another
county's. A concern the county has no file for is the state's. `extends`, where a file has it,
may only name the state minimum; the concern's reader then combines the two layers by the rule
its texts give (the stricter setback, holidays matched by name, ...), reading them from `layers`.
"""
from __future__ import annotations

import copy
import functools
from pathlib import Path

from .cited import line_of, read_yaml
from .errors import DataFileError

PROFILES_DIR = Path(__file__).resolve().parent.parent / "jurisdictions" / "profiles"
STATE_MINIMUM = "state"
# keys of profile.yaml that name the unit itself and so are never inherited
IDENTITY_KEYS = frozenset({"slug", "name", "kind", "ordinance", "agency"})


class ProfileError(DataFileError):
    """A profile that is missing or wrong; the message names file and line where there is one."""

    def __init__(self, where: Path | str, line: int | None = None, problem: str | None = None):
        if problem is None:  # a plain message (an unknown county, say): no file to name
            self.path, self.line, self.problem = "", None, str(where)
            ValueError.__init__(self, str(where))
        else:
            super().__init__(where, line, problem)


def available() -> list[str]:
    return sorted(p.name for p in PROFILES_DIR.iterdir() if (p / "profile.yaml").is_file())


def _known(slug: str) -> Path:
    folder = PROFILES_DIR / slug
    if not (folder / "profile.yaml").is_file():
        raise ProfileError(f"unknown jurisdiction {slug!r}; known: {', '.join(available())}")
    return folder


@functools.cache
def read_file(path: Path) -> dict:
    """One profile file, its mappings carrying their line numbers; an empty file is an empty mapping."""
    try:
        data = read_yaml(path)
    except DataFileError as exc:
        raise ProfileError(exc.path, exc.line, exc.problem) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ProfileError(path, None, "expected a mapping at the top level")
    return data


def own_concern(slug: str, concern: str) -> dict | None:
    """`slug`'s own file for `concern`, or None when it has none (no inheritance applied)."""
    path = _known(slug) / f"{concern}.yaml"
    if not path.is_file():
        return None
    data = read_file(path)
    base = data.get("extends")
    if base is not None and (slug == STATE_MINIMUM or base != STATE_MINIMUM):
        raise ProfileError(path, line_of(data), f"extends: {base!r}: a county file may extend only the state "
                                                f"minimum ({STATE_MINIMUM!r}), and the state extends nothing")
    return data


def layers(slug: str, concern: str) -> tuple[dict | None, dict | None]:
    """(county's own file, state minimum's file) for a concern; the county's is None for the state."""
    state = own_concern(STATE_MINIMUM, concern)
    return (None, state) if slug == STATE_MINIMUM else (own_concern(slug, concern), state)


def governing(slug: str, concern: str) -> tuple[dict, str, dict | None]:
    """(the file that governs `slug` for a concern, the slug it belongs to, the state minimum's file): the
    county's own, or the state's where the county has none."""
    own, state = layers(slug, concern)
    if own is not None:
        return own, slug, state
    if state is None:
        raise ProfileError(f"jurisdiction {slug!r} has no {concern}.yaml")
    return state, STATE_MINIMUM, state


def overlay(base: dict, over: dict) -> dict:
    """`over` laid on `base` key by key: mappings merge, anything else in `over` replaces."""
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = overlay(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def concerns(slug: str) -> list[str]:
    names = {p.stem for p in _known(slug).glob("*.yaml")} | {p.stem for p in _known(STATE_MINIMUM).glob("*.yaml")}
    return sorted(names - {"profile"})


@functools.cache
def load_profile(slug: str) -> dict:
    """The profile of `slug`: its identity and, per concern, its own file or else the state's."""
    own_top = read_file(_known(slug) / "profile.yaml")
    if slug == STATE_MINIMUM:
        merged = dict(own_top)
    else:
        state_top = read_file(_known(STATE_MINIMUM) / "profile.yaml")
        merged = {k: v for k, v in state_top.items() if k not in IDENTITY_KEYS}
        merged.update(own_top)
    for concern in concerns(slug):
        own, state = layers(slug, concern)
        merged[concern] = own if own is not None else (state or {})
    return merged

