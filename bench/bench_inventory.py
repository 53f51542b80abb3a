"""Inventory at county-to-state scale: import, search and pages over N systems (default 1,000,000).

    .venv/bin/python bench/bench_inventory.py [--rows 1000000] [--workdir /tmp/powts-bench] [--import-only]
        [--postgres postgres://postgres@127.0.0.1:54329/powts_bench]   (import on PostgreSQL beside COPY; CPU of client + server)

Prints each figure beside a baseline measured in the same run (ratios hold on a noisy machine):
- import: `powts import inventory` (parse, check, parcels/owners/systems/components, an audit event
  per record, search index) vs a plain sqlite3 executemany of the same parsed rows into one table of
  the same columns; and the import's peak memory (target: <= 3x, < 1 GiB)
- search by parcel piece, id, address piece, owner name: the indexed search vs a LIKE '%x%' scan
  (target p95 < 50 ms)
- inventory list page and system page, server side through Django's handler (target p95 < 100 ms),
  each beside the bare query the page ran before it became a django-tables2 table with a total:
  the filtered rows of one page plus one, no count
- the list's total alone (exact to 10,000, estimated or "more than" beyond) and the CSV export's rate
Not a test: nothing here asserts.
"""
from __future__ import annotations

import argparse
import contextlib
import csv
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POWTS = [sys.executable, "-c", "import sys; from powts.cli import main; sys.exit(main())"]


def p95(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=20)[-1] if len(samples) >= 20 else max(samples)


def ms(x: float) -> str:
    return f"{x * 1000:7.1f} ms"


def make_csv(path: Path, rows: int) -> None:
    if path.exists() and sum(1 for _ in open(path, encoding="utf-8")) == rows + 1:
        return
    sys.path.insert(0, str(ROOT))
    from powts.inventory.demo_data import write_csv

    t = time.perf_counter()
    write_csv(path, "dane", rows, seed=42, messy=True)
    print(f"generated {rows:,} rows in {time.perf_counter() - t:.1f} s -> {path}")


def baseline_insert(path: Path, db: Path) -> tuple[float, int]:
    header, rows = parsed_rows(path)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=NORMAL")
    con.execute(f"CREATE TABLE inventory ({', '.join(f'{h} TEXT' for h in header)})")
    t, cpu = time.perf_counter(), time.process_time()
    con.executemany(f"INSERT INTO inventory VALUES ({', '.join('?' * len(header))})", rows)
    con.commit()
    elapsed = time.perf_counter() - t
    baseline_insert.cpu = time.process_time() - cpu
    con.close()
    return elapsed, len(rows)


def floor_copy(imported: Path, empty: Path) -> tuple[float, float, int, dict]:
    """The least the import can cost on SQLite: every row it stored, copied by executemany into an empty
    database of the same schema (its indexes included), then the search index built from the systems in
    one statement; in one transaction, on the connection settings of the baseline. No file to read, no
    check, no trigger (each derived row is copied as stored), no Python per row beyond sqlite3's own.
    Returns wall time, CPU time, rows written and each table's rows and seconds."""
    src, dst = sqlite3.connect(imported), sqlite3.connect(empty)
    dst.execute("PRAGMA journal_mode=WAL")
    dst.execute("PRAGMA synchronous=NORMAL")
    for (name,) in dst.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        dst.execute(f'DROP TRIGGER "{name}"')
    fts = [n for (n,) in dst.execute("SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%'")]
    tables = [n for (n,) in dst.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
              if not any(n == f or n.startswith(f + "_") for f in fts)]
    data = {}
    for name in tables:  # read before the clock starts
        before = dst.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
        rows = src.execute(f'SELECT * FROM "{name}"').fetchall()
        if len(rows) > before:
            dst.execute(f'DELETE FROM "{name}"')  # what migrate put there (content types, say), copied back with the rest
            dst.commit()
            data[name] = rows
    src.close()
    t, cpu = time.perf_counter(), time.process_time()
    each = {}
    dst.execute("BEGIN")
    for name, rows in data.items():
        t1 = time.perf_counter()
        dst.executemany(f'INSERT INTO "{name}" VALUES ({", ".join("?" * len(rows[0]))})', rows)
        each[name] = (len(rows), time.perf_counter() - t1)
    for name in fts:
        t1 = time.perf_counter()
        dst.execute(f"INSERT INTO {name}({name}) VALUES ('rebuild')")
        each[name] = (len(data.get("inventory_system", ())), time.perf_counter() - t1)
    dst.commit()
    elapsed, used = time.perf_counter() - t, time.process_time() - cpu
    dst.close()
    return elapsed, used, sum(len(r) for r in data.values()), each


