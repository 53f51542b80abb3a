"""Wisconsin's 72 counties (wisconsin_counties.yaml, cited): the names and slugs a county may be added under."""
from __future__ import annotations

import functools
from pathlib import Path

from powts.kernel.cited import read_yaml

COUNTIES_FILE = Path(__file__).resolve().parent / "wisconsin_counties.yaml"


@functools.cache
def wisconsin_counties() -> dict[str, str]:
    """slug -> name, in the file's order."""
    data = read_yaml(COUNTIES_FILE)
    return {str(c["slug"]): str(c["name"]) for c in data["counties"]}


def citation() -> str:
    return str(read_yaml(COUNTIES_FILE)["citation"])


def county_named(name: str) -> str | None:
    """The slug of the county `name` (written "NAME County", in any case, or NAME alone), None for no Wisconsin county."""
    wanted = " ".join(name.split()).casefold().removesuffix(" county")
    for slug, known in wisconsin_counties().items():
        if known.casefold().removesuffix(" county") == wanted:
            return slug
    return None
