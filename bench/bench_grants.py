"""Wisconsin Fund program at state scale: 100,000 owner applications across 72 counties stored, decided,
certified, submitted and allocated through the services, beside the bare batch engine on the same rows;
and the department's what-if over the same caseload.

    .venv/bin/python bench/bench_grants.py [--applications 100000] [--counties 72] [--workdir /tmp/powts-bench-grants]
    DATABASE_URL=postgres://postgres@127.0.0.1:54329/powts_bench_grants .venv/bin/python bench/bench_grants.py

Stored path: `powts grants import FILE --jurisdiction SLUG --json` once per county (72 CSV files written before
the clock starts; each import parses the file with the engine's batch parser, decides it in one engine call and
inserts applications, decisions and one audit row each in one transaction), then each county certifies
(s. 145.246(8)) and applies for participation ((7)(a)), and the department's allocation run re-reads the carried
applications, decides them again at the start of the fiscal year ((11)(a)), allocates ((11)-(12),
powts.law.allocation) and stores one line per application.
Baseline: the same rows through read_columns + evaluate + allocate alone (no database).
What-if: the first call in a process (caseload read from the database), the first call in another process
(the copy the first left in the data folder) and repeated calls (the copy kept in memory).
Not a test: nothing here asserts; targets are < 60 s stored and < 2 s what-if.
"""
from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
FY = "2026-27"


