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

from .grant_tests import BIT, TESTS

NAT = np.iinfo(np.int64).min
# bit of each failed test (grant_tests.TESTS names them in this order)
CATEGORY, INSTALLED_BEFORE, PRINCIPAL_RESIDENCE, SMALL_COMMERCIAL, INCOME_LIMIT, REVENUE_LIMIT, NOT_SEWERED, \
    DETERMINED_BEFORE_WORK, APPLICATION_WINDOW, ONE_GRANT, NOT_INTENTIONAL, SUPPORT_LIEN, MINIMUM_GRANT = \
    (BIT[k] for k in TESTS)


def decide(seg, decided, business, cond_mask, installed, determined, applied, work, sewer, principal, units,
           experimental, prior, intentional, lien, agreement, income, revenue, flow, table, allowable, ld_lut,
           ld_row, ld_lo, cutoff, flow_limit, income_limit, revenue_limit, max_share, exp_max_share, exp_reduce,
           threshold, rate_bp, cost_bp, minimum, cat_lut, ok_lut, none) -> dict[str, np.ndarray]:
    """Every test and the state share of each row; parameters are per segment (index seg[i]).

    seg and allowable hold one value for every row when of length 1 (one law segment, no allowable
    costs recorded): each parameter is then one number, and cost_limit and cost_capped come back as
    the one value every row has (so does per_unit where the experimental and the ordinary cap are
    equal). Rows not decided get 0 / False everywhere. The last day of the application window is
    looked up from ld_lut (add_years over the span of determination dates, one row per window
    length: ld_row[segment]).

    Each step writes into an array it owns (out=, in place), and the scratch arrays of the tests
    become outputs once done (below_zero, eligible, amount): a fresh array of a million rows costs
    its page faults (about 2 ms for 8 MB here), more than the arithmetic on it."""
    n = decided.shape[0]
    one = seg.shape[0] == 1
    s = int(seg[0]) if one else seg
    all_decided = bool(decided.all())
    biz = business  # (residences are not kept as ~biz, a fresh array: "a residence and x" is x > biz)
    t, u = np.empty(n, dtype=bool), np.empty(n, dtype=bool)  # scratch, then below_zero and eligible
    amount = np.empty(n, dtype=np.int64)
    bits = amount.view(np.uint16)[:n]  # scratch of the tests' bits, in the amount's memory until it is computed
    # category and its test, in one lookup by the set of conditions: the category in the low byte,
    # the test's bit in the high one (tables of 256 entries: the mask's upper bits are not read, as
    # with cond_mask & 31, and no masked copy is made); a lookup of a million rows costs more than
    # the two passes that split it
    both = np.where(cat_lut != none, cat_lut, 0).astype(np.uint16) | np.where(ok_lut, 0, CATEGORY << 8).astype(np.uint16)
    both = np.tile(both, 8)
    failed = both[s][cond_mask] if one else both[s, cond_mask]
    category = failed.astype(np.int8)  # the low byte (a category number, below 128)
    failed >>= 8
    # the last day of the window; `day` is then the buffer of the income reduction
    day = np.subtract(determined, ld_lo)
    if not all_decided:
        day *= decided  # day 0 for the rows not decided
    last_day = ld_lut[ld_row[s]].astype(np.int32).take(day) if one else ld_lut[ld_row[s], day].astype(np.int32)

    def fail(bit, fails):
        np.bitwise_or(failed, np.multiply(fails, np.uint16(bit), out=bits), out=failed)

    fail(INSTALLED_BEFORE, np.greater_equal(installed, cutoff[s], out=t))  # not installed < cutoff
    np.less(flow, flow_limit[s], out=t)
    fail(SMALL_COMMERCIAL, np.greater(biz, t, out=t))  # biz and not flow < limit (a > b: a and not b)
    np.greater(revenue, revenue_limit[s], out=t)
    fail(REVENUE_LIMIT, np.logical_and(t, biz, out=t))
    fail(PRINCIPAL_RESIDENCE, np.logical_not(np.logical_or(biz, principal, out=t), out=t))
    np.greater(income, income_limit[s], out=t)
    fail(INCOME_LIMIT, np.greater(t, biz, out=t))
    fail(NOT_SEWERED, sewer)
    # work started (not NAT) on or before the determination
    np.greater_equal(determined, work, out=t)
    fail(DETERMINED_BEFORE_WORK, np.logical_and(t, np.not_equal(work, NAT, out=u), out=t))
    np.greater(determined, applied, out=t)
    fail(APPLICATION_WINDOW, np.logical_or(t, np.greater(applied, last_day, out=u), out=t))
    fail(ONE_GRANT, prior)
    fail(NOT_INTENTIONAL, intentional)
    fail(SUPPORT_LIEN, np.greater(lien, agreement, out=t))
    # (6)(c)-(e): the lesser of the per-unit cap and the table amount, less the rate of the income
    # above the threshold (half up to the cent), not below zero
    if one and exp_max_share[s] == max_share[s]:
        per_unit = np.broadcast_to(max_share[s], (n,))  # one value for every row
    else:
        per_unit = np.where(experimental, exp_max_share[s], max_share[s])
    cap = per_unit * units
    base = np.minimum(table, cap)
    # a residence, and not an experimental system where the reduction does not apply to those
    reduce = np.logical_not(np.logical_or(biz, np.greater(experimental, exp_reduce[s], out=t), out=t))
    reduced = np.greater(income, threshold[s])
    reduced &= reduce
    # (income - threshold) * rate + 5000, as income * rate + (5000 - threshold * rate): the same
    # int64 (wrapping) arithmetic in one pass fewer
    cut = np.multiply(income, rate_bp[s], out=day)
    cut += (5000 - threshold * rate_bp)[s]
    cut //= 10000
    cut *= reduced
    share = base - cut
    below_zero = np.less(share, 0, out=t)
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
    np.less(share, minimum[s], out=u)
    fail(MINIMUM_GRANT, np.greater(u, biz, out=u))
    out = {"category": category, "failed": failed, "share": share, "per_unit": per_unit, "cap": cap,
           "base": base, "reduce": reduce, "reduced": reduced, "cut": cut, "below_zero": below_zero,
           "last_day": last_day}
    if not all_decided:
        for k, v in out.items():
            out[k] = np.where(decided, v, np.zeros(1, dtype=v.dtype))
        if cost_limit.shape[0] == n:  # per row (allowable costs recorded)
            cost_limit, cost_capped = np.where(decided, cost_limit, -1), cost_capped & decided
    eligible = np.equal(out["failed"], 0, out=u)
    if not all_decided:
        eligible &= decided
    out["eligible"] = eligible
    out["amount"] = np.multiply(out["share"], eligible, out=amount)  # share where eligible, else 0
    out["cost_limit"], out["cost_capped"] = cost_limit, cost_capped
    return out
