"""The words of well-claim decisions, written column-wise (polars) from the trace of wells.evaluate.

One renderer for one claim or a million: each sentence (explain.WELL_SENTENCES, WELL_PROOF,
WELL_ARITHMETIC, WELL_OUTCOME) is compiled into polars string expressions whose placeholders read
the values wells.evaluate computed and traced; no arithmetic is redone and no Python runs per row.
"""
from __future__ import annotations

import numpy as np
import polars as pl

from . import columns as C
from .explain import WELL_ARITHMETIC, WELL_OUTCOME, WELL_PROOF, WELL_SENTENCES, money
from .render import _add, _choice, _concat, _fill, _iso_small, _pieces, _small_frame, amount_expr, iso_dates, money_expr
from .well_choices import CLAIMANTS, KINDS

S = pl.String
col = pl.col
TESTS = ["claimant", "private_water_supply", "well_kind", "contamination_proof", "income_limit"]


def _money(cents: int) -> str:
    return pl.select(money_expr(pl.lit(cents, dtype=pl.Int64))).item()


def _base_frame(r, items_words: bool = True) -> pl.DataFrame:
    """The claims' values and trace as typed columns, with the lists (samples, cost items) in words.
    items_words=False (reasons only, no explanation): the award's arithmetic and the cost items are
    left out (only the explanation words them), and the samples are worded only for claims that failed
    the proof of contamination, the one sentence that quotes them and that a reason carries only when
    failed."""
    c = r.cols
    n = c.n
    if n <= SMALL and r.tests:
        return _few_claims_frame(r, items_words)
    ids = c.id if isinstance(c.id, pl.Series) else pl.Series("id", c.id, dtype=S)
    frame = pl.DataFrame({"row": np.arange(n, dtype=np.int64), "decided": r.decided, "eligible": r.eligible,
                          "award": r.award}).with_columns(ids.alias("id"))
    bad = np.flatnonzero(~r.decided)
    error = pl.repeat(None, n, dtype=S, eager=True).alias("error")  # a Python list of n Nones: 12.6 ms a million; this 0.2 ms
    if bad.size:
        error = error.scatter(bad, [str(x) for x in r.error[bad]])
    frame = frame.with_columns(error)
    if not r.tests:  # nothing decided
        return frame
    frame = frame.with_columns(kind=pl.Series(KINDS, dtype=S).gather(c.kind.astype(np.uint32)),
                               **_values(r, items_words))
    claimed = pl.Series(_claimed_days(c))
    # each value is worded on the long frames first; the lists are then joined per row
    samples = c.samples if items_words else \
        c.samples.filter(pl.lit(pl.Series(~r.tests["contamination_proof"])).gather(col("row")))
    shown = _joined(samples.with_columns(claimed=pl.lit(claimed).gather(col("row")))
                    .filter(col("day") <= col("claimed")).sort("row", "day")
                    .pipe(lambda f: f.select("row", words=iso_dates(f["day"]))), "shown", ", ", n)
    if not items_words:  # the cost items are only named in the explanation
        return frame.with_columns(shown, listed=pl.lit(None, dtype=S))
    items = r.snap["eligible_cost_items"]
    listed = _joined(c.costs.filter(col("item").is_not_null()).sort("row", "pos").select("row", words=_fill(
        WELL_ARITHMETIC["item"], {
            "item": col("item").str.replace_all("_", " ", literal=True), "amount": money_expr(col("cents")),
            "cite": col("item").replace_strict(list(items), list(items.values()), default="", return_dtype=S)})),
        "listed", " + ", n)
    return frame.with_columns(shown, listed)


def _values(r, items_words: bool) -> dict[str, np.ndarray]:
    """The decided claims' values and trace that the words read, as numpy columns (both paths build
    their frame from these)."""
    c, t = r.cols, r.trace

    def cents(a):  # rows not read may hold "missing" (-1): no words are written for them
        return np.where(r.decided, a, 0)

    data = {"claimant": c.claimant.astype(np.uint32), "residential": c.residential, "units": c.units,
            "advisory": c.advisory, "lab": c.lab, "income": cents(c.income),
            **{f"t_{k}": v for k, v in r.tests.items()}}
    if items_words:
        data.update({k: cents(t[k]) for k in ARITHMETIC})
        data.update({k: t[k] for k in ("reduced", "below_zero")})
    data.update({k: t[k] for k in ("count", "later", "span", "enough", "apart", "barred")})
    if items_words:
        data["award_trace"] = cents(t["award"])
    return data


