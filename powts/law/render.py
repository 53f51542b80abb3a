"""The words of batch grant decisions, for one row or a million.

`grant_words` writes a decision's tests, arithmetic and outcome from its values already formatted
as strings. One row: called with that row's values. Many rows: called once per distinct shape of
decision (law segment, failed tests, and the few yes/no facts that change the wording) with
placeholders, which gives a %-template; each row then costs one string formatting. The property
tests check both against the one-case path in grants.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Mapping

import numpy as np

from . import columns as C
from .engine import Snapshot
from .explain import GRANT_SENTENCES, LIEN_PASS_AGREEMENT, LIEN_PASS_NONE, money

RESIDENCE_TESTS = ["category", "installed_before", "principal_residence", "income_limit", "not_sewered",
                   "determined_before_work", "application_window", "one_grant", "not_intentional", "support_lien",
                   "minimum_grant"]
BUSINESS_TESTS = ["category", "installed_before", "small_commercial", "revenue_limit", "not_sewered",
                  "determined_before_work", "application_window", "one_grant", "not_intentional", "support_lien"]
ALL_TESTS = ["category", "installed_before", "principal_residence", "small_commercial", "income_limit",
             "revenue_limit", "not_sewered", "determined_before_work", "application_window", "one_grant",
             "not_intentional", "support_lien", "minimum_grant"]


@dataclass(frozen=True)
class Shape:
    """What changes the wording of a decision (besides the numbers)."""

    business: bool
    failed: int  # bitmask over ALL_TESTS
    experimental: bool
    several_units: bool
    reduced: bool  # income above the threshold and a reduction applies
    below_zero: bool
    has_work: bool
    lien: bool
    eligible: bool


def _c(amount) -> int:
    return int(amount * 100)


def grant_words(snap: Snapshot, shape: Shape, v: Mapping[str, str]) -> tuple[list[tuple[str, str, bool, str]], str, str]:
    """(tests as (key, citation, passed, sentence), arithmetic, outcome) from formatted values `v`."""
    cites = snap["test_citations"]
    values = {
        "category": dict(conditions=v["conditions"], category=v["category"]),
        "installed_before": dict(installed=v["installed"], cutoff=f"{snap['installed_before']:%B} {snap['installed_before'].day}, {snap['installed_before'].year}"),
        "principal_residence": dict(occupancy=f"{int(snap['principal_residence_occupancy'] * 100)}%"),
        "small_commercial": dict(flow=v.get("flow", ""), flow_limit=f"{snap['small_commercial_flow_below_gpd']:,} gallons per day"),
        "income_limit": dict(income=v.get("income", ""), income_limit=money(_c(snap["residence_income_limit"]))),
        "revenue_limit": dict(revenue=v.get("revenue", ""), revenue_limit=money(_c(snap["business_revenue_limit"]))),
        "not_sewered": {},
        "determined_before_work": dict(determined=v["determined"],
                                       work=f" on {v['work']}" if shape.has_work else " (no work has started)"),
        "application_window": dict(applied=v["applied"], years=snap["application_window_years"],
                                   determined=v["determined"], last_day=v["last_day"]),
        "one_grant": {}, "not_intentional": {},
        "support_lien": dict(lien_pass=LIEN_PASS_AGREEMENT if shape.lien else LIEN_PASS_NONE),
        "minimum_grant": dict(share=v["share"], minimum=money(_c(snap["minimum_grant_residence"]))),
    }
    tests = []
    for k in (BUSINESS_TESTS if shape.business else RESIDENCE_TESTS):
        passed = not (shape.failed & (1 << ALL_TESTS.index(k)))
        tests.append((k, cites[k], passed, GRANT_SENTENCES[k][0 if passed else 1].format(**values[k])))

    residence = not shape.business
    if shape.experimental:
        per_unit = _c(snap["experimental_max_share_per_unit"])
        lead, cite = "Experimental system: lesser of", cites["experimental"]
        table_words = "the department-approved amount"
        reduce_applies = residence and snap["experimental_income_reduction"]
    else:
        per_unit = _c(snap["max_share_per_unit"])
        lead, cite = "State share: lesser of", cites["amount"]
        table_words = "table amount"
        reduce_applies = residence
    cap = f"{v['cap']} ({v['units']} x {money(per_unit)})" if shape.several_units else money(per_unit)
    parts = [f"{lead} {cap} and {table_words} {v['table']} = {v['base']}"]
    if shape.reduced:
        rate = snap["income_reduction_rate"]
        parts.append(f"less {int(rate * 100)}% of ({v['income']} - {money(_c(snap['income_reduction_threshold']))}) = {v['cut']}")
        if shape.below_zero:
            parts.append("not less than zero")
    elif not reduce_applies and residence:
        parts.append("no income reduction for an experimental system")
    parts.append(f"grant {v['share']}")
    arithmetic = v.get("table_words", "") + "; ".join(parts) + f" ({cite}; rounded half up to the cent)."
    outcome = f"Eligible: grant {v['share']}." if shape.eligible else "Not eligible, so no grant is paid ($0.00)."
    return tests, arithmetic, outcome


def explanation_text(tests, arithmetic: str, outcome: str) -> str:
    return " ".join([*(f"{'PASS' if p else 'FAIL'} {s} ({c})" for _, c, p, s in tests), arithmetic, outcome])


# -- many rows ---------------------------------------------------------------------------------------

_MARK = "\x00"
NAMES = ["conditions", "category", "installed", "flow", "income", "revenue", "determined", "work", "applied",
         "last_day", "share", "cap", "units", "table", "base", "cut"]
_CONDITIONS = np.array([", ".join(f"({L})" for b, L in enumerate("abcde") if m & (1 << b)) for m in range(32)], dtype=object)


def money_strings(cents: np.ndarray) -> np.ndarray:
    """'$45,000.01' for each amount in cents, vectorised (amounts below $10^12)."""
    cents = np.asarray(cents, dtype=np.int64)
    SD = np.dtypes.StringDType()
    c = np.abs(cents)
    d = c // 100

    def s(x):
        return x.astype(SD)

    def z(x):
        return np.strings.zfill(s(x), 3)

    out = s(d % 1000)
    for limit in (1000, 10**6, 10**9):
        big = d >= limit
        if not big.any():
            break
        if limit == 1000:
            part = np.strings.add(np.strings.add(s(d[big] // 1000 % 1000), ","), z(d[big] % 1000))
        elif limit == 10**6:
            part = np.strings.add(np.strings.add(s(d[big] // 10**6 % 1000), ","),
                                  np.strings.add(np.strings.add(z(d[big] // 1000 % 1000), ","), z(d[big] % 1000)))
        else:
            part = np.strings.add(np.strings.add(s(d[big] // 10**9), ","),
                                  np.strings.add(np.strings.add(z(d[big] // 10**6 % 1000), ","),
                                                 np.strings.add(np.strings.add(z(d[big] // 1000 % 1000), ","), z(d[big] % 1000))))
        out[big] = part
    out = np.strings.add(np.strings.add(np.strings.add("$", out), "."), np.strings.zfill(s(c % 100), 2))
    neg = cents < 0
    if neg.any():
        out[neg] = np.strings.add("-", out[neg])
    return out


def _template(snap: Snapshot, shape: Shape) -> tuple[str, list[str], list[tuple[str, str, str]]]:
    """Explanation %-template, the names it needs in order, and the failed reasons' templates."""
    marks = {n: f"{_MARK}{n}{_MARK}" for n in NAMES}
    tests, arithmetic, outcome = grant_words(snap, shape, marks)
    text = explanation_text(tests, arithmetic, outcome)

    def compile_(s: str) -> tuple[str, list[str]]:
        pieces = s.replace("%", "%%").split(_MARK)
        order = pieces[1::2]
        return "%s".join(pieces[0::2]), order

    tpl, order = compile_(text)
    reasons = []
    for key, cite, passed, sentence in tests:
        if not passed:
            rt, rorder = compile_(sentence)
            reasons.append((key, cite, rt, rorder))
    return tpl, order, reasons


