"""The random audit of sanitary permits (Wis. Stat. s. 145.20(3)(b)): a sample the seed reproduces. No Django."""
from __future__ import annotations

import random
import secrets


def new_seed() -> int:
    return secrets.randbits(48)


def draw(ids: list[int], *, seed: int, size: int) -> list[int]:
    """`size` of `ids` (all of them when there are fewer), chosen by `seed`: the same seed and the same permits
    always give the same sample, whatever order the ids came in."""
    population = sorted(set(ids))
    return random.Random(seed).sample(population, min(size, len(population)))