def parsed_rows(path: Path) -> tuple[list[str], list[tuple]]:
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        return header, [tuple(r) for r in reader]


def backend_cpu(pid: int) -> float | None:
    """A PostgreSQL backend's CPU time (user + system), when the server runs on this machine."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")


class ServerCPU:
    """The CPU time of the backends connected to one database while a child works in it, sampled every
    `interval` s from another database (a backend's last sample counts: up to one interval of it may be
    missed). COPY's work and most of the import's are the server's, not their client's."""

    def __init__(self, url: str, interval: float = 0.1):
        self.base, self.name = url.rsplit("/", 1)
        self.interval, self.seen, self._stop = interval, {}, threading.Event()

    def _pids(self, db) -> set[int]:
        return {r[0] for r in db.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.name]).fetchall()}

    def _sample(self) -> None:
        import psycopg

        with psycopg.connect(f"{self.base}/postgres", autocommit=True) as db:
            earlier = self._pids(db)  # a backend still closing (the migration's) is not the child's
            self._ready.set()
            while not self._stop.is_set():
                for pid in self._pids(db) - earlier:
                    cpu = backend_cpu(pid)
                    if cpu is not None:
                        self.seen[pid] = cpu
                self._stop.wait(self.interval)

    def __enter__(self):
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        self._ready.wait()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    @property
    def total(self) -> float:
        return sum(self.seen.values())


def baseline_copy(path: Path, url: str) -> tuple[float, int]:
    """PostgreSQL's floor: COPY of the same parsed rows into one table of the same columns."""
    import psycopg

    header, rows = parsed_rows(path)
    with psycopg.connect(url) as db:
        db.execute("DROP TABLE IF EXISTS bench_inventory_baseline")
        db.execute(f"CREATE TABLE bench_inventory_baseline ({', '.join(f'{h} text' for h in header)})")
        db.commit()
        pid = db.execute("SELECT pg_backend_pid()").fetchone()[0]
        server, t, cpu = backend_cpu(pid), time.perf_counter(), time.process_time()
        with db.cursor() as cursor, cursor.copy("COPY bench_inventory_baseline FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        db.commit()
        elapsed = time.perf_counter() - t
        baseline_copy.cpu = time.process_time() - cpu
        after = backend_cpu(pid)
        baseline_copy.server_cpu = None if server is None or after is None else after - server
        db.execute("DROP TABLE bench_inventory_baseline")
    return elapsed, len(rows)


def floor_copy_pg(url: str) -> tuple[float, float, int, dict]:
    """The least the import can cost on PostgreSQL, as floor_copy on SQLite: every row it stored, COPYed
    (binary) into a new database of the same schema with its indexes (the trigram search index among
    them), in one transaction, triggers and foreign-key checks off. Returns wall time, CPU time (client +
    server), rows written and each table's rows and seconds."""
    import psycopg

    base, name = url.rsplit("/", 1)
    floor_url = f"{base}/{name}_floor"
    fresh_postgres(floor_url)
    env = {**os.environ, "DATABASE_URL": floor_url}
    subprocess.run([*POWTS, "migrate", "-v0"], env=env, check=True)
    data = {}
    with psycopg.connect(url) as src, psycopg.connect(floor_url) as dst:
        tables = [r[0] for r in src.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")]
        dst.execute("SET session_replication_role = replica")  # no triggers, no foreign-key checks
        for table in tables:  # read before the clock starts
            n = src.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
            if n > dst.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]:
                with src.cursor().copy(f'COPY "{table}" TO STDOUT (FORMAT BINARY)') as out:
                    data[table] = (n, b"".join(bytes(chunk) for chunk in out))
                dst.execute(f'DELETE FROM "{table}"')  # what migrate put there, copied back with the rest
        dst.commit()  # the SET above holds for the session, past this commit
        pid = dst.execute("SELECT pg_backend_pid()").fetchone()[0]
        server, t, cpu = backend_cpu(pid), time.perf_counter(), time.process_time()
        each = {}
        for table, (n, blob) in data.items():
            t1 = time.perf_counter()
            with dst.cursor().copy(f'COPY "{table}" FROM STDIN (FORMAT BINARY)') as copy:
                copy.write(blob)
            each[table] = (n, time.perf_counter() - t1)
        dst.commit()
        elapsed, used = time.perf_counter() - t, time.process_time() - cpu
        after = backend_cpu(pid)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}_floor" WITH (FORCE)')
    server_used = 0.0 if server is None or after is None else after - server
    return elapsed, used + server_used, sum(n for n, _ in data.values()), each


