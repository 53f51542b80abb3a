"""CPU per report through the API, the client's and the database server's, one report after another
(what bounds the report API's 200 a second).

    DATABASE_URL=postgres://postgres@127.0.0.1:54330/<work db> \
      .venv/bin/python bench/cpu_per_report.py --template <built db> [--reports 2000] [--rounds 3]
    .venv/bin/python bench/cpu_per_report.py --build            # once: the template (100,000 systems)
    ... --by-statement 2000                                     # then each statement's share of the client's CPU

Not a test. A load test on a shared machine cannot tell a change of a few hundred microseconds from
noise; this can. Reports go through Django's whole WSGI handler and middleware in this process (the
test client, no socket), posted one after another, so nothing waits and the CPU figures are per report:
- client: this process's CPU (user + system), the application's cost of a report;
- server: the CPU of this connection's PostgreSQL backend (`pg_backend_pid()`, read from /proc/<pid>/stat
  before and after), the database's cost of a report, triggers, parsing and planning included;
- statements and round trips per report, counted on the wire by libpq's protocol trace over a sample:
  a round trip is a ReadyForQuery, a statement a Query or an Execute, a parse a Query or a Parse.
Each run starts from a fresh copy of the template (PostgreSQL: CREATE DATABASE ... TEMPLATE; SQLite:
a copy of the file), so two builds of the code see the same data and the same reports, in the same order.
The connection is kept for the whole run (CONN_MAX_AGE None here: one backend to read).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

# This checkout's code first, then its bench folder: an A/B run from another checkout measures that one's
# code, not whichever checkout the virtualenv installed.
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TRACE_SAMPLE = 40


def _pg_parts(url: str):
    m = re.match(r"^(postgres(?:ql)?://[^/]+)/([^?]+)", url)
    if not m:
        raise SystemExit(f"not a postgres:// URL with a database name: {url}")
    return m.group(1), m.group(2)


def fresh_copy(template: str) -> None:
    """The work database (DATABASE_URL, or the SQLite file in $POWTS_DATA_DIR) made a copy of `template`."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        import psycopg

        server, name = _pg_parts(url)
        if name == template:
            raise SystemExit("the work database must not be the template")
        with psycopg.connect(f"{server}/postgres", autocommit=True) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{name}"')
            c.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    else:
        target = Path(os.environ["POWTS_DATA_DIR"]) / "powts.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            Path(str(target) + suffix).unlink(missing_ok=True)
        shutil.copyfile(template, target)


def _proc_cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _wire_counts(trace: str) -> dict:
    counts = {"round trips": 0, "statements": 0, "parses": 0}
    for line in trace.splitlines():
        parts = line.split("\t")
        if len(parts) < 3:
            continue
        who, kind = parts[0], parts[2].split(" ")[0]
        if who == "B" and kind == "ReadyForQuery":
            counts["round trips"] += 1
        elif who == "F" and kind in ("Query", "Execute"):
            counts["statements"] += 1
        if who == "F" and kind in ("Query", "Parse"):
            counts["parses"] += 1
    return counts