def rows(n: int, slugs: list[str], seed: int = 11) -> dict[str, list]:
    rnd = random.Random(seed)
    cols: dict[str, list] = {k: [] for k in (
        "id", "applicant_type", "failure_conditions", "failure_determined_on", "applied_on", "system_installed_on",
        "annual_family_income", "annual_gross_revenue", "daily_flow_gpd", "funding_table_amount", "experimental",
        "governmental_unit", "gu_application_received_on", "site_address", "municipality")}
    for i in range(n):
        business = rnd.random() < 0.05
        cols["id"].append(str(i + 1))
        cols["applicant_type"].append("business" if business else "residence")
        cols["failure_conditions"].append(rnd.choice(["a", "b", "c", "d", "a;d", "e"]))
        cols["failure_determined_on"].append(f"2025-{rnd.randint(1, 9):02d}-{rnd.randint(1, 28):02d}")
        cols["applied_on"].append(f"2025-{rnd.randint(10, 12):02d}-{rnd.randint(1, 28):02d}")
        cols["system_installed_on"].append(f"{rnd.randint(1950, 1985)}-05-01")
        cols["annual_family_income"].append("" if business else str(rnd.randint(10, 60) * 1000))
        cols["annual_gross_revenue"].append(str(rnd.randint(50, 400) * 1000) if business else "")
        cols["daily_flow_gpd"].append(str(rnd.randint(500, 6000)) if business else "")
        cols["funding_table_amount"].append(f"{rnd.randint(2000, 9000)}.{rnd.randint(0, 99):02d}")
        cols["experimental"].append(rnd.random() < 0.02)
        cols["governmental_unit"].append(slugs[i % len(slugs)])
        cols["gu_application_received_on"].append("2026-01-15")
        # one residence each (the import looks every address up for an earlier grant, s. 145.246(3)(b))
        cols["site_address"].append(f"{i + 1} Bench Road")
        cols["municipality"].append(f"Town of {slugs[i % len(slugs)]}")
    return cols


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--applications", type=int, default=100_000)
    ap.add_argument("--counties", type=int, default=72)
    ap.add_argument("--funds", default="150000000")
    ap.add_argument("--workdir", default="/tmp/powts-bench-grants")
    args = ap.parse_args()
    os.environ["POWTS_DATA_DIR"] = args.workdir
    Path(args.workdir).mkdir(parents=True, exist_ok=True)
    if not os.environ.get("DATABASE_URL"):
        db = Path(args.workdir) / "powts.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "powts.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor == "postgresql":
        call_command("flush", interactive=False, verbosity=0)
    call_command("migrate", verbosity=0)
    import orjson

    from powts.accounts.services import user_create
    from powts.audit.choices import Channel
    from powts.audit.context import acting
    from powts.grants import allocating, participation, whatif
    from powts.grants.models import GrantApplication
    from powts.inventory.services import system_create
    from powts.jurisdictions.models import Jurisdiction
    from powts.law import fields as F
    from powts.law.allocation import allocate
    from powts.law.batch import evaluate, read_columns

    funds = F.parse_cents("--funds", args.funds)
    units = [Jurisdiction.objects.create(slug=f"county-{k:02d}", name=f"County {k:02d}", profile_slug="state")
             for k in range(1, args.counties + 1)]
    staff = {}
    for u in units:
        system_create(jurisdiction=u, system_id="S-1", parcel_number="P-1", system_type="conventional", owner_name="Owner")
        staff[u.pk] = user_create(username=f"staff-{u.slug}", password="a-long-bench-password", role="county_staff",
                                  jurisdiction=u)
    dsps = user_create(username="dsps", password="a-long-bench-password", role="dsps")
    cols = rows(args.applications, [u.slug for u in units])
    n = args.applications
    print(f"{n:,} applications, {len(units)} counties, {connection.vendor}, funds {args.funds}; "
          f"load average {os.getloadavg()[0]:.2f}")

    # -- baseline: the bare batch engine on the same rows --------------------------------------------
    t = time.perf_counter()
    bare = evaluate(read_columns(cols, n))
    a = allocate(bare, funds, FY)
    t_bare = time.perf_counter() - t
    print(f"bare engine (read + decide + allocate):        {t_bare:7.2f} s  ({int(a.award.sum()) / 100:,.2f} allocated)")

    # -- stored path: `powts grants import FILE --jurisdiction SLUG --json`, one file per county ------
    # (the files are the input, written before the clock starts; each import is one transaction)
    import io

    import polars as pl

    frame = pl.DataFrame({k: [("true" if v else "false") if isinstance(v, bool) else v for v in vals]
                          for k, vals in cols.items()})
    files = {}
    for u in units:
        files[u.slug] = str(Path(args.workdir) / f"applications-{u.slug}.csv")
        frame.filter(pl.col("governmental_unit") == u.slug).write_csv(files[u.slug])
    t0 = time.perf_counter()
    totals = {"rows": 0, "stored": 0, "eligible": 0, "ineligible": 0, "rejected": 0}
    for u in units:
        out = io.StringIO()
        call_command("grants", "import", files[u.slug], "--jurisdiction", u.slug, "--json", stdout=out)
        summary = orjson.loads(out.getvalue())
        for k in totals:
            totals[k] += len(summary[k]) if k == "rejected" else summary[k]
    ids = dict(GrantApplication.objects.values_list("external_id", "id"))
    ids = [ids.get(str(i + 1)) for i in range(n)]
    print(f"imported: {totals}")
    t2 = time.perf_counter()
    for u in units:
        with acting(actor=staff[u.pk], channel=Channel.CLI, actor_label="bench"):
            participation.certify(jurisdiction=u, fiscal_year=FY, user=staff[u.pk], official_title="Sanitarian")
            participation.submit(jurisdiction=u, fiscal_year=FY, user=staff[u.pk], received_on=dt.date(2026, 1, 15))
    t3 = time.perf_counter()
    with acting(actor=dsps, channel=Channel.CLI, actor_label="bench"):
        run = allocating.run_allocation(fiscal_year=FY, funds_cents=funds, user=dsps)
    t4 = time.perf_counter()
    stored = dict(run.lines.values_list("application_id", "award"))
    same = all(stored.get(ids[i], 0) == int(a.award[i]) for i in range(n) if bare.eligible[i])
    print(f"stored: import (decide + store) {t2 - t0:.2f} s + certify/submit {t3 - t2:.2f} s "
          f"+ allocate {t4 - t3:.2f} s")
    print(f"stored path total:                             {t4 - t0:7.2f} s  (x{(t4 - t0) / t_bare:.1f} the bare engine; "
          f"awards equal to the bare engine's: {same})")

    # -- what-if ------------------------------------------------------------------------------------------
    # the first call in a fresh process reads the caseload (nothing kept yet); later calls find it kept
    from powts.grants import caseload as caseloads

    caseloads._KEPT.clear()
    for old in (Path(args.workdir) / caseloads.SHARED_FOLDER).glob("*.arrow"):
        old.unlink()
    t, c = time.perf_counter(), time.process_time()
    w = whatif.run(fiscal_year=FY, funds_cents=funds, income_limit_cents=50000_00)
    print(f"what-if, first call (caseload read from the database): {time.perf_counter() - t:7.2f} s "
          f"(CPU {time.process_time() - c:.2f} s)")
    caseloads._KEPT.clear()  # as another process of `powts serve` would find it: the copy in the data folder
    t, c = time.perf_counter(), time.process_time()
    whatif.run(fiscal_year=FY, funds_cents=funds, income_limit_cents=50000_00)
    print(f"what-if, first call in another process (shared copy): {time.perf_counter() - t:7.2f} s "
          f"(CPU {time.process_time() - c:.2f} s)")
    times, cpu = [], []
    for k in range(3):
        t, c = time.perf_counter(), time.process_time()
        w = whatif.run(fiscal_year=FY, funds_cents=funds, income_limit_cents=50000_00 + k)
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    print(f"what-if (income limit $50,000, {w.applications:,} applications): best {min(times):.2f} s, "
          f"worst {max(times):.2f} s (CPU {min(cpu):.2f}-{max(cpu):.2f} s); cost {w.base_cost / 100:,.2f} -> {w.cost / 100:,.2f}, "
          f"{w.winners:,} gain, {w.losers:,} lose")
    t, c = time.perf_counter(), time.process_time()
    bare2 = evaluate(read_columns(cols, n))
    allocate(bare2, funds, FY)
    print(f"bare engine, one side of the what-if:          {time.perf_counter() - t:7.2f} s "
          f"(CPU {time.process_time() - c:.2f} s); load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