def _by_table(each: dict) -> str:
    """A floor's tables, slowest first: name, rows, seconds."""
    return "    " + "; ".join(f"{name} {n:,} rows {sec:.1f} s" for name, (n, sec) in sorted(each.items(), key=lambda kv: -kv[1][1]))


def fresh_postgres(url: str) -> None:
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        db.execute(f'CREATE DATABASE "{name}"')


def run_import(path: Path, data_dir: Path, database_url: str = "") -> tuple[float, float, str, float]:
    env = {**os.environ, "POWTS_DATA_DIR": str(data_dir)}
    env.pop("DATABASE_URL", None)
    if database_url:
        fresh_postgres(database_url)
        env["DATABASE_URL"] = database_url
    subprocess.run([*POWTS, "migrate", "-v0"], env=env, check=True)
    server = ServerCPU(database_url) if database_url else contextlib.nullcontext()
    t = time.perf_counter()
    # The inventory import alone; the maintenance schedules it sets off are measured by
    # bench/bench_maintenance.py.
    with server:
        proc = subprocess.Popen([*POWTS, "import", "inventory", str(path), "--jurisdiction", "dane", "--json",
                                 "--skip-follow-up"], env=env, stdout=subprocess.PIPE, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - t
    run_import.server_cpu = server.total if database_url else None
    out = proc.stdout.read().strip()
    if status != 0:
        raise SystemExit(f"import failed: {out}")
    # ru_maxrss is KiB on Linux. The CPU time (user + system) is printed beside the wall time: on a machine
    # shared with other work the wall time grows with the load, the CPU time much less.
    return elapsed, usage.ru_maxrss / 1024, out, usage.ru_utime + usage.ru_stime


def django_setup(data_dir: Path, database_url: str = ""):
    os.environ["POWTS_DATA_DIR"] = str(data_dir)
    os.environ.pop("DATABASE_URL", None)
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "powts.settings")
    import django

    django.setup()


def search_before(queryset, query: str):
    """The search as it was before it ranked and limited in the index, for the baseline column: every match
    collected, then sorted by system id (the model's order) before the first 50 were taken."""
    from django.db import connection
    from django.db.models import Q

    from powts.inventory.search import _normalise, _terms

    query = _normalise(query)
    terms = _terms(query)
    if not terms:
        q = query.strip()
        return queryset.filter(Q(system_id__istartswith=q) | Q(parcel__parcel_number__istartswith=q))
    if connection.vendor == "sqlite":
        match = " AND ".join('"' + t.replace('"', '""') + '"' for t in terms)
        return queryset.extra(where=["inventory_system.id IN (SELECT rowid FROM inventory_system_fts WHERE inventory_system_fts MATCH %s)"],
                              params=[match]).order_by("system_id")
    for t in terms:
        queryset = queryset.filter(search_text__contains=t)
    return queryset.order_by("system_id")


def search_whole_terms(queryset, query: str):
    """PostgreSQL's search as it was before the index was asked for a term's longer words only (each term
    whole in LIKE '%term%', in id order), for the baseline column; elsewhere the search itself."""
    from django.db import connection

    from powts.inventory.search import _normalise, _terms, search

    terms = _terms(_normalise(query))
    if connection.vendor != "postgresql" or not terms:
        return search(queryset, query)
    for t in terms:
        queryset = queryset.filter(search_text__contains=t)
    return queryset.order_by("id")