def _claimed_days(c) -> np.ndarray:
    """Each claim's date as int32 day numbers, 0 where it has none (its samples are then not counted)."""
    return np.where(c.claimed == C.NAT, 0, c.claimed).astype(np.int32)


SMALL = 64  # claims up to which the base frame is built in Python, row by row (one claim on the web or the API)


def _few_claims_frame(r, items_words: bool) -> pl.DataFrame:
    """_base_frame of a few claims: the same columns and words, each value taken or worded in Python
    and the frame built row by row (render._small_frame), where each polars operation costs ~0.1 ms
    however few the rows (a claim's frame took a dozen). The samples' dates and the cost items are
    joined per claim in the order the column-wise path sorts them (row, then day or position)."""
    c = r.cols
    n = c.n
    data = {"row": np.arange(n, dtype=np.int64), "decided": r.decided, "eligible": r.eligible, "award": r.award,
            "id": (c.id if isinstance(c.id, pl.Series) else pl.Series("id", c.id, dtype=S)).to_list(),
            "error": [None if d else str(e) for d, e in zip(r.decided.tolist(), r.error)],
            "kind": [KINDS[k] for k in c.kind.tolist()], **_values(r, items_words)}
    claimed = _claimed_days(c).tolist()
    worded = None if items_words else (~r.tests["contamination_proof"]).tolist()
    days: dict[int, list[int]] = {}
    for row, day in zip(c.samples["row"].to_list(), c.samples["day"].to_list()):
        if day <= claimed[row] and (worded is None or worded[row]):
            days.setdefault(row, []).append(day)
    data["shown"] = [", ".join(_iso_small(np.array(sorted(days[i]), dtype=np.int32))) if i in days else None
                     for i in range(n)]
    listed: dict[int, list[tuple[int, str]]] = {}
    if items_words:
        items, template = r.snap["eligible_cost_items"], WELL_ARITHMETIC["item"]
        for row, pos, item, amount in zip(*(c.costs[k].to_list() for k in ("row", "pos", "item", "cents"))):
            if item is not None:
                listed.setdefault(row, []).append((pos, template.format(
                    item=item.replace("_", " "), amount=money(amount), cite=items.get(item, ""))))
    data["listed"] = [" + ".join(w for _, w in sorted(listed[i])) if i in listed else None for i in range(n)]
    return _small_frame(data)


def _joined(long: pl.DataFrame, name: str, sep: str, n: int) -> pl.Series:
    """The `words` of each row's entries joined by `sep`, in order, as a column of the n rows (null
    where a row has none; `long` sorted by row, then order). Short lists (samples, cost items) are
    joined position by position, each position's words put in place by a gather: a group_by joining
    strings per row costs about ten times as much, and a join per position costs a hash table."""
    rows = long["row"].to_numpy()
    pos = C.positions(rows)
    if len(long) <= 64 or pos.max() >= 16:
        # a few claims (one on the web or the API): one query, not one gather per position
        joined = long.group_by("row", maintain_order=True).agg(col("words").str.join(sep))
        return _in_place(joined["row"].to_numpy(), joined["words"], n).alias(name)
    words = long["words"]
    parts = [_in_place(rows[at], words.filter(pl.Series(at)), n).alias(f"p{p}")
             for p in range(int(pos.max()) + 1) for at in [pos == p]]
    has = np.zeros(n, dtype=bool)
    has[rows] = True
    return pl.select(pl.when(pl.lit(pl.Series(has))).then(
        pl.concat_str([pl.lit(p) for p in parts], separator=sep, ignore_nulls=True))).to_series().alias(name)


def _in_place(rows: np.ndarray, values: pl.Series, n: int) -> pl.Series:
    """values[k] at row rows[k] of a column of n rows, null elsewhere (one gather)."""
    at = np.full(n, len(values), dtype=np.int64)  # the null appended below
    at[rows] = np.arange(len(rows))
    return values.append(pl.Series([None], dtype=values.dtype)).gather(at)


