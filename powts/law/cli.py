"""`powts rules ...`: decide and allocate from files, without Django.

    powts rules evaluate wisconsin-fund-grant --input FILE --output FILE
    powts rules evaluate well-compensation --input FILE --output FILE
    powts rules allocate wisconsin-fund --funds AMOUNT --input FILE --output FILE [--fiscal-year 2025-26]
    powts rules allocate well-compensation --funds AMOUNT --input FILE --output FILE
    powts rules check        (validate the parameter files and sweep the versions by date)

Files are .jsonl or .csv; `--output -` writes JSON Lines to standard output. A bad row comes back
as that row's error naming the field and the batch goes on. Exit status: 0 done (rows with errors
included), 1 a file or parameter file cannot be used, 2 wrong usage.
"""
from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

from . import fields as F
from .engine import LawDateError, ParameterError, default_parameters

GRANT_FIELDS = ["id", "eligible", "amount", "category", "version", "reasons", "explanation"]
WELL_FIELDS = ["id", "eligible", "award", "reasons", "explanation"]
ALLOCATION_FIELDS = ["id", "category", "requested", "award", "governmental_unit", "status", "note"]
SUMMARY_FIELDS = ["governmental_unit", "category", "applications", "requested", "award"]


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # usage errors: message and exit 2, no traceback
        self.print_usage(sys.stderr)
        print(f"powts rules: {message}", file=sys.stderr)
        raise SystemExit(2)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="powts rules", description="Wisconsin Fund grants and well compensation, as cited code.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    ev = sub.add_parser("evaluate", help="decide each row of a file", description=(
        "Decide each row. Grant output: id, eligible, amount, category, version, reasons, explanation. "
        "Amounts are dollars with cents; the 30% income reduction is rounded half up to the cent before "
        "it is subtracted (the statutes do not say how to round)."))
    ev.add_argument("program", choices=["wisconsin-fund-grant", "well-compensation"], help="which rules decide the rows")
    ev.add_argument("--input", required=True, metavar="FILE", help="the rows to decide (.csv or .jsonl)")
    ev.add_argument("--output", required=True, metavar="FILE", help="where the decisions go (.csv or .jsonl)")
    ev.add_argument("--no-explanation", action="store_true",
                    help="leave the explanation column empty (reasons still name and cite each failed test); for bulk runs")
    ev.add_argument("--columns", help="output only these columns, e.g. id,eligible,amount (grants; default: all)")
    al = sub.add_parser("allocate", help="allocate a fiscal year's funds",
                        description="Allocate a fiscal year's funds among the applications or claims in a file.")
    al.add_argument("program", choices=["wisconsin-fund", "well-compensation"], help="which program's allocation rules")
    al.add_argument("--funds", required=True, help="dollars available, e.g. 840000 or 840000.00")
    al.add_argument("--input", required=True, metavar="FILE", help="the applications or claims (.csv or .jsonl)")
    al.add_argument("--output", required=True, metavar="FILE", help="one row per application or claim")
    al.add_argument("--fiscal-year", help="e.g. 2025-26: checks that each unit applied before Feb 1, 2025")
    al.add_argument("--summary", help="file for totals per unit and category (default: OUTPUT with .summary before the extension)")
    sub.add_parser("check", help="validate the parameter files and show which version covers which dates",
                   description="Validate the law's parameter files and show which version covers which dates.")
    return p


