"""County profiles live here as data (one folder per unit); they are read by `powts.kernel.profiles`.

Kept as an import path for callers: `load_profile`, `ProfileError`, `available`, `PROFILES_DIR`.
"""
from __future__ import annotations

from powts.kernel.profiles import (  # noqa: F401
    PROFILES_DIR,
    STATE_MINIMUM,
    ProfileError,
    available,
    layers,
    load_profile,
)
