"""County profiles as data: one folder per governmental unit, one YAML file per concern. No Django.

`load_profile(<unit>)` gives `profile.yaml`'s top-level keys plus each other file under its stem
(`calendar.yaml` -> profile["calendar"]), each resolved by the one rule of layers (`resolve`):

- a concern the county has no file for is the state minimum's;
- a county file without `extends: state` replaces the state's whole;
- a county file with `extends: state` is laid over the state's by `combine`: the keys it does not
  name are the state's; a key it names (`key:`) replaces the state's value whole; only a key marked
  `key+:` combines: a mapping with the state's mapping, by this same rule one level down; a list
  with the state's list (an item with the `id`, else `name`, of one of the state's replaces it, the
  others are added); `key-: [ids or names]` takes items out of the state's list.

So nothing is merged unless the file says so, and a cited entry the county restates never keeps
half of the state's (its citation, quote or `outside_texts` mark). What a reader then does with the
result is its law's rule (the stricter setback governs...), not an inheritance rule.

A county's own settings, changed by its administrator and kept outside the code tree (the database),
come in through an `Overlay` (`set_overlay`): a county the department added has no folder and stands on
the state minimum; the settings are laid over the files by the same `combine` as a last layer. Every
cached reader of a profile is `profile_cached`, so `refresh()` forgets them all at once; `check_soon()`
(each web request, each job) makes the next read ask the overlay whether anything changed since.
"""
from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from contextvars import ContextVar
from pathlib import Path
from typing import Protocol

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


class Overlay(Protocol):
    """Settings kept outside the code tree (powts.jurisdictions.overlay reads them from the database)."""

    def units(self) -> dict[str, dict]:
        """Units with no profile folder (on the state minimum): slug -> their identity (name, kind)."""

    def settings(self, slug: str) -> dict[str, Callable[[dict], dict]]:
        """A unit's own settings as layers: concern -> a function from the files' data to the data with the
        settings laid over it (most by `combine`)."""

    def changed(self) -> bool:
        """Cheap: has any setting or unit changed since what this process read?"""

    def forget(self) -> None:
        """Drop what was read; the next call reads afresh."""


_overlay: Overlay | None = None
_cached: list = []  # every profile_cached reader, forgotten together by refresh()
_unchecked: ContextVar[bool] = ContextVar("powts_profiles_unchecked", default=False)


def profile_cached(fn):
    """functools.cache for a reader of profiles, forgotten by `refresh()` and checked after `check_soon()`."""
    cached = functools.cache(fn)
    _cached.append(cached)

    @functools.wraps(fn)
    def read(*args, **kwargs):
        if _unchecked.get():
            _unchecked.set(False)
            if _overlay is not None and _overlay.changed():
                refresh()
        return cached(*args, **kwargs)

    read.cache_clear = cached.cache_clear
    return read


def refresh() -> None:
    """Forget every profile read so far (files stay read; the overlay is asked again)."""
    for cached in _cached:
        cached.cache_clear()
    if _overlay is not None:
        _overlay.forget()


def set_overlay(source: Overlay | None) -> None:
    global _overlay
    _overlay = source
    refresh()


def check_soon():
    """The next profile read first asks the overlay whether anything changed (one cheap read); returns the
    token for `ContextVar.reset` (a request resets it when it ends)."""
    return _unchecked.set(True)


def check_done(token) -> None:
    """The end of what `check_soon` began (a request's or a job's)."""
    _unchecked.reset(token)


def _settings(slug: str) -> dict[str, Callable[[dict], dict]]:
    return _overlay.settings(slug) if _overlay is not None else {}


def available() -> list[str]:
    """The units shipped as folders (the state minimum, the example counties)."""
    return sorted(p.name for p in PROFILES_DIR.iterdir() if (p / "profile.yaml").is_file())


def _folder(slug: str) -> Path | None:
    """The unit's folder; None for a unit added without one (it stands on the state minimum)."""
    folder = PROFILES_DIR / slug
    if (folder / "profile.yaml").is_file():
        return folder
    units = _overlay.units() if _overlay is not None else {}
    if slug in units:
        return None
    raise ProfileError(f"unknown jurisdiction {slug!r}; known: {', '.join(sorted({*available(), *units}))}")


