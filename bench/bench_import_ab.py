"""The inventory import, two checkouts in one run: a base (e.g. main) against this one, each beside its floor.

    .venv/bin/python bench/bench_import_ab.py --base /work/main [--rows 100000] [--rounds 2]
        [--postgres postgres://postgres@127.0.0.1:54329/powts_bench_ab] [--no-sqlite] [--profile]

Each round runs, in turn, base then this checkout (the order swaps every round, so a change in the machine's
load does not favour one side), on a fresh database each time:
- `powts import inventory FILE --skip-follow-up` on SQLite, beside a plain sqlite3 `executemany` of the same
  parsed rows into one unindexed table (the floor no import can beat), measured right before it;
- the same on PostgreSQL (with --postgres), beside `COPY` of the same rows into one table.
Printed per import: wall time, the set-based statements' time (with --profile: their logged times summed), the child's CPU
time, peak memory, the ratio to the floor and the load average at the start. Both sides run with this Python
and its libraries; PYTHONPATH=<checkout> makes each import its own code.
`--profile` logs each set-based statement's time (powts.inventory.importing at DEBUG) to <workdir>/<side>-<db>.log.
Not a test: nothing here asserts.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_inventory import baseline_copy, baseline_insert, fresh_postgres, make_csv  # noqa: E402

HERE = Path(__file__).resolve().parent.parent
PROFILE = ("import logging, sys; logging.basicConfig(stream=sys.stderr, format='%(message)s'); "
           "logging.getLogger('powts.inventory.importing').setLevel(logging.DEBUG); ")


def run_side(checkout: Path, csv_path: Path, data_dir: Path, database_url: str, log: Path | None) -> dict:
    # This virtualenv's Python for both sides (the same libraries); PYTHONPATH puts the side's own `powts`
    # ahead of the editable install.
    python = sys.executable
    env = {**os.environ, "POWTS_DATA_DIR": str(data_dir), "PYTHONPATH": str(checkout)}
    env.pop("DATABASE_URL", None)
    if database_url:
        fresh_postgres(database_url)
        env["DATABASE_URL"] = database_url
    data_dir.mkdir(parents=True, exist_ok=True)
    cli = [python, "-c", (PROFILE if log else "") + "import sys; from powts.cli import main; sys.exit(main())"]
    subprocess.run([*cli, "migrate", "-v0"], env=env, check=True, cwd=checkout)
    load = os.getloadavg()[0]
    started = time.perf_counter()
    stderr = open(log, "w") if log else subprocess.DEVNULL  # noqa: SIM115
    proc = subprocess.Popen([*cli, "import", "inventory", str(csv_path), "--jurisdiction", "dane", "--json",
                             "--skip-follow-up"], env=env, stdout=subprocess.PIPE, stderr=stderr, text=True, cwd=checkout)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    out = proc.stdout.read()
    if log:
        stderr.close()
    if status != 0:
        raise SystemExit(f"import failed in {checkout}: {out[-2000:]}")
    result = json.loads(out)
    statements = sum(float(line.split(" s ", 1)[0]) for line in open(log) if line[:1].isdigit()) if log else 0.0
    return {"wall": wall, "write": statements, "cpu": usage.ru_utime + usage.ru_stime,
            "rss": usage.ru_maxrss / 1024, "load": load, "created": result.get("created")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", type=Path, required=True, help="the other checkout")
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/powts-bench-ab"))
    parser.add_argument("--postgres", metavar="URL", default="")
    parser.add_argument("--no-sqlite", action="store_true")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    csv_path = args.workdir / f"inventory-{args.rows}.csv"
    make_csv(csv_path, args.rows)
    sides = {"base": args.base.resolve(), "this": HERE}
    databases = ([] if args.no_sqlite else ["sqlite"]) + (["postgresql"] if args.postgres else [])
    print(f"rows {args.rows:,}; base {sides['base']}; this {HERE}; cores {os.cpu_count()}")
    print(f"{'round':>5} {'db':<10} {'side':<5} {'load':>5} {'floor s':>8} {'import s':>9} {'stmts s':>8} "
          f"{'cpu s':>7} {'ratio':>6} {'peak MiB':>9}")
    for rnd in range(args.rounds):
        order = ["base", "this"] if rnd % 2 == 0 else ["this", "base"]
        for db in databases:
            for side in order:
                if db == "sqlite":
                    floor, _ = baseline_insert(csv_path, args.workdir / "floor.sqlite3")
                    url = ""
                else:
                    fresh_postgres(args.postgres)
                    floor, _ = baseline_copy(csv_path, args.postgres)
                    url = args.postgres
                data_dir = args.workdir / f"{side}-{db}"
                subprocess.run(["rm", "-rf", str(data_dir)], check=True)
                log = args.workdir / f"{side}-{db}.log" if args.profile else None
                r = run_side(sides[side], csv_path, data_dir, url, log)
                print(f"{rnd + 1:>5} {db:<10} {side:<5} {r['load']:5.1f} {floor:8.2f} {r['wall']:9.2f} {r['write']:8.2f} "
                      f"{r['cpu']:7.2f} {r['wall'] / floor:5.0f}x {r['rss']:9.0f}", flush=True)


if __name__ == "__main__":
    main()
