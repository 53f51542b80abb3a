"""Benchmark: `powts grants import` (store and decide) beside the bare batch engine, in one run.

    .venv/bin/python bench/bench_grants_import.py [--rows 100000] [--repeat 1]
    DATABASE_URL=postgres://postgres@127.0.0.1:54329/powts_bench .venv/bin/python bench/bench_grants_import.py

For N owners' applications (a CSV a county would send: the fields of `powts rules evaluate
wisconsin-fund-grant` plus owner_name, site_address, municipality), it prints:
  1. the bare engine: read the file, parse, decide every row and write every row's reasons and
     explanation into memory (powts.law: read_table, read_columns, evaluate, grant_frame);
  2. the import: the same, plus the one-grant-per-residence lookup, and the applications, decisions
     and audit rows written in one transaction (SQLite by default; PostgreSQL with DATABASE_URL);
     each run into an empty database (migrated before the clock starts).
Benchmarks are not tests: read the ratio; absolute times move with the machine's load.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def write_file(path: Path, n: int, seed: int = 7) -> None:
    import polars as pl

    rng = np.random.default_rng(seed)
    start = np.datetime64("2025-02-01")
    determined = start + rng.integers(0, 300, n).astype("timedelta64[D]")
    applied = determined + rng.integers(0, 400, n).astype("timedelta64[D]")
    business = rng.random(n) < 0.1
    street = rng.integers(1, n * 2, n)  # about one residence in 40 appears twice
    pl.DataFrame({
        "id": [f"G{i}" for i in range(n)],
        "applicant_type": np.where(business, "business", "residence"),
        "failure_conditions": np.array(["a", "b", "c", "d", "e", "a;d", "b;e"])[rng.integers(0, 7, n)],
        "failure_determined_on": determined.astype(str),
        "applied_on": applied.astype(str),
        "system_installed_on": (np.datetime64("1960-01-01") + rng.integers(0, 9000, n).astype("timedelta64[D]")).astype(str),
        "sewer_available": np.where(rng.random(n) < 0.05, "true", "false"),
        "annual_family_income": np.where(business, "", (rng.integers(0, 6_000_000, n) / 100).astype(str)),
        "annual_gross_revenue": np.where(business, (rng.integers(0, 40_000_000, n) / 100).astype(str), ""),
        "daily_flow_gpd": np.where(business, rng.integers(100, 6000, n).astype(str), ""),
        "funding_table_amount": (rng.integers(100_000, 1_400_000, n) / 100).astype(str),
        "owner_name": [f"Owner {i}" for i in range(n)],
        "site_address": [f"{s} County Road K" for s in street.tolist()],
        "municipality": np.array(["Town of Verona", "Town of Dunn", "Town of Berry"])[street % 3],
    }).write_csv(path)


def bare(path: Path) -> tuple[float, float]:
    from powts.law.batch import evaluate, read_columns
    from powts.law.io import read_table
    from powts.law.render import grant_frame

    t, cpu = time.perf_counter(), time.process_time()
    table = read_table(str(path))
    r = evaluate(read_columns(table.columns, table.n))
    frame = grant_frame(r, explain=True, reason_list=True)
    frame["reason_list"].to_list(), frame["explanation"].to_list()
    return time.perf_counter() - t, time.process_time() - cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    os.environ.setdefault("POWTS_DATA_DIR", tempfile.mkdtemp())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "powts.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from powts.grants.importing import import_applications
    from powts.grants.models import GrantApplication, GrantDecision
    from powts.jurisdictions.services import jurisdiction_ensure

    work = Path(tempfile.mkdtemp())
    path = work / "applications.csv"
    write_file(path, args.rows)
    print(f"{args.rows:,} applications, {path.stat().st_size / 1e6:.1f} MB CSV; database: {connection.vendor}")
    bare_best = min(bare(path) for _ in range(args.repeat))
    call_command("migrate", interactive=False, verbosity=0)
    best = None
    for _ in range(args.repeat):
        GrantDecision.objects.all().delete()
        GrantApplication.objects.all().delete()
        unit = jurisdiction_ensure(slug="dane")
        t, cpu = time.perf_counter(), time.process_time()
        result = import_applications(str(path), jurisdiction=unit)
        took = (time.perf_counter() - t, time.process_time() - cpu)
        best = took if best is None else min(best, took)
    print("  (wall s / CPU s of this process; the database server's CPU is not in the second figure)")
    print(f"  bare engine (read, decide, words):            {bare_best[0]:6.2f} / {bare_best[1]:6.2f}")
    print(f"  powts grants import (+ store, audit, 1 txn):  {best[0]:6.2f} / {best[1]:6.2f}  "
          f"({best[0] / bare_best[0]:.1f}x the engine's wall time)")
    print(f"  stored {result.stored:,} (eligible {result.eligible:,}, ineligible {result.ineligible:,}), "
          f"rejected {len(result.rejected):,}")


if __name__ == "__main__":
    main()