def render_rows(r, rows: np.ndarray) -> Iterator[tuple[int, list[dict], str]]:
    """(row, reasons, explanation) for the given rows of a GrantResults, fast."""
    rows = np.asarray(rows, dtype=np.int64)
    out: dict[int, tuple[list[dict], str]] = {}
    simple = _simple(r, rows)
    for i in rows[~simple].tolist():
        out[i] = r.render(i)
    idx = rows[simple]
    for snap, shape, members, values in _groups(r, idx):
        tpl, order, reason_tpls = _template(snap, shape)
        texts = _fill(tpl, order, values, members)
        rlists = [(k, c, _fill(rt, ro, values, members)) for k, c, rt, ro in reason_tpls]
        for j, m in enumerate(idx[members].tolist()):
            out[m] = ([{"test": k, "citation": c, "text": ts[j]} for k, c, ts in rlists], texts[j])
    for i in rows.tolist():
        yield (i, *out[i])


def csv_lines(r, rows: np.ndarray, ids: np.ndarray, amounts: np.ndarray, versions: np.ndarray,
              explain: bool = True) -> str:
    """The CSV lines (id,eligible,amount,category,version,reasons,explanation) of the given rows,
    one %-template per decision shape; reasons and explanation are always quoted.
    explain=False leaves the explanation empty (the reasons still name each failed test)."""
    rows = np.asarray(rows, dtype=np.int64)
    out = np.empty(len(rows), dtype=object)
    simple = _simple(r, rows)
    for pos in np.flatnonzero(~simple).tolist():
        i = int(rows[pos])
        reasons, text = r.render(i)
        joined = "; ".join(f"{x['text']} ({x['citation']})" if x["citation"] else str(x["text"]) for x in reasons)
        cat = int(r.category[i])
        out[pos] = (f"{ids[i]},{'true' if r.eligible[i] else 'false'},{amounts[i]},{cat or ''},{versions[i] or ''},"
                    f"{_q(joined) if joined else ''},{_q(text) if explain else ''}\n")
    spos = np.flatnonzero(simple)
    idx = rows[spos]
    extra = {"__id": ids, "__amount": amounts}
    for snap, shape, members, values in _groups(r, idx, extra):
        tpl, order, reason_tpls = _template(snap, shape)
        joined = "; ".join(f"{rt} ({c.replace('%', '%%')})" for _, c, rt, _ in reason_tpls)
        rorder = [n for _, _, _, ro in reason_tpls for n in ro]
        if not explain:
            tpl, order = "", []
        line = ("%s," + ("true" if shape.eligible else "false") + ",%s,%s," + snap.version + ","
                + (f'"{joined}"' if joined else "") + (f',"{tpl}"\n' if explain else ",\n"))
        out[spos[members]] = _fill(line, ["__id", "__amount", "category", *rorder, *order], values, members)
    return "".join(out.tolist())