def search_figures(rng: random.Random, n: int, username: str = "") -> None:
    """`username`: search as that user, within their county (as the list page and the API do); a statewide
    database of many counties is where the order of the county's matches costs most."""
    from django.db import connection

    from powts.accounts.models import User
    from powts.inventory.models import System
    from powts.inventory.search import search
    from powts.inventory.selectors import system_list

    scoped = System.objects.all
    low = 1
    if username:
        user = User.objects.get(username=username)
        scoped = lambda: system_list(user=user)  # noqa: E731
        low, n = (scoped().order_by(*o).values_list("id", flat=True)[0] for o in (("id",), ("-id",)))
        print(f"\nsearching as {username} ({user.role}), in {scoped().count():,} of {System.objects.count():,} systems")
    sample = list(scoped().filter(pk__in=[rng.randint(low, n) for _ in range(400)])
                  .values_list("system_id", "parcel__parcel_number", "parcel__site_address", "parcel__owner__name"))
    queries = []
    for sid, parcel, address, owner in sample[:100]:
        queries += [parcel.split("-")[-1][-5:], sid, address.split(" ", 1)[1][:9] + " " + address.split(" ")[0], owner,
                    owner.split()[-1]]
    # The last kind is the worst case: a common last name alone ("olson") matches tens of thousands of rows.
    kinds = ["parcel piece", "system id", "address piece", "owner name", "owner last name only"]
    indexed, scans = {k: [] for k in kinds}, {k: [] for k in kinds}
    before, whole = {k: [] for k in kinds}, {k: [] for k in kinds}
    for i, q in enumerate(queries):
        # The search and the shape before it take turns going first: the second reads pages the first loaded.
        pair = [(search, indexed), (search_whole_terms, whole)]
        for shape, into in pair if i % 2 else pair[::-1]:
            t = time.perf_counter()
            list(shape(scoped(), q).values_list("id", flat=True)[:50])
            into[kinds[i % 5]].append(time.perf_counter() - t)
        t = time.perf_counter()
        list(search_before(scoped(), q).values_list("id", flat=True)[:50])
        before[kinds[i % 5]].append(time.perf_counter() - t)
    with connection.cursor() as cursor:
        for i, q in enumerate(queries[:50]):  # the scan is slow: fewer samples
            t = time.perf_counter()
            cursor.execute("SELECT id FROM inventory_system WHERE search_text LIKE %s LIMIT 50", [f"%{q.lower()}%"])
            cursor.fetchall()
            scans[kinds[i % 5]].append(time.perf_counter() - t)
    print(f"\nsearch (first 50 matches), p95 on {connection.vendor} (load average {os.getloadavg()[0]:.1f})   indexed      LIKE '%x%' scan   "
          "before ranking in the index (every match sorted by system id)   terms whole in the index   target p95 < 50 ms")
    for k in kinds:
        print(f"  {k:<38}{ms(p95(indexed[k]))}   {ms(p95(scans[k]))}      {ms(p95(before[k]))}"
              f"                                         {ms(p95(whole[k]))}")
    olson, olson_before = [], []
    for _ in range(40):
        t = time.perf_counter()
        list(search(scoped(), "olson").values_list("id", flat=True)[:50])
        olson.append(time.perf_counter() - t)
        t = time.perf_counter()
        list(search_before(scoped(), "olson").values_list("id", flat=True)[:50])
        olson_before.append(time.perf_counter() - t)
    label = '"olson" alone (40 times)'
    print(f"  {label:<38}{ms(p95(olson))}                     {ms(p95(olson_before))}")
    allq = [x for k, v in indexed.items() if k != "owner last name only" for x in v]
    print(f"  {'all but last names alone':<38}{ms(p95(allq))}")