def _tests(snap) -> dict[str, tuple[list, pl.Expr, pl.Expr]]:
    """test -> (the sentence's pieces to concatenate, passed, citation)."""
    cites = snap["test_citations"]
    barred = snap["claimant_types_barred"]
    S_ = WELL_SENTENCES
    out = {}
    passed = col("t_claimant")

    def by_claimant(words) -> pl.Expr:  # claimant is its index in CLAIMANTS: each type worded once, not per claim
        return pl.lit(pl.Series([words(k) for k in CLAIMANTS], dtype=S)).gather(col("claimant"))

    v = {"claimant": by_claimant(lambda k: k.replace("_", " "))}
    out["claimant"] = (_choice("claimant", passed, *S_["claimant"], v), passed,
                       pl.when(col("barred")).then(by_claimant(lambda k: barred.get(k, "")))
                       .otherwise(pl.lit(cites["claimant"])))
    passed = col("t_private_water_supply")
    v = {"units": col("units").cast(S), "max_units": str(snap["residential_max_dwelling_units"])}
    out["private_water_supply"] = (
        [pl.when(col("residential")).then(_concat(_choice("supply", passed, *S_["residential_supply"], v)))
         .otherwise(pl.lit(S_["livestock_supply"][0]))],
        pl.when(col("residential")).then(passed).otherwise(pl.lit(True)),
        pl.when(col("residential")).then(pl.lit(cites["private_water_supply"])).otherwise(pl.lit(cites["livestock"])))
    passed = col("t_well_kind")
    out["well_kind"] = (_choice("well_kind", passed, *S_["well_kind"], {"kind": col("kind")}), passed,
                        pl.lit(cites["well_kind"]))
    P = WELL_PROOF
    shown = col("shown").fill_null(P["no_samples"])
    v = {"count": col("count").cast(S), "shown": shown, "need": str(snap["min_samples"]),
         "span": col("span").cast(S), "gap": str(snap["min_sample_interval_days"]),
         "note": pl.when(col("later") > 0).then(_fill(P["later"], {"later": col("later").cast(S)})).otherwise(pl.lit(""))}
    problems = pl.concat_str([
        pl.when(~col("enough")).then(_fill(P["too_few"], v)).when(~col("apart")).then(_fill(P["too_close"], v)),
        pl.when(~col("lab")).then(pl.lit(P["not_certified"]))], separator="; ", ignore_nulls=True)
    proven = col("enough") & col("apart") & col("lab")
    out["contamination_proof"] = (
        [pl.when(col("advisory")).then(pl.lit(S_["advisory"][0]))
         .when(proven).then(_fill(P["established"], v)).otherwise(_fill(P["not_established"], {"problems": problems}))],
        col("t_contamination_proof"),
        pl.when(col("advisory")).then(pl.lit(cites["advisory"])).otherwise(pl.lit(cites["contamination_proof"])))
    passed = col("t_income_limit")
    v = {"income": col("m_income"), "income_limit": _money(int(snap["income_limit"] * 100))}
    out["income_limit"] = (_choice("income_limit", passed, *S_["income_limit"], v), passed,
                           pl.lit(cites["income_limit"]))
    return out


def _arithmetic(snap) -> pl.Expr:
    """The award's arithmetic in words, from the trace of wells.award."""
    A = WELL_ARITHMETIC
    pct = str(int(snap["award_rate"] * 100))
    v = {"listed": col("listed"), "total": col("m_costs"), "pct": pct,
         "cap": _money(int(snap["eligible_cost_cap"] * 100)), "counted": col("m_counted"),
         "base": col("m_base"), "rate": str(int(snap["income_reduction_rate"] * 100)),
         "income": col("m_income"), "threshold": _money(int(snap["income_reduction_threshold"] * 100)),
         "cut": col("m_cut"), "award": col("m_award_trace"),
         "cite": snap["test_citations"]["award"]}
    reduction = pl.when(col("reduced")).then(pl.concat_str([
        pl.lit("; "), _fill(A["reduction"], v),
        pl.when(col("below_zero")).then(pl.lit("; " + A["not_below_zero"])).otherwise(pl.lit(""))])) \
        .otherwise(pl.lit(""))
    # one flat concatenation: nested ones would copy the words once per level
    award: list = []
    for piece in [*_pieces(A["award"], v), reduction, "; ", *_pieces(A["grant"], v), *_pieces(A["close"], v)]:
        _add(award, piece)
    award = _concat(award)
    items = pl.when(col("listed").is_not_null()).then(_fill(A["items"], v))
    return pl.concat_str([items, award], separator=" ", ignore_nulls=True)


