"""What-if: the same caseload under changed parameters, beside the law as it is.

The department may ask what the participating counties' applications would cost, and who would gain or
lose, with a different income limit (s. 145.246(3)(c)1.), a different per-residence cap of the state share
((6)(c)), funding-table amounts scaled by a percentage ((6)(c), the department's tables) or different funds
available ((11)-(12)). Both sides are the batch engine and the law's allocation; only the parameter values
differ. Nothing is stored.
"""
from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass
from decimal import Decimal

import numpy as np

from powts.core.refusals import Refused
from powts.grants import allocating
from powts.grants import program_year as fiscal
from powts.grants import caseload as caseloads
from powts.grants.models import AllocationRun
from powts.law.allocation import allocate
from powts.law.engine import ParameterSet, default_parameters
from powts.law.grants import PROGRAM


@dataclass
class CountyChange:
    slug: str
    name: str
    applications: int
    base_award: int
    award: int
    winners: int
    losers: int
    newly_eligible: int
    no_longer_eligible: int

    @property
    def change(self) -> int:
        return self.award - self.base_award


@dataclass
class WhatIf:
    fiscal_year: str
    applications: int
    base_funds: int
    funds: int
    base_cost: int
    cost: int
    base_eligible: int
    eligible: int
    winners: int
    losers: int
    counties: list[CountyChange]
    changes: dict


def with_values(base: ParameterSet, changes: dict[str, object]) -> ParameterSet:
    """A copy of the parameters where each named grant parameter takes the given value on every date."""
    params = copy.copy(base)
    params.params = dict(base.params)
    for key, prms in base.params.items():
        if key[0] != PROGRAM or not any(name in prms for name in changes):
            continue
        prms = dict(prms)
        for name, value in changes.items():
            if name in prms:
                prms[name] = dataclasses.replace(prms[name], values=[dataclasses.replace(v, value=value)
                                                                      for v in prms[name].values])
        params.params[key] = prms
    return params


def _money_param(cents: int | None, field: str, fy) -> Decimal | None:
    if cents is None:
        return None
    if cents < 0:
        raise Refused("must be an amount of zero or more", field=field, citation=fy.cite("allocation"))
    return Decimal(cents) / 100


def run(*, fiscal_year: str, funds_cents: int, income_limit_cents: int | None = None,
        max_share_cents: int | None = None, table_percent: Decimal | None = None,
        base_funds_cents: int | None = None) -> WhatIf:
    fy = fiscal.parse(fiscal_year)
    if funds_cents is None or funds_cents < 0:
        raise Refused("must be an amount of zero or more", field="funds", citation=fy.cite("allocation"))
    changes: dict[str, object] = {}
    if (v := _money_param(income_limit_cents, "income_limit", fy)) is not None:
        changes["residence_income_limit"] = v
    if (v := _money_param(max_share_cents, "max_share", fy)) is not None:
        changes["max_share_per_unit"] = v
    scale = None
    if table_percent is not None:
        if table_percent <= 0 or table_percent > 1000:
            raise Refused("must be a percentage above 0 and at most 1000", field="table_percent",
                          citation=fy.cite("allocation"))
        scale = (int(table_percent * 100), 10000)
    parts = list(allocating.participating(fy.label))
    if not parts:
        raise Refused(f"no county's application for participation for fiscal year {fy.label} is on record",
                      field="fiscal_year", citation=fy.cite("allocation"))
    if base_funds_cents is None:
        last = AllocationRun.objects.filter(fiscal_year=fy.label).order_by("-run_at", "-id").first()
        base_funds_cents = last.funds if last else funds_cents
    load = caseloads.load_kept(participations=parts, carried_only=False)
    base = load.base()
    base_alloc = load.base_allocation(base_funds_cents, fy.label)
    params = with_values(default_parameters(), changes) if changes else None
    scen = load.evaluate(params, table_scale=scale)
    alloc = allocate(scen, funds_cents, fy.label, params) if (changes or scale) \
        else load.base_allocation(funds_cents, fy.label)
    return _compare(fy.label, load, parts, base, base_alloc, scen, alloc, base_funds_cents, funds_cents,
                    {"income_limit": income_limit_cents, "max_share": max_share_cents,
                     "table_percent": str(table_percent) if table_percent is not None else None})


def _compare(label, load, parts, base, base_alloc, scen, alloc, base_funds, funds, changes) -> WhatIf:
    juris = np.asarray(load.jurisdiction_ids, dtype=np.int64)
    b, s = base_alloc.award, alloc.award
    win, lose = s > b, s < b
    gained = scen.eligible & ~base.eligible
    lost = base.eligible & ~scen.eligible
    counties = []
    for p in parts:
        m = juris == p.jurisdiction_id
        counties.append(CountyChange(p.jurisdiction.slug, p.jurisdiction.name, int(m.sum()), int(b[m].sum()),
                                     int(s[m].sum()), int((win & m).sum()), int((lose & m).sum()),
                                     int((gained & m).sum()), int((lost & m).sum())))
    return WhatIf(label, load.n, base_funds, funds, int(b.sum()), int(s.sum()), int(base.eligible.sum()),
                  int(scen.eligible.sum()), int(win.sum()), int(lose.sum()), counties, changes)