def by_statement(post, connection, n: int) -> None:
    """This process's CPU inside each statement's execute, per report, by verb and first table named."""
    spent, count = {}, {}

    def timed(execute, sql, params, many, context):
        t = time.process_time()
        try:
            return execute(sql, params, many, context)
        finally:
            used = time.process_time() - t  # before naming the statement, which is not its cost
            key = sql.split(None, 1)[0] + (" " + sql.split('"')[1] if '"' in sql else "")
            spent[key] = spent.get(key, 0.0) + used
            count[key] = count.get(key, 0) + 1

    c0 = time.process_time()
    with connection.execute_wrapper(timed):
        post(n)
    total = (time.process_time() - c0) / n * 1000
    print(f"client CPU per report over {n} more: {total:.3f} ms, inside execute {sum(spent.values()) / n * 1000:.3f} ms:")
    for key, seconds in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(f"  {seconds / n * 1e6:7.0f} µs  x{count[key] / n:.2f}  {key}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", action="store_true", help="build the database named by DATABASE_URL (or the SQLite file) "
                                                         "as a template, then stop")
    ap.add_argument("--template", default="", help="PostgreSQL database (or SQLite file) to copy before the run")
    ap.add_argument("--systems", type=int, default=100_000)
    ap.add_argument("--reports", type=int, default=2000, help="reports per round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--by-statement", type=int, default=0, metavar="N",
                    help="then N more reports, this process's CPU inside each statement's execute (Django's and the "
                         "driver's side of it: sending, waiting excluded, reading), by statement kind and table")
    ap.add_argument("--interleave-unprepared", action="store_true",
                    help="PostgreSQL: every other round with POWTS_PG_PREPARE off, in this one process (an A/B that "
                         "the machine's load drifts through equally)")
    args = ap.parse_args(argv)
    os.environ.setdefault("POWTS_DATA_DIR", tempfile.mkdtemp(prefix="powts-cpu-report-"))
    if args.template and not args.build:
        fresh_copy(args.template)
    import profile_report as pr

    if args.build:
        pr.setup(args.systems)
        print("built; use it as --template")
        return 0
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "powts.settings")
    import django

    django.setup()
    from django.db import connection

    connection.settings_dict["CONN_MAX_AGE"] = None  # before it connects
    token, refs = pr.setup(args.systems)
    from django.db import connection
    from django.test import Client

    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    sent = [0]

    def post(n):
        for body in list(pr.bodies(refs, sent[0], n)):
            r = client.post("/api/maintenance/reports/", body, content_type="application/json")
            assert r.status_code == 201, r.content
        sent[0] += n

    post(50)  # warm: imports, caches, compiled statements
    pg = connection.vendor == "postgresql"
    backend = None
    if pg:
        with connection.cursor() as c:
            c.execute("SELECT pg_backend_pid()")
            backend = c.fetchone()[0]
    print(f"database: {connection.vendor}; {args.rounds} rounds of {args.reports} reports; load average "
          + "%.2f %.2f %.2f" % os.getloadavg())
    from django.conf import settings

    rows, labels = [], []
    for k in range(args.rounds):
        if args.interleave_unprepared:
            settings.POWTS_PG_PREPARE = k % 2 == 0
        labels.append("prepared" if getattr(settings, "POWTS_PG_PREPARE", False) else "unprepared")
        bodies = list(pr.bodies(refs, sent[0], args.reports))
        load0 = os.getloadavg()[0]
        s0 = _proc_cpu(backend) if pg else 0.0
        w0, c0 = time.perf_counter(), time.process_time()
        for body in bodies:
            r = client.post("/api/maintenance/reports/", body, content_type="application/json")
            assert r.status_code == 201, r.content
        c1, w1 = time.process_time(), time.perf_counter()
        s1 = _proc_cpu(backend) if pg else 0.0
        sent[0] += args.reports
        n = args.reports
        rows.append(((c1 - c0) / n * 1000, (s1 - s0) / n * 1000, (w1 - w0) / n * 1000))
        print(f"  round {k + 1} ({labels[-1]}): client CPU {rows[-1][0]:.3f} ms  server CPU {rows[-1][1]:.3f} ms  "
              f"sum {rows[-1][0] + rows[-1][1]:.3f} ms  wall {rows[-1][2]:.3f} ms a report  "
              f"(load {load0:.2f} -> {os.getloadavg()[0]:.2f})")
    if pg:
        with connection.cursor() as c:
            c.execute("SELECT pg_backend_pid()")
            assert c.fetchone()[0] == backend, "the connection was replaced during the run"
    for kind in dict.fromkeys(labels):
        mine = [r for r, lab in zip(rows, labels, strict=True) if lab == kind]
        head = f"[{kind}] " if len(set(labels)) > 1 else ""
        for i, label in enumerate(("client CPU", "server CPU", "wall")):
            vals = [r[i] for r in mine]
            print(f"{head}{label:11s} per report: best {min(vals):.3f} ms, spread {max(vals) - min(vals):.3f} ms "
                  f"(median {statistics.median(vals):.3f})")
        print(f"{head}client + server CPU per report: best {min(r[0] + r[1] for r in mine):.3f} ms")
    settings.POWTS_PG_PREPARE = labels[0] == "prepared"
    # Django's statements, then the wire, over a sample (tracing costs CPU, so not in the rounds above)
    executed = []
    with connection.execute_wrapper(lambda execute, sql, params, many, context: (executed.append(sql), execute(sql, params, many, context))[1]):
        post(TRACE_SAMPLE)
    print(f"statements Django sends per report: {len(executed) / TRACE_SAMPLE:.2f}")
    if args.by_statement:
        by_statement(post, connection, args.by_statement)
    if pg:
        import psycopg.pq

        with tempfile.TemporaryFile("w+") as f:
            pgconn = connection.connection.pgconn
            pgconn.trace(f.fileno())
            pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS | psycopg.pq.Trace.REGRESS_MODE)
            try:
                post(TRACE_SAMPLE)
            finally:
                pgconn.untrace()
            f.seek(0)
            wire = _wire_counts(f.read())
        print("on the wire per report: " + ", ".join(f"{k} {v / TRACE_SAMPLE:.2f}" for k, v in wire.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
