"""The grant rules of s. 145.245 / s. 145.246 for every row, written once (compiled with numba).

One loop over the rows does every test of eligibility and the state share, and records the
intermediate values (cap, base, income reduction...) that the words are written from; the last day
of the application window is looked up from a table of add_years over the dates present.
batch.evaluate prepares the columns and the parameters of each segment of constant law; one
application is a batch of one. Money is int64 cents.
"""
from __future__ import annotations

import numpy as np
from numba import njit

NAT = np.iinfo(np.int64).min
# bit of each failed test, in batch.TESTS order
CATEGORY, INSTALLED_BEFORE, PRINCIPAL_RESIDENCE, SMALL_COMMERCIAL, INCOME_LIMIT, REVENUE_LIMIT, NOT_SEWERED, \
    DETERMINED_BEFORE_WORK, APPLICATION_WINDOW, ONE_GRANT, NOT_INTENTIONAL, SUPPORT_LIEN, MINIMUM_GRANT = \
    (1 << i for i in range(13))


@njit(cache=True)
def decide(seg, decided, business, cond_mask, installed, determined, applied, work, sewer, principal, units,
           experimental, prior, intentional, lien, agreement, income, revenue, flow, table, allowable, ld_lut,
           ld_row, ld_lo, cutoff, flow_limit, income_limit, revenue_limit, max_share, exp_max_share, exp_reduce,
           threshold, rate_bp, cost_bp, minimum, cat_lut, ok_lut, none,
           category, failed, share, eligible, amount, per_unit, cap, base, reduce, reduced, cut, below_zero,
           cost_limit, cost_capped, last_day):
    """Every test and the state share of each row; parameters are per segment (index seg[i]).

    seg and allowable hold one value for every row when of length 1 (one law segment, no allowable
    costs recorded), and cost_limit and cost_capped then keep the one value every row computes: the
    arrays the batch does not need per row are not read or written per row (the loop is bound by
    memory traffic). The last day of the application window is looked up from ld_lut (add_years
    over the span of determination dates, one row per window length: ld_row[segment])."""
    one_seg = seg.shape[0] == 1
    one_cost = allowable.shape[0] == 1
    for i in range(decided.shape[0]):
        s = seg[0] if one_seg else seg[i]
        c_at = 0 if one_cost else i
        if not decided[i]:
            category[i] = 0
            failed[i] = 0
            share[i] = 0
            eligible[i] = False
            amount[i] = 0
            per_unit[i] = cap[i] = base[i] = cut[i] = 0
            reduce[i] = reduced[i] = below_zero[i] = False
            if not one_cost:
                cost_capped[i] = False
                cost_limit[i] = -1
            last_day[i] = 0
            continue
        ld = ld_lut[ld_row[s], determined[i] - ld_lo]
        last_day[i] = ld
        biz = business[i]
        mask = cond_mask[i] & 31
        category[i] = cat_lut[s, mask] if cat_lut[s, mask] != none else 0
        f = 0
        if not ok_lut[s, mask]:
            f |= CATEGORY
        if not installed[i] < cutoff[s]:
            f |= INSTALLED_BEFORE
        if biz:
            if not flow[i] < flow_limit[s]:
                f |= SMALL_COMMERCIAL
            if not revenue[i] <= revenue_limit[s]:
                f |= REVENUE_LIMIT
        else:
            if not principal[i]:
                f |= PRINCIPAL_RESIDENCE
            if not income[i] <= income_limit[s]:
                f |= INCOME_LIMIT
        if sewer[i]:
            f |= NOT_SEWERED
        if not (work[i] == NAT or determined[i] < work[i]):
            f |= DETERMINED_BEFORE_WORK
        if not (determined[i] <= applied[i] <= ld):
            f |= APPLICATION_WINDOW
        if prior[i]:
            f |= ONE_GRANT
        if intentional[i]:
            f |= NOT_INTENTIONAL
        if lien[i] and not agreement[i]:
            f |= SUPPORT_LIEN
        # (6)(c)-(e): the lesser of the per-unit cap and the table amount, less the rate of the income
        # above the threshold (half up to the cent), not below zero
        exp = experimental[i]
        pu = exp_max_share[s] if exp else max_share[s]
        c = pu * units[i]
        b = min(table[i], c)
        red = (not biz) and (exp_reduce[s] if exp else True)
        above = red and income[i] > threshold[s]
        k = ((income[i] - threshold[s]) * rate_bp[s] + 5000) // 10000 if above else 0
        sh = b - k
        per_unit[i] = pu
        cap[i] = c
        base[i] = b
        reduce[i] = red
        reduced[i] = above
        cut[i] = k
        below_zero[i] = sh < 0
        sh = max(sh, 0)
        # (6)(a)-(b): grant funding is determined on the allowable costs, so the grant is at most their
        # share (a dated parameter); -1 = no allowable costs recorded, (c)-(d) alone limit it
        lim = -1
        if allowable[c_at] >= 0:
            lim = (allowable[c_at] * cost_bp[s] + 5000) // 10000
        capped = lim >= 0 and sh > lim
        cost_limit[c_at] = lim
        cost_capped[c_at] = capped
        if capped:
            sh = lim
        share[i] = sh
        if not biz and sh < minimum[s]:
            f |= MINIMUM_GRANT
        failed[i] = f
        eligible[i] = f == 0
        amount[i] = sh if f == 0 else 0