def _q(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _fill(tpl: str, order: list[str], values, members: np.ndarray) -> list[str]:
    if not order:
        return [tpl % ()] * len(members)
    lists = [values(n)[members].tolist() for n in order]
    return [tpl % t for t in zip(*lists)]


def _simple(r, rows: np.ndarray) -> np.ndarray:
    """Rows the templates can write: decided, with the table amount given (not from components)."""
    return r.decided[rows] & (r.cols.table[rows] != C.MISSING)


def _groups(r, idx: np.ndarray, extra: dict | None = None):
    """(snapshot, shape, positions in idx, values(name) -> object array over idx) per decision shape."""
    if idx.size == 0:
        return
    cols = r.cols
    segs = r.segs
    seg = r.seg[idx]
    biz = cols.business[idx]
    units = cols.units[idx]
    share = r.share[idx]

    def per_seg(fn, dtype=np.int64):
        return np.array([0] + [fn(s) if s else 0 for s in segs.snaps], dtype=dtype)[seg]

    threshold = per_seg(lambda s: _c(s["income_reduction_threshold"]))
    exp = cols.experimental[idx]
    exp_reduce = per_seg(lambda s: bool(s["experimental_income_reduction"]), bool)
    reduced = ~biz & np.where(exp, exp_reduce, True) & (cols.income[idx] > threshold)
    per_unit = np.where(exp, per_seg(lambda s: _c(s["experimental_max_share_per_unit"])), per_seg(lambda s: _c(s["max_share_per_unit"])))
    cap = per_unit * units
    base = np.minimum(cap, r.table[idx])
    bp = per_seg(lambda s: int(s["income_reduction_rate"] * 10000))
    cut = np.where(reduced, (np.maximum(cols.income[idx] - threshold, 0) * bp + 5000) // 10000, 0)
    below = reduced & (base - cut < 0)
    has_work = cols.work[idx] != C.NAT
    lien = cols.lien[idx]
    eligible = r.eligible[idx]
    f = r.failed[idx].astype(np.int64)
    key = ((((((((seg.astype(np.int64) * 2 + biz) * 8192 + f) * 2 + exp) * 2 + (units > 1)) * 2 + reduced) * 2 + below)
            * 2 + has_work) * 2 + lien) * 2 + eligible
    uniq, inverse = np.unique(key, return_inverse=True)
    cache: dict[str, np.ndarray] = {}

    def values(name: str) -> np.ndarray:
        if name not in cache:
            if extra and name in extra:
                cache[name] = np.asarray(extra[name], dtype=object)[idx]
            else:
                v = _values(name, r, idx, cap=cap, base=base, cut=cut, units=units, share=share)
                arr = np.empty(len(v), dtype=object)
                arr[:] = v
                cache[name] = arr
        return cache[name]

    order = np.argsort(inverse, kind="stable")
    bounds = np.searchsorted(inverse[order], np.arange(len(uniq) + 1))
    for g in range(len(uniq)):
        members = order[bounds[g]:bounds[g + 1]]
        first = int(members[0])
        shape = Shape(bool(biz[first]), int(f[first]), bool(exp[first]), bool(units[first] > 1), bool(reduced[first]),
                      bool(below[first]), bool(has_work[first]), bool(lien[first]), bool(eligible[first]))
        yield segs.snaps[int(seg[first]) - 1], shape, members, values


def _values(name: str, r, idx: np.ndarray, **arrays) -> list:
    cols = r.cols
    if name == "conditions":
        return _CONDITIONS[cols.cond_mask[idx] & 31].tolist()
    if name == "category":
        return r.category[idx].astype(str).tolist()
    if name in ("installed", "determined", "applied", "work", "last_day"):
        if name == "last_day":
            from . import batch as B
            years = np.array([0] + [s["application_window_years"] if s else 0 for s in r.segs.snaps])[r.seg[idx]]
            same = (years == years[0]).all()
            days = B.add_years_lut(cols.determined[idx], int(years[0])) if same else B.add_years(cols.determined[idx], years)
        else:
            days = getattr(cols, name)[idx]
        return C.iso_strings(np.where(days == C.NAT, 0, days)).tolist()
    if name == "flow":
        flows = cols.flow[idx]
        uniq, inv = np.unique(flows, return_inverse=True)
        words = np.array([f"{float(x):,g}" for x in uniq], dtype=object)
        return words[inv].tolist()
    if name in ("income", "revenue"):
        return money_strings(np.maximum(getattr(cols, name)[idx], 0)).tolist()
    if name == "share":
        return money_strings(arrays["share"]).tolist()
    if name in ("cap", "base", "cut"):
        return money_strings(arrays[name]).tolist()
    if name == "table":
        return money_strings(r.table[idx]).tolist()
    if name == "units":
        return arrays["units"].astype(str).tolist()
    raise KeyError(name)  # pragma: no cover