def page_figures(rng: random.Random, n: int, only: str = "") -> None:
    from django.test import Client

    from powts.accounts.models import User
    from powts.inventory.models import System
    from powts.jurisdictions.models import Jurisdiction

    staff = User.objects.filter(username="bench-staff").first() or User.objects.create(
        username="bench-staff", role="county_staff", jurisdiction=Jurisdiction.objects.get(slug="dane"))
    client = Client()
    client.force_login(staff)
    sample = System.objects.filter(pk=rng.randint(1, n)).values_list("parcel__parcel_number", flat=True).first() or "0810"
    bare_parcel = "".join(ch for ch in sample if ch.isalnum())
    cases = {
        "list, first page": lambda: "/inventory/",
        "list, page 200": lambda: "/inventory/?page=200",
        "list, sorted newest first": lambda: "/inventory/?sort=-installed_on",
        "list, type + municipality": lambda: "/inventory/?system_type=mound&municipality=Town+of+Dunn",
        "list, installed in a year": lambda: f"/inventory/?installed_year={rng.randint(1966, 2025)}",
        "list, search owner name": lambda: f"/inventory/?q={rng.choice(['mary olson', 'robert schmidt', 'karen krueger', 'david vang'])}",
        "list, search address piece": lambda: f"/inventory/?q={rng.choice(['oak ridge', 'lake rd', 'fox run'])}",
        "list, parcel number without dashes": lambda: f"/inventory/?q={bare_parcel}",
        "list, htmx search as you type": lambda: f"/inventory/?q={rng.choice(['oak', 'oak r', 'oak ri', 'oak rid'])}",
        "system page": lambda: f"/inventory/systems/{rng.randint(1, n)}/",
    }
    client.get("/inventory/")  # warm caches (municipality list, templates)
    print("\npages, server side (Django handler), p95   powts      before: the page's bare query   target p95 < 100 ms"
          "   powts CPU p95 (user + system)   load")
    from django.http import QueryDict

    from powts.core import lists
    from powts.inventory.filtersets import SystemFilterSet
    from powts.inventory.selectors import system_list

    def before(u: str):
        """What the list page ran before it was a table with a total: its filtered rows, one page plus one, no count."""
        query = QueryDict(u.split("?", 1)[1] if "?" in u else "")
        page = int(query.get("page", 1))
        order = {"-installed_on": "-installed_on"}.get(query.get("sort", ""), "system_id")
        qs = SystemFilterSet(query, queryset=system_list(user=staff)).qs.order_by(order, "id")
        return list(qs[(page - 1) * 50:page * 50 + 1])

    for label, url in cases.items():
        if only and not any(part in label for part in only.split("|")):
            continue
        times, t_sql, cpu = [], [], []
        htmx = {"HTTP_HX_REQUEST": "true"} if "htmx" in label else {}
        for _ in range(60):
            u = url()
            t, c = time.perf_counter(), time.process_time()
            response = client.get(u, **htmx)
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            assert response.status_code == 200, (u, response.status_code)
            t = time.perf_counter()
            if label == "system page":
                system_list(user=staff).filter(pk=rng.randint(1, n)).first()
            else:
                before(u)
            t_sql.append(time.perf_counter() - t)
        print(f"  {label:<40}{ms(p95(times))}   {ms(p95(t_sql))}   {ms(p95(cpu))}   {os.getloadavg()[0]:.1f}")
    if only:
        return

    print("\nthe list's total alone, p95                 powts      COUNT(*) of every row")
    from django.db.models import Count

    for label, qs in (("every system", system_list(user=staff)), ("mound systems", system_list(user=staff).filter(system_type="mound")),
                      ("a search", SystemFilterSet({"q": "oak ridge"}, queryset=system_list(user=staff)).qs)):
        bounded, full = [], []
        for _ in range(20):
            t = time.perf_counter()
            found = lists.total(qs)
            bounded.append(time.perf_counter() - t)
        for _ in range(5):
            t = time.perf_counter()
            qs.order_by().aggregate(n=Count("pk"))
            full.append(time.perf_counter() - t)
        print(f"  {label:<40}{ms(p95(bounded))}   {ms(max(full))}   ({found})")

    print("\nCSV export of a filtered list, streamed      rows/s")
    t = time.perf_counter()
    response = client.get("/inventory/?municipality=Town+of+Dunn&export=csv")
    rows = sum(chunk.count(b"\n") for chunk in response.streaming_content) - 1
    elapsed = time.perf_counter() - t
    print(f"  {rows:,} rows in {elapsed:.1f} s                  {rows / elapsed:10,.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/powts-bench"))
    parser.add_argument("--skip-import", action="store_true", help="reuse the database of an earlier run")
    parser.add_argument("--search-only", metavar="DATABASE_URL", default="",
                        help="the search figures alone, on this (already loaded) database, e.g. a PostgreSQL one")
    parser.add_argument("--as-user", metavar="USERNAME", default="",
                        help="with --search-only: search as this user, within their county (e.g. bench-staff)")
    parser.add_argument("--pages-only", default="", metavar="TEXT",
                        help="with --skip-import: time only the pages whose label holds one of TEXT's |-separated parts")
    parser.add_argument("--import-only", action="store_true", help="the import and its baseline, no search or pages")
    parser.add_argument("--postgres", metavar="URL", default="",
                        help="import into this PostgreSQL database (dropped and created afresh) beside a COPY baseline")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    csv_path = args.workdir / f"inventory-{args.rows}.csv"
    data_dir = args.workdir / f"data-{args.rows}"
    if args.search_only:
        django_setup(data_dir, args.search_only)
        from powts.inventory.models import System

        search_figures(random.Random(7), System.objects.order_by("-id").values_list("id", flat=True)[0], args.as_user)
        return
    make_csv(csv_path, args.rows)

    if not args.skip_import:
        for item in data_dir.glob("*"):
            if item.is_file():
                item.unlink()
        data_dir.mkdir(exist_ok=True)
        # The import runs first: a child forked after the baseline loaded its million parsed rows would
        # count the parent's pages in its own peak memory.
        load = os.getloadavg()
        elapsed, peak_mib, counts, cpu = run_import(csv_path, data_dir, args.postgres)
        if args.postgres:
            base, count = baseline_copy(csv_path, args.postgres)
            label = "PostgreSQL COPY, one table          "
        else:
            base, count = baseline_insert(csv_path, args.workdir / "baseline.sqlite3")
            label = "plain sqlite3 executemany, one table"
        print(f"\nimport of {count:,} rows ({'PostgreSQL' if args.postgres else 'SQLite'}; load average "
              f"{load[0]:.1f} before, {os.getloadavg()[0]:.1f} after)   time        peak memory")
        print(f"  {label}  {base:8.1f} s")
        print(f"  powts import inventory (--skip-follow-up) {elapsed:8.1f} s   {peak_mib:8.0f} MiB   {counts}")
        if not args.postgres:
            print(f"  CPU time (user + system): baseline {baseline_insert.cpu:.1f} s, import {cpu:.1f} s, "
                  f"ratio {cpu / baseline_insert.cpu:.1f} x")
        elif baseline_copy.server_cpu is not None:  # COPY's work is mostly the server's: both sides counted
            copy_cpu = baseline_copy.cpu + baseline_copy.server_cpu
            import_cpu = cpu + run_import.server_cpu
            print(f"  CPU time (user + system), client + server: COPY {baseline_copy.cpu:.2f} + "
                  f"{baseline_copy.server_cpu:.2f} = {copy_cpu:.2f} s, import {cpu:.1f} + {run_import.server_cpu:.1f} = "
                  f"{import_cpu:.1f} s, ratio {import_cpu / copy_cpu:.1f} x")
        print(f"  ratio                                 {elapsed / base:8.1f} x   (target <= 3x; memory target < 1024 MiB)")
        if args.postgres:
            f_wall, f_cpu, f_rows, each = floor_copy_pg(args.postgres)
            copy_cpu = baseline_copy.cpu + (baseline_copy.server_cpu or 0.0)
            print(f"  floor: what the import stored ({f_rows:,} rows in {len(each)} tables), COPYed into the same schema with its "
                  f"indexes, no triggers  {f_wall:8.1f} s   CPU, client + server, {f_cpu:.1f} s: {f_wall / base:.1f} x COPY's time, "
                  f"{f_cpu / copy_cpu:.1f} x its CPU; the import is {elapsed / f_wall:.1f} x this floor")
            print(_by_table(each))
        else:
            empty = args.workdir / "floor-data"
            shutil.rmtree(empty, ignore_errors=True)
            env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
            subprocess.run([*POWTS, "migrate", "-v0"], env={**env, "POWTS_DATA_DIR": str(empty)}, check=True)
            f_wall, f_cpu, f_rows, each = floor_copy(data_dir / "powts.sqlite3", empty / "powts.sqlite3")
            print(f"  floor: what the import stored ({f_rows:,} rows in {len(each) - 1} tables, with their indexes, and the search "
                  f"index), copied by executemany  {f_wall:8.1f} s   CPU {f_cpu:.1f} s: {f_wall / base:.1f} x the baseline's time, "
                  f"{f_cpu / baseline_insert.cpu:.1f} x its CPU; the import is {elapsed / f_wall:.1f} x this floor")
            print(_by_table(each))
            shutil.rmtree(empty, ignore_errors=True)

    if args.import_only:
        return
    django_setup(data_dir)
    rng = random.Random(7)
    if not args.pages_only:
        search_figures(rng, args.rows)
    page_figures(rng, args.rows, args.pages_only)


if __name__ == "__main__":
    main()
