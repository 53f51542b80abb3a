"""County profiles as data: one folder per governmental unit, one YAML file per concern.

No Django imports: the rules code and the command line load profiles without the web app.
`load_profile("dane")` merges `profiles/dane/*.yaml`; `profile.yaml` gives the top-level keys and
every other file is merged under its own stem (`calendar.yaml` -> profile["calendar"]), so each
domain owns its own file. A county without a file for a concern inherits the state minimum's.
"""
from __future__ import annotations

import functools
from pathlib import Path

import yaml

PROFILES_DIR = Path(__file__).resolve().parent
STATE_MINIMUM = "state"


class ProfileError(ValueError):
    """A profile that is missing or does not parse; the message names the file."""


def available() -> list[str]:
    return sorted(p.name for p in PROFILES_DIR.iterdir() if (p / "profile.yaml").is_file())


def _read(path: Path) -> dict:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        raise ProfileError(f"{where}: not valid YAML ({getattr(exc, 'problem', exc)})") from exc
    if not isinstance(data, dict):
        raise ProfileError(f"{path}: expected a mapping at the top level")
    return data


def _folder(slug: str) -> dict:
    folder = PROFILES_DIR / slug
    if not (folder / "profile.yaml").is_file():
        raise ProfileError(
            f"unknown jurisdiction {slug!r}; known: {', '.join(available())}"
        )
    merged = _read(folder / "profile.yaml")
    for path in sorted(folder.glob("*.yaml")):
        if path.name != "profile.yaml":
            merged[path.stem] = _read(path)
    return merged


@functools.cache
def load_profile(slug: str) -> dict:
    """The merged profile for `slug`: its own files over the state minimum's."""
    own = _folder(slug)
    if slug == STATE_MINIMUM:
        return own
    base = _folder(STATE_MINIMUM)
    merged = {k: v for k, v in base.items() if k not in {"slug", "name", "kind", "ordinance", "agency"}}
    merged.update(own)
    return merged
