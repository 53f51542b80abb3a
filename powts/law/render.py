"""The words of grant decisions, written column-wise (polars) from the trace of the computation.

One renderer for one application or a million: each test's sentence (explain.GRANT_SENTENCES) and
the arithmetic (explain.GRANT_ARITHMETIC) are compiled once into polars string expressions whose
placeholders read the values batch.evaluate computed and traced (cap, base, income reduction, last
day of the window...). No arithmetic is redone here and no per-row Python runs on the way.
"""
from __future__ import annotations

import string
from typing import Any

import numpy as np
import polars as pl

from . import columns as C
from .explain import GRANT_ARITHMETIC, GRANT_OUTCOME, GRANT_SENTENCES, LIEN_PASS_AGREEMENT, LIEN_PASS_NONE
from .failure import CONDITION_WORDS

ALL_TESTS = ["category", "installed_before", "principal_residence", "small_commercial", "income_limit",
             "revenue_limit", "not_sewered", "determined_before_work", "application_window", "one_grant",
             "not_intentional", "support_lien", "minimum_grant"]
BUSINESS_ONLY = {"small_commercial", "revenue_limit"}
RESIDENCE_ONLY = {"principal_residence", "income_limit", "minimum_grant"}
S = pl.String


def money_expr(cents: pl.Expr) -> pl.Expr:
    """'$45,000.01' from integer cents (non-negative, below $10^15), column-wise."""
    d = cents // 100

    def z3(x: pl.Expr) -> pl.Expr:
        return x.cast(S).str.zfill(3)

    def groups(top: int) -> list[pl.Expr]:
        parts: list[pl.Expr] = [(d // 10**top).cast(S)]
        for p in range(top - 3, -1, -3):
            parts += [pl.lit(","), z3(d // 10**p % 1000)]
        return parts

    dollars = pl.when(d < 1000).then(d.cast(S))
    for top in (3, 6, 9):
        dollars = dollars.when(d < 10 ** (top + 3)).then(pl.concat_str(groups(top)))
    dollars = dollars.otherwise(pl.concat_str(groups(12)))
    return pl.concat_str([pl.lit("$"), dollars, pl.lit("."), (cents % 100).cast(S).str.zfill(2)])


def amount_expr(cents: pl.Expr) -> pl.Expr:
    """'3400.00' (the amount column of the output files)."""
    return pl.concat_str([(cents // 100).cast(S), pl.lit("."), (cents % 100).cast(S).str.zfill(2)])


def _fill(template: str, values: dict[str, pl.Expr]) -> pl.Expr:
    """A str.format template as one string expression (placeholders read `values`)."""
    parts: list[pl.Expr] = []
    for literal, field, _, _ in string.Formatter().parse(template):
        if literal:
            parts.append(pl.lit(literal))
        if field is not None:
            parts.append(values[field])
    return pl.concat_str(parts) if len(parts) > 1 else (parts[0] if parts else pl.lit(""))


def _take(a: Any, idx: np.ndarray | None, n: int) -> np.ndarray:
    """A result or trace array (or a per-run scalar) for the rows rendered."""
    a = np.broadcast_to(np.asarray(a), (n,)) if np.ndim(a) == 0 else np.asarray(a)
    return a if idx is None else a[idx]


def grant_frame(r, rows=None, *, explain: bool = True, detail: bool = False, reason_list: bool = True,
                reason_text: bool = False) -> pl.DataFrame:
    """id, eligible, amount, category, version, reasons (reason_list: [{test, citation, text}];
    reason_text: 'sentence (citation); ...') and explanation of the given rows of a GrantResults.
    detail=True adds sentence_<test>, pass_<test>, cite_<test> and arithmetic (for one case)."""
    n_all = r.cols.n
    idx = None if rows is None else np.asarray(rows, dtype=np.int64)
    n = n_all if idx is None else len(idx)

    def take(a):
        return _take(a, idx, n_all)

    c, t = r.cols, r.trace
    decided = take(r.decided)
    seg = take(r.seg)
    present = sorted({int(x) for x in np.unique(seg[decided])})
    snaps = {k: r.segs.snaps[k - 1] for k in present}

    def days(a):
        a = take(a)
        return np.where(a == C.NAT, 0, a).astype(np.int32)

    ids = C.series(c.id, "id") if idx is None else C.series(c.id, "id")[idx]
    frame = pl.DataFrame({
        "seg": seg.astype(np.int32), "decided": decided, "eligible": take(r.eligible),
        "business": take(c.business), "experimental": take(c.experimental), "units": take(c.units),
        "lien": take(c.lien), "has_work": take(c.work) != C.NAT, "failed": take(r.failed).astype(np.int32),
        "category": take(r.category).astype(np.int32), "cond_mask": (take(c.cond_mask) & 31).astype(np.int32),
        "installed": days(c.installed), "determined": days(c.determined), "applied": days(c.applied),
        "work": days(c.work), "last_day": days(t["last_day"]), "income": np.maximum(take(c.income), 0),
        "revenue": np.maximum(take(c.revenue), 0), "table": take(r.table), "share": take(r.share),
        "amount": take(r.amount), "per_unit": take(t["per_unit"]), "cap": take(t["cap"]), "base": take(t["base"]),
        "reduce": take(t["reduce"]), "reduced": take(t["reduced"]), "cut": take(t["cut"]),
        "below_zero": take(t["below_zero"]),
    }).with_columns(ids)
    extra = {}
    if not decided.all():
        err = np.asarray(take(r.error), dtype=object)
        bad = np.flatnonzero(~decided)
        extra["error"] = pl.Series("error", [None] * n, dtype=S).scatter(bad, [str(x) for x in err[bad]])
    flow = take(c.flow)
    uniq, inv = np.unique(np.nan_to_num(flow), return_inverse=True)
    extra["flow_words"] = pl.Series([f"{float(x):,g}" for x in uniq], dtype=S).gather(inv)
    if "table_words" in t:
        words = np.full(n_all, None, dtype=object)
        words[t["table_words"][0]] = [w + " " for w in t["table_words"][1]]
        extra["table_words"] = pl.Series(take(words).tolist(), dtype=S)
    frame = frame.with_columns(**extra)
    col = pl.col

    def per_seg(fn) -> pl.Expr:
        vals = {k: fn(s) for k, s in snaps.items()}
        if len(set(vals.values())) <= 1:
            return pl.lit(next(iter(vals.values()), None), dtype=S)
        return col("seg").replace_strict(list(vals), list(vals.values()), default=None, return_dtype=S)

    def money_seg(name):
        return per_seg(lambda s: f"${int(s[name] * 100) // 100:,}.{int(s[name] * 100) % 100:02d}")

    residence = ~col("business")
    money_cols = ["income", "revenue", "table", "share", "per_unit", "cap", "base", "cut"]
    lf = frame.lazy().with_columns(
        *(money_expr(col(m)).alias(f"m_{m}") for m in money_cols),
        *(col(d).cast(pl.Date).dt.to_string("%Y-%m-%d").alias(f"d_{d}")
          for d in ("installed", "determined", "applied", "work", "last_day")),
    )
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
        "lien_pass": pl.when(col("lien")).then(pl.lit(LIEN_PASS_AGREEMENT)).otherwise(pl.lit(LIEN_PASS_NONE)),
        "share": col("m_share"), "minimum": money_seg("minimum_grant_residence"),
        "cap": col("m_cap"), "units": col("units").cast(S), "per_unit": col("m_per_unit"), "table": col("m_table"),
        "base": col("m_base"), "cut": col("m_cut"),
        "rate": per_seg(lambda s: str(int(s["income_reduction_rate"] * 100))),
        "threshold": money_seg("income_reduction_threshold"),
        "error": col("error") if "error" in extra else pl.lit(None, dtype=S),
    }
    A = GRANT_ARITHMETIC
    exp = col("experimental")
    v["lead"] = pl.when(exp).then(pl.lit(A["lead_experimental"])).otherwise(pl.lit(A["lead"]))
    v["table_label"] = pl.when(exp).then(pl.lit(A["table_label_experimental"])).otherwise(pl.lit(A["table_label"]))
    v["cap_words"] = pl.when(col("units") > 1).then(_fill(A["cap_units"], v)).otherwise(col("m_per_unit"))
    v["cite"] = pl.when(exp).then(per_seg(lambda s: s["test_citations"]["experimental"])) \
        .otherwise(per_seg(lambda s: s["test_citations"]["amount"]))
    reduction = (pl.when(col("reduced"))
                 .then(pl.concat_str([pl.lit("; "), _fill(A["reduction"], v),
                                      pl.when(col("below_zero")).then(pl.lit("; " + A["not_below_zero"]))
                                      .otherwise(pl.lit(""))]))
                 .when(residence & ~col("reduce")).then(pl.lit("; " + A["no_reduction_experimental"]))
                 .otherwise(pl.lit("")))
    parts = [_fill(A["head"], v), reduction, pl.lit("; "), _fill(A["grant"], v), _fill(A["close"], v)]
    if "table_words" in extra:
        parts.insert(0, col("table_words").fill_null(""))
    arithmetic = pl.concat_str(parts)

    lines, reasons, structs, details = [], [], [], []
    for k in ALL_TESTS:
        applies = col("decided")
        if k in BUSINESS_ONLY:
            applies = applies & col("business")
        elif k in RESIDENCE_ONLY:
            applies = applies & residence
        passed = (col("failed") & (1 << ALL_TESTS.index(k))) == 0
        cite = per_seg(lambda s, k=k: s["test_citations"][k])
        yes, no = (_fill(x, v) for x in GRANT_SENTENCES[k])
        close = [pl.lit(" ("), cite, pl.lit(")")]
        if explain or detail:
            lines.append(pl.when(applies & passed).then(pl.concat_str([pl.lit("PASS "), yes, *close]))
                         .when(applies).then(pl.concat_str([pl.lit("FAIL "), no, *close])))
        if reason_text:
            reasons.append(pl.when(applies & ~passed).then(pl.concat_str([no, *close])))
        if reason_list:
            structs.append(pl.when(applies & ~passed).then(pl.struct(test=pl.lit(k), citation=cite, text=no)))
        if detail:
            details += [pl.when(applies).then(pl.when(passed).then(yes).otherwise(no)).alias(f"sentence_{k}"),
                        passed.alias(f"pass_{k}"), cite.alias(f"cite_{k}")]
    outcome = pl.when(col("eligible")).then(_fill(GRANT_OUTCOME["eligible"], v)) \
        .otherwise(pl.lit(GRANT_OUTCOME["not_eligible"]))
    decided_col = col("decided")
    out = [
        col("id"), col("eligible"), amount_expr(col("amount")).alias("amount"),
        pl.when(col("category") > 0).then(col("category")).alias("category"),
        pl.when(decided_col).then(per_seg(lambda s: s.version)).alias("version"),
    ]
    if reason_text:
        out.append(pl.when(decided_col).then(pl.concat_str(reasons, separator="; ", ignore_nulls=True))
                   .otherwise(v["error"]).alias("reasons"))
    if reason_list:
        out.append(pl.when(decided_col).then(pl.concat_list(structs).list.drop_nulls())
                   .otherwise(pl.concat_list([pl.struct(test=pl.lit("input"), citation=pl.lit(""), text=v["error"])]))
                   .alias("reason_list"))
    if explain or detail:
        out.append(pl.when(decided_col).then(pl.concat_str([*lines, arithmetic, outcome], separator=" ", ignore_nulls=True))
                   .otherwise(_fill(GRANT_OUTCOME["not_decided"], v)).alias("explanation"))
    else:
        out.append(pl.lit("").alias("explanation"))
    if detail:
        out += [*details, pl.when(decided_col).then(arithmetic).alias("arithmetic")]
    return lf.select(out).collect()
