"""The setback check: every governed pair of features in a plan, measured and compared.

Distances are computed with shapely's vectorised `distance` per rule (all subject features against
all object features at once), so a 50-feature plan takes well under a millisecond or two.
A distance below the minimum is a violation; exactly the minimum complies ("not less than").
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import math

import numpy as np
import shapely

from .plan import Plan, PlanFeature
from .rules import SetbackRule

# Measured distances are floats; this keeps 5.000000000001 vs 5 from flipping a verdict.
TOLERANCE_FT = 1e-9


@dataclass(frozen=True)
class Violation:
    feature: str
    other: str
    measured_ft: float
    required_ft: float
    citation: str
    rule_id: str
    where_practical: bool
    feature_index: int
    other_index: int

    def as_json(self) -> dict:
        return {k: v for k, v in asdict(self).items()
                if k in ("feature", "other", "measured_ft", "required_ft", "citation")}

    def describe(self) -> str:
        text = (f"{self.feature} is {self.measured_ft:g} ft from {self.other}; "
                f"at least {self.required_ft:g} ft required [{self.citation}]")
        return text + (" (where practical)" if self.where_practical else "")


@dataclass(frozen=True)
class CheckResult:
    violations: tuple[Violation, ...]
    pairs_checked: int

    @property
    def complies(self) -> bool:
        return not self.violations

    def as_json(self, limit: int | None = None) -> dict:
        """With `limit`, only the first violations are listed (a stored result and its pages stay small) and
        `violation_count` gives them all."""
        if limit is None:
            return {"complies": self.complies, "violations": [v.as_json() for v in self.violations]}
        return {"complies": self.complies, "violation_count": len(self.violations),
                "violations": [v.as_json() for v in self.violations[:limit]]}


def _floor2(feet: float) -> float:
    """Hundredths of a foot, rounded down: 4.999 ft shows as 4.99, never as a compliant 5.00."""
    return math.floor(feet * 100 + 1e-7) / 100


def check_plan(plan: Plan, rules: dict[tuple[str, str], SetbackRule]) -> CheckResult:
    """Check every (subject, object) pair the rules govern; violations sorted by feature index."""
    by_kind: dict[str, list[PlanFeature]] = {}
    for f in plan.features:
        by_kind.setdefault(f.kind, []).append(f)
    arrays = {k: np.array([f.measured for f in fs], dtype=object) for k, fs in by_kind.items()}
    violations: list[Violation] = []
    pairs = 0
    for (s_kind, o_kind), rule in rules.items():
        if s_kind not in by_kind or o_kind not in by_kind:
            continue
        dist = shapely.distance(arrays[s_kind][:, None], arrays[o_kind][None, :])
        pairs += dist.size
        for i, j in zip(*np.nonzero(dist < rule.min_ft - TOLERANCE_FT)):
            a, b = by_kind[s_kind][i], by_kind[o_kind][j]
            if a.index == b.index:
                continue
            violations.append(Violation(
                feature=a.label, other=b.label, measured_ft=_floor2(float(dist[i, j])),
                required_ft=rule.min_ft, citation=rule.citation, rule_id=rule.id,
                where_practical=rule.where_practical, feature_index=a.index, other_index=b.index))
    violations.sort(key=lambda v: (v.feature_index, v.other_index))
    return CheckResult(tuple(violations), pairs)
