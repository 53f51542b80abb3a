"""The values a well claim's choice fields take (s. 281.75(4)(a)-(b), (1)(g)-(h)), in one place for the
reading (wells.py) and the words (well_render.py). A batch holds each as its index in CLAIMANTS, USES or
KINDS (the last, "", where the field was not read): small integers, not a Python string per claim."""
from __future__ import annotations

CLAIMANT_TYPES = {"landowner", "lessee", "spouse", "dependent", "heir", "assign", "legal_representative",
                  "state_agency", "municipality"}
SUPPLY_USES = {"residential", "livestock"}
WELL_KINDS = {"drilled", "driven", "bored", "dug"}
CLAIMANTS = (*sorted(CLAIMANT_TYPES), "")
KINDS = (*sorted(WELL_KINDS), "")
USES = ("residential", "livestock", "")  # residential first: the batch asks "is it residential?" as use == 0
