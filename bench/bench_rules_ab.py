"""Before and after: `powts rules evaluate wisconsin-fund-grant` (or `well-compensation`) from two checkouts
on the same file, run alternately, beside polars copying the file and, for grants, the OpenFisca peer
(bench_rules.py --openfisca-cli).

    python3.11 bench/bench_rules_ab.py --base /path/to/other/checkout [--input bench/out/grants.csv] [--repeat 2]
    python3.11 bench/bench_rules_ab.py --base ... --program well-compensation --input bench/out/wells.csv

Each checkout runs with its own .venv. The input is the file bench_rules.py writes (run it once first).
CPU seconds (user + system, from getrusage) and wall seconds, best of --repeat; the outputs of the two
checkouts must be byte-identical (checked). The load average is printed before and after each round.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = [("--columns id,eligible,amount", ["--columns", "id,eligible,amount"]),
         ("--no-explanation", ["--no-explanation"]), ("with explanations", [])]


def _run(cmd: list[str], cwd: Path) -> tuple[float, float]:
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:3])}...: {proc.stderr}")
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True, help="the other checkout (with its own .venv)")
    ap.add_argument("--input", default=str(ROOT / "bench" / "out" / "grants.csv"))
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--program", default="wisconsin-fund-grant", choices=["wisconsin-fund-grant", "well-compensation"])
    args = ap.parse_args()
    grants = args.program == "wisconsin-fund-grant"
    cases = CASES if grants else [c for c in CASES if not c[0].startswith("--columns")]
    trees = {"before": Path(args.base).resolve(), "after": ROOT}
    peer_py = ROOT / "bench" / ".venv-openfisca" / "bin" / "python"
    out = Path(tempfile.mkdtemp(prefix="powts-ab-"))
    try:  # the outputs are gigabytes at a million rows: never leave them behind
        return _compare(args, grants, cases, trees, peer_py, out)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def _compare(args, grants, cases, trees, peer_py, out) -> int:
    figures: dict[str, list[tuple[float, float]]] = {}
    for _ in range(args.repeat):
        print(f"load average {os.getloadavg()[0]:.1f}", flush=True)
        figures.setdefault("polars read+write", []).append(_run(
            [sys.executable, "-c", f"import polars as pl; pl.read_csv({args.input!r}, infer_schema=False)"
             f".write_csv({str(out / 'copy.csv')!r})"], ROOT))
        if grants and peer_py.exists():
            figures.setdefault("OpenFisca + polars", []).append(_run(
                [str(peer_py), str(ROOT / "bench" / "bench_rules.py"), "--openfisca-cli", args.input,
                 str(out / "peer.csv")], ROOT))
        for label, extra in cases:
            written = {}
            for name, tree in trees.items():
                dst = out / f"{name}.csv"
                figures.setdefault(f"{label} [{name}]", []).append(_run(
                    [str(tree / ".venv" / "bin" / "python"), "-c", "import sys; from powts.cli import main; sys.exit(main())",
                     "rules", "evaluate", args.program, "--input", args.input, "--output", str(dst), *extra],
                    tree))
                written[name] = dst.read_bytes()
            if written["before"] != written["after"]:
                print(f"OUTPUTS DIFFER: {label}", file=sys.stderr)
                return 1
    print(f"load average {os.getloadavg()[0]:.1f}")
    for label, runs in figures.items():
        print(f"{label:42s} CPU {min(c for c, _ in runs):6.2f} s   wall {min(w for _, w in runs):6.2f} s")
    print("outputs of the two checkouts identical on every case")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
