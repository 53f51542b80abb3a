"""The words of grant decisions, written column-wise (polars) from the trace of the computation.

One renderer for one application or a million: each test's sentence (explain.GRANT_SENTENCES) and
the arithmetic (explain.GRANT_ARITHMETIC) are compiled once into polars string expressions whose
placeholders read the values batch.evaluate computed and traced (cap, base, income reduction, last
day of the window...). No arithmetic is redone here and no per-row Python runs on the way.
"""
from __future__ import annotations

import datetime as dt
import string
from typing import Any

import numpy as np
import polars as pl

from . import columns as C
from .explain import GRANT_ARITHMETIC, GRANT_OUTCOME, GRANT_SENTENCES, LIEN_PASS_AGREEMENT, LIEN_PASS_NONE, money
from .failure import CONDITION_WORDS
from .grant_tests import BIT, BUSINESS_TESTS, RESIDENCE_TESTS
from .grant_tests import TESTS as ALL_TESTS

S = pl.String


# digit groups of dollar amounts, looked up rather than formatted row by row


_LEAD = pl.Series([""] + [f"{i}," for i in range(1, 1000)], dtype=pl.String)  # top group, "" when 0
_MIDDLE = pl.Series([f"{i}," if i else "" for i in range(1000)] + [f"{i:03d}," for i in range(1000)], dtype=pl.String)
_LAST = pl.Series([str(i) for i in range(1000)] + [f"{i:03d}" for i in range(1000)], dtype=pl.String)
_CENTS = pl.Series([f"{i:02d}" for i in range(100)], dtype=pl.String)


def money_expr(cents: pl.Expr) -> pl.Expr:
    """'$45,000.01' from integer cents (0 to below $10^12), column-wise: each group of three digits
    is looked up (zero-padded after the first group), never formatted per row."""
    d = cents // 100
    g3, g2, g1, g0 = d // 10**9 % 1000, d // 10**6 % 1000, d // 1000 % 1000, d % 1000
    after = [(d >= 10**9).cast(pl.Int64) * 1000, (d >= 10**6).cast(pl.Int64) * 1000, (d >= 1000).cast(pl.Int64) * 1000]
    return pl.concat_str([pl.lit("$"), pl.lit(_LEAD).gather(g3), pl.lit(_MIDDLE).gather(g2 + after[0]),
                          pl.lit(_MIDDLE).gather(g1 + after[1]), pl.lit(_LAST).gather(g0 + after[2]), pl.lit("."),
                          pl.lit(_CENTS).gather(cents % 100)])


