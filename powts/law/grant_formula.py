"""The grant rules of s. 145.245 / s. 145.246 for every row, written once (numpy, whole columns).

Every test of eligibility and the state share are array expressions over the rows, and the
intermediate values (cap, base, income reduction...) the words are written from are returned with
them; the last day of the application window is looked up from a table of add_years over the dates
present. batch.evaluate prepares the columns and the parameters of each segment of constant law; one
application is a batch of one. Money is int64 cents. (This was a numba loop: importing numba and
loading its cached code cost about 0.5 s of CPU per process, more than these rules over 1,000,000 rows.)
"""
from __future__ import annotations

import numpy as np

NAT = np.iinfo(np.int64).min
# bit of each failed test, in batch.TESTS order
CATEGORY, INSTALLED_BEFORE, PRINCIPAL_RESIDENCE, SMALL_COMMERCIAL, INCOME_LIMIT, REVENUE_LIMIT, NOT_SEWERED, \
    DETERMINED_BEFORE_WORK, APPLICATION_WINDOW, ONE_GRANT, NOT_INTENTIONAL, SUPPORT_LIEN, MINIMUM_GRANT = \
    (1 << i for i in range(13))


def decide(seg, decided, business, cond_mask, installed, determined, applied, work, sewer, principal, units,
           experimental, prior, intentional, lien, agreement, income, revenue, flow, table, allowable, ld_lut,
           ld_row, ld_lo, cutoff, flow_limit, income_limit, revenue_limit, max_share, exp_max_share, exp_reduce,
           threshold, rate_bp, cost_bp, minimum, cat_lut, ok_lut, none) -> dict[str, np.ndarray]:
    """Every test and the state share of each row; parameters are per segment (index seg[i]).

    seg and allowable hold one value for every row when of length 1 (one law segment, no allowable
    costs recorded): each parameter is then one number, and cost_limit and cost_capped come back as
    the one value every row has. Rows not decided get 0 / False everywhere. The last day of the
    application window is looked up from ld_lut (add_years over the span of determination dates,
    one row per window length: ld_row[segment])."""
    n = decided.shape[0]
    one = seg.shape[0] == 1
    s = int(seg[0]) if one else seg
    all_decided = bool(decided.all())
    biz = business
    res = ~biz
    mask = cond_mask & 31
    # (lookups shaped first where one law segment covers every row: 32 entries, not a million)
    category = np.where(cat_lut != none, cat_lut, 0).astype(np.int8)
    category = category[s][mask] if one else category[s, mask]
    day = determined - ld_lo if all_decided else np.where(decided, determined - ld_lo, 0)
    last_day = ld_lut[ld_row[s]].astype(np.int32)[day] if one else ld_lut[ld_row[s], day].astype(np.int32)
    tests = (
        (CATEGORY, ~(ok_lut[s][mask] if one else ok_lut[s, mask])),
        (INSTALLED_BEFORE, ~(installed < cutoff[s])),
        (SMALL_COMMERCIAL, biz & ~(flow < flow_limit[s])),
        (REVENUE_LIMIT, biz & ~(revenue <= revenue_limit[s])),
        (PRINCIPAL_RESIDENCE, res & ~principal),
        (INCOME_LIMIT, res & ~(income <= income_limit[s])),
        (NOT_SEWERED, sewer),
        (DETERMINED_BEFORE_WORK, ~((work == NAT) | (determined < work))),
        (APPLICATION_WINDOW, ~((determined <= applied) & (applied <= last_day))),
        (ONE_GRANT, prior), (NOT_INTENTIONAL, intentional), (SUPPORT_LIEN, lien & ~agreement),
    )
    failed = np.zeros(n, dtype=np.uint16)
    for bit, fails in tests:
        failed |= fails * np.uint16(bit)
    # (6)(c)-(e): the lesser of the per-unit cap and the table amount, less the rate of the income
    # above the threshold (half up to the cent), not below zero
    per_unit = np.where(experimental, exp_max_share[s], max_share[s])
    cap = per_unit * units
    base = np.minimum(table, cap)
    reduce = res & np.where(experimental, exp_reduce[s], True)
    reduced = reduce & (income > threshold[s])
    # in place: each fresh array of a million rows costs its page faults
    cut = income - threshold[s]
    cut *= rate_bp[s]
    cut += 5000
    cut //= 10000
    cut *= reduced
    share = base - cut
    below_zero = share < 0
    np.maximum(share, 0, out=share)
    # (6)(a)-(b): grant funding is determined on the allowable costs, so the grant is at most their
    # share (a dated parameter); -1 = no allowable costs recorded, (c)-(d) alone limit it
    if allowable.shape[0] == 1 and allowable[0] < 0:
        cost_limit, cost_capped = np.array([-1], dtype=np.int64), np.zeros(1, dtype=bool)
    else:
        cost_limit = np.where(allowable >= 0, (allowable * cost_bp[s] + 5000) // 10000, -1)
        cost_capped = (cost_limit >= 0) & (share > cost_limit)
        share = np.where(cost_capped, cost_limit, share)
        if cost_limit.shape[0] == 1:  # one value for every row, as given
            cost_limit, cost_capped = cost_limit[:1], cost_capped[:1]
    failed |= (res & (share < minimum[s])) * np.uint16(MINIMUM_GRANT)
    out = {"category": category, "failed": failed, "share": share, "per_unit": per_unit, "cap": cap,
           "base": base, "reduce": reduce, "reduced": reduced, "cut": cut, "below_zero": below_zero,
           "last_day": last_day}
    if not all_decided:
        for k, v in out.items():
            out[k] = np.where(decided, v, np.zeros(1, dtype=v.dtype))
        if cost_limit.shape[0] == n:  # per row (allowable costs recorded)
            cost_limit, cost_capped = np.where(decided, cost_limit, -1), cost_capped & decided
    out["eligible"] = (out["failed"] == 0) & decided
    out["amount"] = np.where(out["eligible"], out["share"], 0)
    out["cost_limit"], out["cost_capped"] = cost_limit, cost_capped
    return out
