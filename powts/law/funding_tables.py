"""SPS 387.30 grant funding tables: the table amount of a system from its components and design flow.

The amounts and flow bands are parameters (parameters/funding-tables-sps-387.30.yaml, cited to the
README's reference facts). A system's table amount is the sum over its components.
"""
from __future__ import annotations

import bisect

from .engine import Snapshot
from .explain import money
from .fields import FieldError


def flow_band(snap: Snapshot, design_flow_gpd: float) -> int:
    """0 for up to 300 gpd, 1 for 301-450, 2 for 451-600, 3 over 600 (upper bounds inclusive)."""
    return bisect.bisect_left(snap["flow_band_upper_gpd"], design_flow_gpd)


def band_label(snap: Snapshot, band: int) -> str:
    bounds = snap["flow_band_upper_gpd"]
    if band == 0:
        return f"up to {bounds[0]} gpd"
    if band == len(bounds):
        return f"over {bounds[-1]} gpd"
    return f"{bounds[band - 1] + 1}-{bounds[band]} gpd"


def table_amount_cents(snap: Snapshot, components: list[str], design_flow_gpd: float) -> tuple[int, str]:
    """Sum of the component amounts for the flow band, with a sentence showing the sum."""
    table = snap["component_amounts"]
    band = flow_band(snap, design_flow_gpd)
    parts = []
    total = 0
    for name in components:
        if name not in table:
            raise FieldError("components", f"{name!r} is not in the SPS 387.30 tables collected ({', '.join(sorted(table))})")
        cents = int(table[name][band] * 100)
        total += cents
        parts.append(f"{name} {money(cents)}")
    sentence = (f"Funding table amount for design flow {design_flow_gpd:g} gpd ({band_label(snap, band)}): "
                f"{' + '.join(parts)} = {money(total)} ({snap.cite('component_amounts')}).")
    return total, sentence