def amount_expr(cents: pl.Expr) -> pl.Expr:
    """'3400.00' (the amount column of the output files)."""
    # the cents looked up (as money_expr does), not formatted and padded per row: 93 -> 52 ms a million
    return pl.concat_str([(cents // 100).cast(S), pl.lit("."), pl.lit(_CENTS).gather(cents % 100)])


def _parse(template: str) -> list[tuple[str, str | None]]:
    return [(lit, field) for lit, field, _, _ in string.Formatter().parse(template)]


def _add(out: list, piece) -> None:
    """Append a piece (a literal str, a ("choice", test, passed, yes, no) between two literals, or an
    expression), merging it into the previous one where both are words known in advance: fewer,
    longer pieces make a much cheaper concatenation."""
    last = out[-1] if out else None
    if isinstance(piece, str):
        if isinstance(last, str):
            out[-1] = last + piece
        elif isinstance(last, tuple):
            out[-1] = (*last[:3], last[3] + piece, last[4] + piece)
        elif piece:
            out.append(piece)
    elif isinstance(piece, tuple):
        if isinstance(last, str):
            out[-1] = (*piece[:3], last + piece[3], last + piece[4])
        elif isinstance(last, tuple) and last[1] == piece[1]:
            out[-1] = (*last[:3], last[3] + piece[3], last[4] + piece[4])
        else:
            out.append(piece)
    else:
        out.append(piece)


def _expr(piece) -> pl.Expr:
    if isinstance(piece, str):
        return pl.lit(piece)
    if isinstance(piece, tuple):
        return pick(piece[2], piece[3], piece[4])
    return piece


def pick(cond: pl.Expr, yes: str, no: str) -> pl.Expr:
    """`yes` where cond (never null), else `no`: each row takes a view of one of two strings (a
    gather), where when/then would copy the words into every row before the concatenation copies
    them again (1.7x the cost)."""
    return pl.lit(pl.Series([no, yes], dtype=S)).gather(cond.cast(pl.UInt32))


def _concat(pieces: list) -> pl.Expr:
    exprs = [_expr(p) for p in pieces]
    return pl.concat_str(exprs) if len(exprs) > 1 else (exprs[0] if exprs else pl.lit(""))


def _pieces(template: str, values: dict) -> list:
    """A str.format template as pieces to concatenate (placeholders read `values`: words known in
    advance, or expressions)."""
    out: list = []
    for literal, field in _parse(template):
        _add(out, literal)
        if field is not None:
            _add(out, values[field])
    return out


def _fill(template: str, values: dict) -> pl.Expr:
    return _concat(_pieces(template, values))


def _choice(test: str, passed: pl.Expr, yes: str, no: str, values: dict) -> list:
    """The pieces of whichever of two sentences applies. When both have the same placeholders in
    the same order (most do), only the literal words are chosen per row and each value is
    formatted once, instead of building both sentences for every row."""
    a, b = _parse(yes), _parse(no)
    if [f for _, f in a] != [f for _, f in b]:
        return [pl.when(passed).then(_fill(yes, values)).otherwise(_fill(no, values))]
    out: list = []
    for (la, field), (lb, _) in zip(a, b):
        _add(out, la if la == lb else ("choice", test, passed, la, lb))
        if field is not None:
            _add(out, values[field])
    return out


def _take(a: Any, idx: np.ndarray | slice | None, n: int) -> np.ndarray:
    """A result or trace array (or a per-run scalar) for the rows rendered."""
    a = np.broadcast_to(np.asarray(a), (n,)) if np.ndim(a) == 0 else np.asarray(a)
    return a if idx is None else a[idx]


def _base_frame(r, idx: np.ndarray | slice | None) -> tuple[pl.DataFrame, dict]:
    """The results and trace of the rows rendered, as typed columns (and as the numpy arrays and
    Series the frame was built from)."""
    n_all = r.cols.n
    n = n_all if idx is None else len(range(n_all)[idx]) if isinstance(idx, slice) else len(idx)

    def take(a):
        return _take(a, idx, n_all)

    c, t = r.cols, r.trace
    decided = take(r.decided)

    def days(a):
        a = take(a)
        return np.where(a == C.NAT, 0, a).astype(np.int32)

    small = n <= SMALL
    if small:  # a few rows: Python values, no polars operation (each costs ~0.1 ms however small)
        raw = c.id if idx is None else (c.id.gather(idx) if isinstance(c.id, pl.Series) and not isinstance(idx, slice)
                                        else c.id[idx])
        ids = [v or "" for v in C.objects(raw).tolist()]
    else:
        ids = C.series(c.id, "id") if idx is None else C.series(c.id, "id")[idx]
    data = {
        "row": np.arange(n, dtype=np.int64), "seg": take(r.seg).astype(np.int32), "decided": decided,
        "eligible": take(r.eligible), "business": take(c.business), "experimental": take(c.experimental),
        "units": take(c.units), "lien": take(c.lien), "has_work": take(c.work) != C.NAT,
        "failed": take(r.failed).astype(np.int32), "category": take(r.category).astype(np.int32),
        "cond_mask": (take(c.cond_mask) & 31).astype(np.int32), "installed": days(c.installed),
        "determined": days(c.determined), "applied": days(c.applied), "work": days(c.work),
        "last_day": days(t["last_day"]), "income": np.maximum(take(c.income), 0),
        "revenue": np.maximum(take(c.revenue), 0), "table": take(r.table), "share": take(r.share),
        "amount": take(r.amount), "per_unit": take(t["per_unit"]), "cap": take(t["cap"]), "base": take(t["base"]),
        "reduce": take(t["reduce"]), "reduced": take(t["reduced"]), "cut": take(t["cut"]),
        "below_zero": take(t["below_zero"]), "cost_limit": np.maximum(take(t["cost_limit"]), 0),
        "cost_capped": take(t["cost_capped"]), "allowable": np.maximum(take(_allowable(c, n_all)), 0), "id": ids,
    }
    bad = np.flatnonzero(~decided)
    err = np.asarray(take(r.error), dtype=object)
    if small:
        data["error"] = [str(e) if not d else None for e, d in zip(err, decided)]
    else:
        nulls = pl.repeat(None, n, dtype=S, eager=True).alias("error")  # a Python list of n Nones: 12.6 ms a million; this 0.2 ms
        data["error"] = nulls.scatter(bad, [str(x) for x in err[bad]]) if bad.size else nulls
    flow = np.nan_to_num(take(c.flow))
    if small:
        data["flow_words"] = [f"{float(x):,g}" for x in flow.tolist()]
    else:
        uniq, inv = np.unique(flow, return_inverse=True)
        data["flow_words"] = pl.Series([f"{float(x):,g}" for x in uniq], dtype=S).gather(inv)
    words = None
    if "table_words" in t:
        words = np.full(n_all, None, dtype=object)
        words[t["table_words"][0]] = [w + " " for w in t["table_words"][1]]
        words = take(words).tolist()
    data["table_words"] = words if words is not None else [None] * n
    if not small:
        data["table_words"] = pl.Series("table_words", data["table_words"], dtype=S)
    for name in DATES:
        data[f"d_{name}"] = _iso_small(data[name]) if small else iso_dates(pl.Series(name, data[name]))
    if small:
        data.update(_money_small(data))
        return _small_frame(data), data
    return pl.DataFrame(data), data


def _small_frame(data: dict) -> pl.DataFrame:
    """The frame of a few rows from their arrays and lists of words, built row by row with a known
    schema: one conversion (0.12 ms for one case), where a Series per column costs 0.8 ms."""
    schema = {k: _dtype(v.dtype) if isinstance(v, np.ndarray) else S for k, v in data.items()}
    columns = [v.tolist() if isinstance(v, np.ndarray) else v for v in data.values()]
    return pl.from_dicts([dict(zip(schema, row)) for row in zip(*columns)], schema=schema)


_DTYPES: dict[np.dtype, Any] = {}


def _dtype(numpy_dtype: np.dtype):
    """The polars type of a numpy array's values (the one polars gives the array), kept per type."""
    if numpy_dtype not in _DTYPES:
        _DTYPES[numpy_dtype] = pl.Series(np.empty(0, dtype=numpy_dtype)).dtype
    return _DTYPES[numpy_dtype]


def _iso_small(days: np.ndarray) -> list[str]:
    """iso_dates of a few rows, one Python date each (no polars operation, no numpy arrays: each
    costs more than a few dates); polars formats the rare date outside the years 1000-9999."""
    if days.size and (days.min() < _YEAR_1000 or days.max() > _YEAR_9999):
        return iso_dates(pl.Series(days)).to_list()
    return [(C.EPOCH + dt.timedelta(days=d)).isoformat() for d in days.tolist()]


_YEAR_1000, _YEAR_9999 = -354285, 2932896  # day numbers of 1000-01-01 and 9999-12-31


def _allowable(c, n: int) -> np.ndarray:
    return c.allowable if c.allowable is not None else np.full(n, C.MISSING, dtype=np.int64)


DATES = ("installed", "determined", "applied", "work", "last_day")


def iso_dates(days: pl.Series) -> pl.Series:
    """'YYYY-MM-DD' of int32 day numbers: each day of the span present is formatted once and
    looked up (a batch's dates fall in a few thousand days; formatting each row costs 5x)."""
    if days.is_empty():
        return days.cast(pl.Date).dt.to_string("%Y-%m-%d")
    lo, hi = int(days.min()), int(days.max())
    if hi - lo > 200_000:
        return days.cast(pl.Date).dt.to_string("%Y-%m-%d")
    table = pl.int_range(lo, hi + 1, eager=True, dtype=pl.Int32).cast(pl.Date).dt.to_string("%Y-%m-%d")
    return table.gather(days - lo)


_PLANS: dict[tuple, tuple] = {}
MONEY = ["income", "revenue", "table", "share", "per_unit", "cap", "base", "cut", "allowable", "cost_limit"]
SMALL = 64  # rows up to which the words are written eagerly from a frame built row by row (one case on the web or API)


def _money_small(data: dict) -> dict:
    """The m_<amount> words of a few rows with explain.money, the one-value formatter money_expr
    matches (test_money_words): ten money_expr columns cost 1.5 ms for one row, this 0.02 ms."""
    return {f"m_{m}": [money(v) for v in data[m].tolist()] for m in MONEY}


def _plan(segs, present: tuple[int, ...], explain: bool, detail: bool, reason_list: bool, reason_text: bool,
          capped: bool = True):
    """The expressions that write the words, for the law segments present and the columns asked
    for; built once and reused (building them costs more than running them on one row)."""
    key = (id(segs), present, explain, detail, reason_list, reason_text, capped)
    hit = _PLANS.get(key)
    if hit and hit[0] is segs:
        return hit[1]
    snaps = {k: segs.snaps[k - 1] for k in present}
    col = pl.col

    def per_seg(fn) -> pl.Expr:
        vals = {k: fn(s) for k, s in snaps.items()}
        if len(set(vals.values())) == 1:
            return next(iter(vals.values()))  # the same words for every row: a literal
        if not vals:
            return pl.lit(None, dtype=S)
        return col("seg").replace_strict(list(vals), list(vals.values()), default=None, return_dtype=S)

    def money_seg(name):
        return per_seg(lambda s: f"${int(s[name] * 100) // 100:,}.{int(s[name] * 100) % 100:02d}")

    prelude = [money_expr(col(m)).alias(f"m_{m}") for m in MONEY]
    v = {
        "conditions": col("cond_mask").replace_strict(list(range(32)), CONDITION_WORDS, return_dtype=S),
        "category": col("category").cast(S), "installed": col("d_installed"),
        "cutoff": per_seg(lambda s: f"{s['installed_before']:%B} {s['installed_before'].day}, {s['installed_before'].year}"),
        "occupancy": per_seg(lambda s: f"{int(s['principal_residence_occupancy'] * 100)}%"),
        "flow": col("flow_words"),
        "flow_limit": per_seg(lambda s: f"{s['small_commercial_flow_below_gpd']:,} gallons per day"),
        "income": col("m_income"), "income_limit": money_seg("residence_income_limit"),
        "revenue": col("m_revenue"), "revenue_limit": money_seg("business_revenue_limit"),
        "determined": col("d_determined"),
        "work": pl.when(col("has_work")).then(pl.concat_str([pl.lit(" on "), col("d_work")]))
                  .otherwise(pl.lit(" (no work has started)")),
        "applied": col("d_applied"), "years": per_seg(lambda s: str(s["application_window_years"])),
        "last_day": col("d_last_day"),
        "lien_pass": pick(col("lien"), LIEN_PASS_AGREEMENT, LIEN_PASS_NONE),
        "share": col("m_share"), "minimum": money_seg("minimum_grant_residence"),
        "cap": col("m_cap"), "units": col("units").cast(S), "per_unit": col("m_per_unit"), "table": col("m_table"),
        "base": col("m_base"), "cut": col("m_cut"), "allowable": col("m_allowable"), "cost_limit": col("m_cost_limit"),
        "cost_rate": per_seg(lambda s: f"{float(s['allowable_cost_share']) * 100:g}"),
        "cost_cite": per_seg(lambda s: s["test_citations"]["allowable_cost"]),
        "rate": per_seg(lambda s: str(int(s["income_reduction_rate"] * 100))),
        "threshold": money_seg("income_reduction_threshold"), "error": col("error"),
    }
    A = GRANT_ARITHMETIC
    exp = col("experimental")
    v["lead"] = pick(exp, A["lead_experimental"], A["lead"])
    v["table_label"] = pick(exp, A["table_label_experimental"], A["table_label"])
    v["cap_words"] = pl.when(col("units") > 1).then(_fill(A["cap_units"], v)).otherwise(col("m_per_unit"))
    v["cite"] = pl.when(exp).then(_expr(per_seg(lambda s: s["test_citations"]["experimental"]))) \
        .otherwise(_expr(per_seg(lambda s: s["test_citations"]["amount"])))
    reduction = (pl.when(col("reduced"))
                 .then(pl.concat_str([pl.lit("; "), _fill(A["reduction"], v),
                                      pl.when(col("below_zero")).then(pl.lit("; " + A["not_below_zero"]))
                                      .otherwise(pl.lit(""))]))
                 .when(~col("business") & ~col("reduce")).then(pl.lit("; " + A["no_reduction_experimental"]))
                 .otherwise(pl.lit("")))
    # (no row limited by its allowable costs, the usual batch: those words are "" in every row, and
    # their amounts are then not worded at all)
    cost = pl.when(col("cost_capped")).then(pl.concat_str([pl.lit("; "), _fill(A["cost_cap"], v)])) \
        .otherwise(pl.lit("")) if capped else ""
    arithmetic: list = [col("table_words").fill_null("")]
    for piece in [*_pieces(A["head"], v), reduction, cost, "; ", *_pieces(A["grant"], v), *_pieces(A["close"], v)]:
        _add(arithmetic, piece)
    outcome = pl.when(col("eligible")).then(_fill(GRANT_OUTCOME["eligible"], v)) \
        .otherwise(pl.lit(GRANT_OUTCOME["not_eligible"]))
    common = [
        col("row"), col("id"), col("eligible"), amount_expr(col("amount")).alias("amount"),
        pl.when(col("category") > 0).then(col("category")).alias("category"),
    ]
    reason_dtype = pl.List(pl.Struct({"test": S, "citation": S, "text": S}))

    def decided_part(tests: list[str]) -> list[pl.Expr]:
        pieces: list = []
        reasons, structs, details = [], [], {}
        for k in tests:
            passed = (col("failed") & BIT[k]) == 0
            cite = per_seg(lambda s, k=k: s["test_citations"][k])
            yes, no = GRANT_SENTENCES[k]
            sentence = _choice(k, passed, yes, no, v)
            for piece in [("choice", k, passed, "PASS ", "FAIL "), *sentence, " (", cite, ") "]:
                _add(pieces, piece)
            failed_words: list = []
            for piece in [*_pieces(no, v), " (", cite, ")"]:
                _add(failed_words, piece)
            if reason_text:
                reasons.append(pl.when(~passed).then(_concat(failed_words)))
            if reason_list:
                structs.append(pl.when(~passed).then(pl.struct(test=pl.lit(k), citation=_expr(cite), text=_fill(no, v))))
            if detail:
                details[k] = [_concat(sentence), _expr(cite)]
        out = [*common, _expr(per_seg(lambda s: s.version)).alias("version")]
        if detail:
            out.append(pl.lit(None, dtype=S).alias("error"))
        if reason_text:
            out.append(pl.concat_str(reasons, separator="; ", ignore_nulls=True).alias("reasons"))
        if reason_list:
            out.append(pl.concat_list(structs).list.drop_nulls().cast(reason_dtype).alias("reason_list"))
        words = list(pieces)
        for piece in [*arithmetic, " ", outcome]:
            _add(words, piece)
        out.append(_concat(words).alias("explanation")
                   if explain else pl.lit("").alias("explanation"))
        if detail:
            out.append(col("failed"))  # which tests passed: case_words reads the bits (one column, not 13)
            for k in ALL_TESTS:
                s_, c_ = details.get(k, (pl.lit(None, dtype=S), pl.lit(None, dtype=S)))
                out += [s_.alias(f"sentence_{k}"), c_.alias(f"cite_{k}")]
            out += [_concat(arithmetic).alias("arithmetic"), outcome.alias("outcome")]
        return out

    def undecided_part() -> list[pl.Expr]:
        out = [*common, pl.lit(None, dtype=S).alias("version")]
        if detail:
            out.append(col("error"))
        if reason_text:
            out.append(col("error").alias("reasons"))
        if reason_list:
            out.append(pl.concat_list([pl.struct(test=pl.lit("input"), citation=pl.lit(""), text=col("error"))])
                       .cast(reason_dtype).alias("reason_list"))
        out.append(_fill(GRANT_OUTCOME["not_decided"], v).alias("explanation") if explain
                   else pl.lit("").alias("explanation"))
        if detail:
            out.append(col("failed"))
            for k in ALL_TESTS:
                out += [pl.lit(None, dtype=S).alias(f"sentence_{k}"), pl.lit(None, dtype=S).alias(f"cite_{k}")]
            out += [pl.lit(None, dtype=S).alias("arithmetic"), pl.lit(None, dtype=S).alias("outcome")]
        return out

    plan = (prelude, decided_part(RESIDENCE_TESTS), decided_part(BUSINESS_TESTS), undecided_part())
    if len(_PLANS) > 256:
        _PLANS.clear()
    _PLANS[key] = (segs, plan)
    return plan


def grant_frame(r, rows=None, *, explain: bool = True, detail: bool = False, reason_list: bool = True,
                reason_text: bool = False) -> pl.DataFrame:
    """id, eligible, amount, category, version, reasons (reason_list: [{test, citation, text}];
    reason_text: 'sentence (citation); ...') and explanation of the given rows of a GrantResults.
    detail=True adds failed (the bits of the failed tests), sentence_<test>, cite_<test>, arithmetic and
    outcome (for one case, which assembles its explanation with `case_words`).

    Residence and business rows are written apart (each has its own list of tests), every
    explanation as one concatenation of literal words and value columns."""
    if isinstance(rows, range) and rows.step == 1:
        idx = slice(rows.start, rows.stop)  # a chunk of a file: views of the arrays, not copies
    else:
        idx = None if rows is None else np.asarray(rows, dtype=np.int64)
    frame, data = _base_frame(r, idx)
    decided, seg, business = data["decided"], data["seg"], data["business"]
    present = tuple(sorted({int(x) for x in np.unique(seg[decided])}))
    prelude, residence_exprs, business_exprs, undecided_exprs = _plan(r.segs, present, explain, detail,
                                                                       reason_list, reason_text,
                                                                       bool(data["cost_capped"].any()))
    small = len(frame) <= SMALL
    # a few rows (one case on the web or the API): run eagerly, where planning a query and handing it
    # to the thread pool would cost more than running it (frame.select: 1.5 ms for one case, collect 3.4)
    lf = frame if small else frame.lazy()

    def words(rows, exprs):
        # each kind's amounts worded after its rows are chosen, and only those its words use (the
        # optimiser drops the others: a residence's revenue, a business's income...)
        if small:  # (_base_frame worded a few rows' money)
            return rows.select(exprs)
        return rows.with_columns(prelude).select(exprs)

    parts = []
    for kind_rows, exprs in ((decided & ~business, residence_exprs), (decided & business, business_exprs),
                             (~decided, undecided_exprs)):
        if kind_rows.all():
            parts = [words(lf, exprs)]
            break
        if kind_rows.any():
            parts.append(words(lf.filter(pl.Series(kind_rows)), exprs))
    if not parts:
        parts = [words(lf, undecided_exprs)]
    frames = parts if small else pl.collect_all(parts)
    out = frames[0] if len(frames) == 1 else pl.concat(frames).sort("row")
    out.drop_in_place("row")  # (in place: drop() runs a query, 0.3 ms for one case)
    return out


def decision_frame(r, columns=("id", "eligible", "amount", "category", "version")) -> pl.DataFrame:
    """The given columns of id, eligible, amount, category, version (no words): for runs that need the
    decisions. Only the columns asked for are built (`--columns id,eligible,amount`: no category or
    version column is made and dropped)."""
    exprs = {"id": pl.col("id"), "eligible": pl.col("eligible"),
             "amount": amount_expr(pl.col("amount_cents")).alias("amount"),
             "category": pl.when(pl.col("category") > 0).then(pl.col("category")).alias("category"),
             "version": pl.lit(pl.Series([None] + [s.version if s else None for s in r.segs.snaps], dtype=S))
             .gather(pl.col("seg")).alias("version")}
    data = {"id": lambda: C.series(r.cols.id, "id"), "eligible": lambda: r.eligible, "amount_cents": lambda: r.amount,
            "category": lambda: np.where(r.category > 0, r.category, 0).astype(np.int32),
            "seg": lambda: np.where(r.decided, r.seg, 0).astype(np.int64)}
    needs = {"amount": "amount_cents", "version": "seg"}
    wanted = {needs.get(c, c) for c in columns}
    return pl.DataFrame({k: make() for k, make in data.items() if k in wanted}).select(exprs[c] for c in columns)


def case_words(row: dict) -> tuple[list, str, str, list[dict], str]:
    """(tests as (key, citation, passed, sentence), arithmetic, outcome, reasons, explanation) of one
    row of a detail frame: the same pieces the bulk explanation concatenates, assembled in order."""
    if row["outcome"] is None:  # not decided: the row's error
        return [], "", "", [{"test": "input", "citation": "", "text": row["error"]}], \
            GRANT_OUTCOME["not_decided"].format(error=row["error"])
    tests = [(k, row[f"cite_{k}"], not (row["failed"] & BIT[k]), row[f"sentence_{k}"]) for k in ALL_TESTS
             if row[f"sentence_{k}"] is not None]
    reasons = [{"test": k, "citation": c, "text": t} for k, c, p, t in tests if not p]
    lines = [f"{'PASS' if p else 'FAIL'} {t} ({c})" for _, c, p, t in tests]
    return tests, row["arithmetic"], row["outcome"], reasons, " ".join([*lines, row["arithmetic"], row["outcome"]])