_PLANS: dict[tuple, tuple] = {}
# each amount in words once per claim (several sentences quote the same amount); columns no
# expression reads are dropped by the query optimiser
MONEY = ("income", "costs", "counted", "base", "cut", "award_trace")
PRELUDE = [money_expr(col(m)).alias(f"m_{m}") for m in MONEY]
ARITHMETIC = ("costs", "counted", "base", "cut")  # amounts only the award's arithmetic quotes


def prelude(frame: pl.DataFrame) -> list[pl.Expr]:
    """PRELUDE's amounts in words for the amounts the frame holds (a frame of reasons alone holds no
    arithmetic)."""
    return [e for m, e in zip(MONEY, PRELUDE) if m in frame.columns]


def _plan(snap, explain: bool, detail: bool, reason_list: bool, reason_text: bool) -> list[pl.Expr]:
    """The expressions that write the words of decided and undecided claims under one version;
    built once and reused (building them costs more than running them on one claim)."""
    key = (id(snap), explain, detail, reason_list, reason_text)
    hit = _PLANS.get(key)
    if hit and hit[0] is snap:
        return hit[1]
    reason_dtype = pl.List(pl.Struct({"test": S, "citation": S, "text": S}))
    common = [col("id"), col("eligible"), amount_expr(col("award")).alias("award")]
    undecided = _fill(WELL_OUTCOME["not_decided"], {"error": col("error")})
    pieces = _tests(snap)
    tests = {k: (_concat(s), p, c) for k, (s, p, c) in pieces.items()}
    decided = col("decided")
    out = [*common]
    failed = []
    if reason_text:
        # each test: the claims that failed it, and its sentence with its citation. Without explanations
        # well_frames writes each for those claims alone (when/then would write every claim's sentence
        # and drop most); with them, the reasons stay a column of the explanation's query, which words
        # the amounts they share once.
        texts = [(k, decided & ~p, pl.concat_str([s, pl.lit(" ("), c, pl.lit(")")])) for k, (s, p, c) in tests.items()]
        if explain:
            out.append(pl.when(decided).then(pl.concat_str([pl.when(m).then(t) for _, m, t in texts], separator="; ",
                                                            ignore_nulls=True)).otherwise(col("error")).alias("reasons"))
        else:
            failed = texts
    if reason_list:
        structs = [pl.when(~p).then(pl.struct(test=pl.lit(k), citation=c, text=s)) for k, (s, p, c) in tests.items()]
        out.append(pl.when(decided).then(pl.concat_list(structs).list.drop_nulls())
                   .otherwise(pl.concat_list([pl.struct(test=pl.lit("input"), citation=pl.lit(""), text=col("error"))]))
                   .cast(reason_dtype).alias("reasons"))
    arithmetic = _arithmetic(snap)
    # (an eligible claim's award is its traced award: one amount worded once)
    outcome = pl.when(col("eligible")).then(_fill(WELL_OUTCOME["eligible"], {"award": col("m_award_trace")})) \
        .otherwise(pl.lit(WELL_OUTCOME["not_eligible"]))
    if detail:
        # one claim's pieces; wells.decisions assembles them in the same order (explain.Test.line)
        out.append(pl.when(decided).then(pl.lit(None, dtype=S)).otherwise(undecided).alias("explanation"))
        for k, (s, p, c) in tests.items():
            out += [s.alias(f"sentence_{k}"), p.alias(f"pass_{k}"), c.alias(f"cite_{k}")]
        out += [arithmetic.alias("arithmetic"), outcome.alias("outcome")]
    elif explain:
        # one flat concatenation of every line (nested ones would copy the words once per level);
        # PASS/FAIL shares its choice key with the sentence's own choice, so the two merge
        words: list = []
        for k, (s, p, c) in pieces.items():
            for piece in [("choice", k, p, "PASS ", "FAIL "), *s, " (", c, ") "]:
                _add(words, piece)
        for piece in [arithmetic, " ", outcome]:
            _add(words, piece)
        out.append(pl.when(decided).then(_concat(words)).otherwise(undecided).alias("explanation"))
    else:
        out.append(pl.lit("").alias("explanation"))
    if len(_PLANS) > 64:
        _PLANS.clear()
    _PLANS[key] = (snap, (out, failed))
    return out, failed