def main(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    from .io import InputError
    try:
        default_parameters()
        if args.command == "check":
            return _check()
        if args.command == "evaluate":
            return _evaluate_grants(args) if args.program == "wisconsin-fund-grant" else _evaluate_wells(args)
        return _allocate_grants(args) if args.program == "wisconsin-fund" else _allocate_wells(args)
    except ParameterError as e:
        print(f"powts rules: parameter file error: {e}", file=sys.stderr)
        return 1
    except (InputError, ValueError) as e:
        print(f"powts rules: {e}", file=sys.stderr)
        return 1
    except LawDateError as e:
        print(f"powts rules: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except MemoryError:
        print("powts rules: out of memory; split the input file", file=sys.stderr)
        return 1
    except Exception as e:  # a bug of ours: say so plainly, no traceback (POWTS_DEBUG=1 shows it)
        import os

        if os.environ.get("POWTS_DEBUG"):
            raise
        print(f"powts rules: internal error ({type(e).__name__}: {e}); please report it with the input file", file=sys.stderr)
        return 1


def _funds(text: str) -> int:
    try:
        return F.parse_cents("--funds", text)
    except F.FieldError as e:
        raise ValueError(str(e)) from None


def _stage(name: str, start: float) -> float:
    """POWTS_TIMING=1 prints how long each stage took (for the benchmark's notes)."""
    import os
    import time

    now = time.perf_counter()
    if os.environ.get("POWTS_TIMING"):
        print(f"powts rules: {name} {now - start:.2f} s", file=sys.stderr)
    return now


def _grant_results(path: str):
    import time

    from .batch import evaluate, read_columns
    from .io import read_table

    t = time.perf_counter()
    table = read_table(path)
    t = _stage("read file", t)
    cols = read_columns(table.columns, table.n)
    for i, msg in table.line_errors.items():
        cols.errors.msg[i], cols.errors.any[i] = msg, True
    t = _stage("read columns", t)
    results = evaluate(cols)
    _stage("decide", t)
    return results


def _amount(c: int) -> str:
    return f"{c // 100}.{c % 100:02d}"


CHUNK = 200_000  # rows written at a time: bounded memory for any file size


def _evaluate_grants(args) -> int:
    """Decisions written column-wise: render.grant_frame builds every row's words with polars
    string expressions, polars writes the file; no Python loop per row."""
    import time

    from .io import InputError, kind_of
    from .render import decision_frame, grant_frame

    columns = GRANT_FIELDS
    if args.columns:
        columns = [c.strip() for c in args.columns.split(",") if c.strip()]
        unknown = [c for c in columns if c not in GRANT_FIELDS]
        if unknown or not columns:
            raise ValueError(f"--columns: {', '.join(unknown) or '(none)'} not among {', '.join(GRANT_FIELDS)}")
    to_csv = args.output != "-" and kind_of(args.output) == "csv"
    r = _grant_results(args.input)
    t = time.perf_counter()
    explain = not args.no_explanation and "explanation" in columns
    words = "reasons" in columns or "explanation" in columns
    import contextlib

    try:
        opened = contextlib.nullcontext() if args.output == "-" else open(args.output, "wb")  # noqa: SIM115
    except OSError as e:
        raise InputError(f"{args.output}: cannot write ({e.strerror})") from None
    with opened as handle:
        # words are built a chunk at a time (bounded memory); decisions alone in one go
        for lo in range(0, max(r.cols.n, 1), CHUNK if words else max(r.cols.n, 1)):
            rows = None if r.cols.n <= CHUNK or not words else range(lo, min(lo + CHUNK, r.cols.n))
            if words:
                frame = grant_frame(r, rows, explain=explain, reason_text=to_csv and "reasons" in columns,
                                    reason_list=not to_csv and "reasons" in columns)
            else:
                frame = decision_frame(r, columns)
            frame = frame.rename({"reason_list": "reasons"}, strict=False).select(columns)
            if to_csv:
                frame.write_csv(handle, include_header=lo == 0)
            elif r.cols.n:
                if handle is None:
                    sys.stdout.write(frame.write_ndjson())
                else:
                    frame.write_ndjson(handle)
    if args.output == "-":
        sys.stdout.flush()
    _stage("write words", t)
    _report(int((~r.decided).sum()), r.cols.n)
    return 0


def _well_results(path: str):
    import time

    from .io import read_table
    from .wells import evaluate, read_columns

    t = time.perf_counter()
    table = read_table(path)
    t = _stage("read file", t)
    cols = read_columns(table.columns, table.n, line_errors=table.line_errors)
    t = _stage("read columns", t)
    r = evaluate(cols)
    _stage("decide", t)
    return r


def _well_decisions(path: str):
    from .wells import decisions

    return decisions(_well_results(path), words=False)


def _evaluate_wells(args) -> int:
    import time

    r = _well_results(args.input)
    t = time.perf_counter()
    write_well_decisions(r, args.output, explain=not args.no_explanation)
    _stage("write words", t)
    _report(int((~r.decided).sum()), r.cols.n)
    return 0


def write_well_decisions(r, output: str, *, explain: bool = True) -> None:
    """Decisions written column-wise, a chunk of claims at a time (bounded memory):
    well_render.well_frames builds every row's words with polars string expressions, polars writes
    the file; no Python loop per row."""
    import contextlib

    import polars as pl

    from .io import InputError, kind_of
    from .well_render import well_frames

    to_csv = output != "-" and kind_of(output) == "csv"
    frames = well_frames(r, explain=explain, reason_text=to_csv, reason_list=not to_csv)
    try:
        with contextlib.nullcontext() if output == "-" else open(output, "wb") as handle:  # noqa: SIM115
            for k, frame in enumerate(frames):
                frame = frame.select(WELL_FIELDS)
                if to_csv:
                    # polars quotes an empty string ("") and leaves a null empty: blank cells are written empty
                    frame.with_columns(pl.col(c).replace("", None) for c in ("id", "reasons", "explanation")) \
                        .write_csv(handle, include_header=k == 0)
                elif not r.cols.n:
                    pass
                elif handle is None:
                    sys.stdout.write(frame.write_ndjson())
                else:
                    frame.write_ndjson(handle)
    except OSError as e:
        raise InputError(f"{output}: cannot write ({e.strerror})") from None
    if output == "-":
        sys.stdout.flush()


def _summary_path(args) -> str | None:
    if args.summary:
        return args.summary
    if args.output == "-":
        return None
    p = Path(args.output)
    return str(p.with_name(p.stem + ".summary" + p.suffix))


def _allocate_grants(args) -> int:
    from .allocation import allocate
    from .io import write_rows

    funds = _funds(args.funds)
    r = _grant_results(args.input)
    a = allocate(r, funds, args.fiscal_year)
    rows = ({"id": a.ids[i], "category": int(a.category[i]) or None, "requested": _amount(int(a.requested[i])),
             "award": _amount(int(a.award[i])), "governmental_unit": a.unit[i], "status": a.status[i], "note": a.note[i]}
            for i in range(len(a.ids)))
    write_rows(args.output, ALLOCATION_FIELDS, rows)
    summary = _summary_path(args)
    if summary:
        write_rows(summary, SUMMARY_FIELDS, a.summary)
    else:
        write_rows("-", SUMMARY_FIELDS, ({"record": "summary", **s} for s in a.summary))
    _report(int((~r.decided).sum()), r.cols.n)
    return 0


def _allocate_wells(args) -> int:
    from .io import write_rows
    from .wells import PROGRAM, pay_in_order

    funds = _funds(args.funds)
    decisions = _well_decisions(args.input)
    payments = pay_in_order(decisions, funds)
    dated = [d.claimed_on for d in decisions if d.claimed_on]
    cite = default_parameters().snapshot(PROGRAM, max(dated))["test_citations"]["order"] if dated else ""
    note = f"paid in the order completed claims were received ({cite})" if cite else ""
    rows = ({"id": p.id, "award": _amount(p.award), "paid": _amount(p.paid), "status": p.status,
             "position": p.position, "note": note} for p in payments)
    write_rows(args.output, ["id", "award", "paid", "status", "position", "note"], rows)
    _report(sum(1 for d in decisions if d.error), len(decisions))
    return 0


def _report(errors: int, total: int) -> None:
    if errors:
        print(f"powts rules: {total} rows, {errors} not decided (see their reasons)", file=sys.stderr)


def _check() -> int:
    params = default_parameters()
    for program, periods in params.periods.items():
        print(program)
        for p in periods:
            print(f"  {p.effective_from} .. {p.effective_to or 'open'}: {p.version or 'no program in force'}  [{p.citation.section}]")
        counts = params.sweep(program, periods[0].effective_from - dt.timedelta(days=1), dt.date(2030, 12, 31))
        print(f"  days by version through 2030: {counts}")
    return 0