def _known(slug: str) -> Path:
    return _folder(slug) or PROFILES_DIR / STATE_MINIMUM


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
    folder = _folder(slug)
    if folder is None and slug != STATE_MINIMUM:
        return None
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


def _identity(item) -> object:
    if isinstance(item, dict):
        return item.get("id", item.get("name"))
    return item


def combine(state: dict, own: dict, where: str = "") -> dict:
    """`own` laid over `state` by the one rule (see the module's docstring); `extends` is dropped."""
    out = copy.deepcopy(dict(state))
    for key, value in own.items():
        if key == "extends":
            continue
        if not (isinstance(key, str) and key.endswith(("+", "-"))):
            out[key] = copy.deepcopy(value)  # a value the county names replaces the state's whole
            continue
        name, op = key[:-1], key[-1]
        base = out.get(name)
        file, at = where.strip() or "profile", f"{key}:"
        if op == "+" and isinstance(value, dict) and isinstance(base if base is not None else {}, dict):
            out[name] = combine(base or {}, value, where)
        elif isinstance(value, list) and isinstance(base if base is not None else [], list):
            base = base or []
            if op == "+":
                mine = {_identity(v): v for v in value if _identity(v) is not None}
                kept = [mine.pop(_identity(b)) if _identity(b) in mine else b for b in base]
                out[name] = copy.deepcopy(kept + [v for v in value if _identity(v) is None or _identity(v) in mine])
            else:
                unknown = [v for v in value if v not in {_identity(b) for b in base}]
                if unknown:
                    raise ProfileError(file, line_of(own), f"{at} names {unknown} that the state's {name!r} does not have")
                out[name] = [b for b in base if _identity(b) not in value]
        else:
            raise ProfileError(file, line_of(own), f"{at} '{op}' combines a list with the state's list, or ('+') a "
                                                   f"mapping with the state's mapping; the state's {name!r} is "
                                                   f"{type(base).__name__ if base is not None else 'missing'}")
    return out


def resolve(slug: str, concern: str) -> tuple[dict, str]:
    """(the data that governs `slug` for a concern, the slug whose file it mainly is): the state's where
    the county has no file, the county's alone, or the county's combined with the state's (`extends`)."""
    own, slug_of, state = governing(slug, concern)
    if slug_of == slug and own.get("extends"):
        data = combine(state or {}, own, f"{slug}/{concern}.yaml ")
    else:
        data = own
    mine = _settings(slug).get(concern) if slug != STATE_MINIMUM else None
    if mine:  # the county's own settings, the last layer
        data = mine(data)
    return data, slug_of


def concerns(slug: str) -> list[str]:
    names = {p.stem for p in _known(slug).glob("*.yaml")} | {p.stem for p in _known(STATE_MINIMUM).glob("*.yaml")}
    return sorted(names - {"profile"})


@profile_cached
def load_profile(slug: str) -> dict:
    """The profile of `slug`: its identity and, per concern, its own file or else the state's; a unit added
    without a folder is the state minimum under its own name; its own settings are laid over the files."""
    folder = _folder(slug)
    own_top = read_file(folder / "profile.yaml") if folder is not None else None
    if slug == STATE_MINIMUM:
        merged = dict(own_top)
    else:
        state_top = read_file(_known(STATE_MINIMUM) / "profile.yaml")
        if own_top is None:  # the state minimum's law governs it: the state's ordinance and agency stand
            merged = dict(state_top)
            merged.update(_overlay.units()[slug], slug=slug)
        else:
            merged = {k: v for k, v in state_top.items() if k not in IDENTITY_KEYS}
            merged.update(own_top)
        mine = _settings(slug).get("profile")
        if mine:
            merged = mine(merged)
    for concern in concerns(slug):
        own, state = layers(slug, concern)
        merged[concern] = resolve(slug, concern)[0] if (own or state) is not None else {}
    return merged