def _reason_texts(chunk: pl.LazyFrame, failed: list, sparse: set[str], first: int, n: int, flags) -> pl.Series:
    """reason_text's column for a chunk of n claims (rows first...): each failed test's sentence and
    citation, joined by '; ' in the order of the tests; the error of a claim not decided. A test
    that few claims fail (`sparse`) is worded for those claims alone and put in place by a gather;
    one that most fail is worded for every claim and kept where failed (the gather would cost more
    than the words it saves)."""
    queries = [chunk.filter(mask).select(at=col("row") - first, text=text) for k, mask, text in failed if k in sparse]
    placed = iter([pl.lit(_in_place(f["at"].to_numpy(), f["text"], n))
                   for f in pl.collect_all(queries, optimizations=flags)])
    parts = [next(placed) if k in sparse else pl.when(mask).then(text) for k, mask, text in failed]
    return chunk.select(pl.when(col("decided")).then(pl.concat_str(parts, separator="; ", ignore_nulls=True))
                        .otherwise(col("error")).alias("reasons")).collect(optimizations=flags).to_series()


CHUNK = 50_000  # claims worded at a time by well_frames (about 55 MB of words with explanations)
# without explanations a claim's words (its reasons) are about a fifth as long: four times the claims
# in the same memory, and a quarter of the chunks' fixed costs (each chunk is a few queries)
CHUNK_REASONS = 200_000


def well_frame(r, *, explain: bool = True, detail: bool = False, reason_list: bool = True,
               reason_text: bool = False) -> pl.DataFrame:
    """id, eligible, award, reasons (reason_list: [{test, citation, text}]; reason_text:
    'sentence (citation); ...') and explanation of every claim of a WellResults. detail=True adds
    sentence_<test>, pass_<test>, cite_<test>, arithmetic and outcome instead of the reasons and
    explanation of decided claims (for wells.decisions, which assembles them)."""
    return next(well_frames(r, chunk=max(r.cols.n, 1), explain=explain, detail=detail, reason_list=reason_list,
                            reason_text=reason_text))


def well_frames(r, *, chunk: int | None = None, explain: bool = True, detail: bool = False, reason_list: bool = True,
                reason_text: bool = False):
    """well_frame's rows `chunk` claims (default CHUNK, CHUNK_REASONS without explanations) at a time, in order: the command line writes
    each and drops it, so its memory is bounded by a chunk's words, not the file's (as the grants'
    CHUNK). The base frame (values, trace, the lists in words) is built once for all claims."""
    chunk = chunk or (CHUNK if explain or detail else CHUNK_REASONS)
    frame = _base_frame(r, items_words=explain or detail)
    reason_dtype = pl.List(pl.Struct({"test": S, "citation": S, "text": S}))
    common = [col("id"), col("eligible"), amount_expr(col("award")).alias("award")]
    undecided = _fill(WELL_OUTCOME["not_decided"], {"error": col("error")})
    if not r.tests:
        out = [*common]
        if reason_text:
            out.append(col("error").alias("reasons"))
        if reason_list:
            out.append(pl.concat_list([pl.struct(test=pl.lit("input"), citation=pl.lit(""), text=col("error"))])
                       .cast(reason_dtype).alias("reasons"))
        out.append((undecided if explain or detail else pl.lit("")).alias("explanation"))
        yield frame.select(out)
        return
    out, failed = _plan(r.snap, explain, detail, reason_list, reason_text)
    # a few claims (one on the web or the API): planning the query would cost more than running it
    flags = pl.QueryOptFlags.none() if len(frame) <= SMALL else pl.QueryOptFlags()
    sparse = {k for k, passed in r.tests.items() if (r.decided & ~passed).sum() * 2 < r.cols.n}
    for lo in range(0, max(len(frame), 1), chunk):
        part = frame.slice(lo, chunk)
        if len(frame) <= SMALL and not failed:  # a few claims: run eagerly, no query to plan
            yield part.with_columns(prelude(frame)).select(out)
            continue
        part = part.lazy().with_columns(prelude(frame))
        words = part.select(out).collect(optimizations=flags)
        if failed:
            words = words.insert_column(len(common), _reason_texts(part, failed, sparse, lo,
                                                                   min(chunk, len(frame) - lo), flags))
        yield words
