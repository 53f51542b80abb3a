"""Benchmark (not a test) of the maintenance program against its speed targets (below).

    .venv/bin/python bench/bench_maintenance.py [--systems 1000000] [--letters 10000] [--api-seconds 60 --api-rate 200]

Uses its own database (SQLite in $POWTS_BENCH_DIR, default /tmp/powts-bench-maint, kept between runs
so the 1,000,000-system inventory is built once; or DATABASE_URL). Each figure is printed beside a
baseline measured in the same run:

1. Due list over N systems as of a date: `selectors.due_list` beside a hand-written SQL query that
   computes the same list (same rows, checked) on the same database. Target < 1 s and <= 2x.
2. Notice letters: the preview (the notices page's selector; target < 10 s for 10,000 letters) and
   the page itself; `notices_send` end to end (plan, record, audit, one PDF per owner, merged batch;
   target >= 500 letters/s) beside today's code (--baseline-checkout, on the same batch) and a bare
   ReportLab loop drawing the same pages (target <= 2x).
3. API report submission: `powts serve --processes N` (gunicorn), a load generator (32 threads, one
   keep-alive connection each) in another process on loopback, at a fixed rate; p50/p99 latency; then
   stored reports == accepted requests. Baseline: the same load on /healthz of the same server. The
   server's CPU per request (user + system time of its processes over each phase) and the load average
   are printed beside each figure (the machine may be shared).
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

AS_OF = dt.date(2026, 11, 2)
# The checkout this file is in: its code is what the benchmark and the server it starts run, whichever directory
# the benchmark is launched from (a server started elsewhere would import the code of its working directory).
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup_django(bench_dir: Path):
    bench_dir.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("POWTS_DATA_DIR", str(bench_dir))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "powts.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)


def build_inventory(unit, n: int) -> float:
    """n systems with the demo county's mix of types and dates, inserted directly (not through the import)."""
    from django.db import connection, transaction

    from powts.inventory import demo_data
    from powts.inventory.models import System

    have = System.objects.filter(jurisdiction=unit).count()
    if have >= n:
        return 0.0
    t0 = time.perf_counter()
    with connection.cursor() as c:
        if connection.vendor == "sqlite":
            c.execute("UPDATE inventory_search_sync SET enabled = 0")
    batch_p, batch_s = [], []
    rows = demo_data.rows(unit.slug, n, seed=4)
    for i, r in enumerate(rows, 1):
        if i <= have:
            continue
        batch_p.append((unit.pk, f"B{r['parcel_id']}", "", r["site_address"], r["municipality"], False))
        batch_s.append((unit.pk, r["system_id"], r["system_type"], r["status"], r["installed_on"] or None, r["last_serviced_on"] or None,
                        "", "", "{}", "", "day", f"B{r['parcel_id']}"))
        if len(batch_p) >= 20000 or i == n:
            with transaction.atomic(), connection.cursor() as c:
                c.executemany("INSERT INTO inventory_parcel (jurisdiction_id, parcel_number, legal_description, site_address, municipality, sewered) "
                              "VALUES (%s, %s, %s, %s, %s, %s)", batch_p)
                c.executemany("INSERT INTO inventory_system (jurisdiction_id, system_id, system_type, status, installed_on, last_serviced_on, "
                              "structures_served, permit_number, extra, search_text, installed_on_precision, parcel_id) "
                              "SELECT %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, id FROM inventory_parcel WHERE jurisdiction_id = "
                              + str(unit.pk) + " AND parcel_number = %s", batch_s)
            batch_p, batch_s = [], []
            print(f"\r  inventory: {i:,} / {n:,}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return time.perf_counter() - t0


PEER_SQL = """
SELECT system_ref, CAST(due_on AS TEXT), CASE WHEN due_on <= %s THEN 'overdue' ELSE 'first_notice' END
  FROM maintenance_schedule WHERE jurisdiction_id = %s AND notice_on <= %s
UNION ALL
SELECT system_ref, NULL, 'needs_data' FROM maintenance_schedule WHERE jurisdiction_id = %s AND needs_data
"""


def timed(fn, repeat=5):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times), out


def bench_due(unit, n: int):
    from django.db import connection

    from powts.maintenance.selectors import due_list
    from powts.maintenance.services import schedule_sync

    t0 = time.perf_counter()
    done = schedule_sync(jurisdiction=unit)
    sync_s = time.perf_counter() - t0
    if done["created"] or done["updated"]:
        print(f"  schedule_sync: {done['created']:,} created, {done['updated']:,} recomputed in {sync_s:.1f} s "
              f"({(done['created'] + done['updated']) / sync_s:,.0f} systems/s)")
        if connection.vendor == "sqlite":
            with connection.cursor() as c:
                c.execute("ANALYZE")

    def ours():
        return due_list(jurisdiction=unit, as_of=AS_OF)

    def peer():
        with connection.cursor() as c:
            c.execute(PEER_SQL, [AS_OF, unit.pk, AS_OF, unit.pk])
            return c.fetchall()

    ours(), peer()  # warm the page cache
    m_ours, b_ours, rows = timed(ours)
    m_peer, b_peer, peer_rows = timed(peer)
    same = sorted(rows) == sorted(peer_rows)
    kinds = {}
    for r in rows:
        kinds[r[2]] = kinds.get(r[2], 0) + 1
    print(f"1. due list over {n:,} systems as of {AS_OF}: {len(rows):,} rows ({', '.join(f'{v:,} {k}' for k, v in sorted(kinds.items()))}); same rows as SQL: {same}")
    print(f"   powts due_list      median {m_ours * 1000:8.1f} ms  best {b_ours * 1000:8.1f} ms   target < 1000 ms: {'met' if m_ours < 1 else 'MISSED'}")
    print(f"   hand-written SQL    median {m_peer * 1000:8.1f} ms  best {b_peer * 1000:8.1f} ms")
    print(f"   ratio {m_ours / m_peer:.2f}x   target <= 2x: {'met' if m_ours / m_peer <= 2 else 'MISSED'}")


def letters_unit_setup(n: int):
    """A second county with n systems all at their first notice on AS_OF (due AS_OF + 10 days)."""
    from django.db import connection, transaction

    from powts.inventory.models import System
    from powts.jurisdictions.services import jurisdiction_ensure
    from powts.maintenance.models import Notice, Schedule
    from powts.maintenance.services import schedule_sync

    unit = jurisdiction_ensure(slug="lincoln")
    Notice.objects.filter(jurisdiction=unit).delete()
    Schedule.objects.filter(jurisdiction=unit).update(stage="", stage_on=None, delinquent=False)
    have = System.objects.filter(jurisdiction=unit).count()
    if have < n:
        installed = (AS_OF + dt.timedelta(days=10)).replace(year=AS_OF.year - 3)
        with transaction.atomic(), connection.cursor() as c:
            c.execute("INSERT INTO inventory_owner (jurisdiction_id, name, kind, mailing_address, email, phone) VALUES (%s, %s, %s, %s, '', '')",
                      [unit.pk, "Bench Owner", "person", "1 Bench Rd\nMerrill, WI 54452"])
            c.execute("SELECT max(id) FROM inventory_owner")
            owner_id = c.fetchone()[0]
            c.executemany("INSERT INTO inventory_owner (jurisdiction_id, name, kind, mailing_address, email, phone) VALUES (%s, %s, 'person', %s, '', '')",
                          [(unit.pk, f"Owner {i}", f"{100 + i} Pine Rd\nMerrill, WI 54452") for i in range(have, n)])
            c.executemany("INSERT INTO inventory_parcel (jurisdiction_id, parcel_number, legal_description, site_address, municipality, sewered, owner_id) "
                          "VALUES (%s, %s, '', %s, 'Town of Merrill', %s, %s)",
                          [(unit.pk, f"L-{i}", f"{100 + i} Pine Rd", False, owner_id + 1 + i - have) for i in range(have, n)])
            c.executemany("INSERT INTO inventory_system (jurisdiction_id, system_id, system_type, status, installed_on, installed_on_precision, "
                          "structures_served, permit_number, extra, search_text, parcel_id) SELECT %s, %s, 'mound', 'active', %s, 'day', '', '', '{}', '', id "
                          "FROM inventory_parcel WHERE jurisdiction_id = %s AND parcel_number = %s",
                          [(unit.pk, f"LI-{i:06d}", installed, unit.pk, f"L-{i}") for i in range(have, n)])
    schedule_sync(jurisdiction=unit)
    return unit


def bare_reportlab(path: Path, letters, sender) -> None:
    """The peer: the same pages drawn with plain canvas calls, every line on every page (no shared form), one file."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen.canvas import Canvas

    from powts.maintenance.letters import _draw_shared, _draw_variable, languages_of

    c = Canvas(str(path), pagesize=letter, pageCompression=0)
    for it in letters:
        for code in languages_of(it):
            _draw_shared(c, sender, code)
            _draw_variable(c, it, code)
            c.showPage()
    c.save()


BASELINE = r'''
import datetime as dt, json, os, subprocess, sys, tempfile, time
checkout, as_of = sys.argv[1], dt.date.fromisoformat(sys.argv[2])
sys.path.insert(0, checkout)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "powts.settings")
import django
django.setup()
import powts
assert powts.__file__.startswith(checkout), powts.__file__
from powts.jurisdictions.models import Jurisdiction
from powts.maintenance.models import Notice, Schedule
from powts.maintenance.notices import notices_send
unit = Jurisdiction.objects.get(slug="lincoln")
Notice.objects.filter(jurisdiction=unit).delete()
Schedule.objects.filter(jurisdiction=unit).update(stage="", stage_on=None, delinquent=False)
out = tempfile.mkdtemp(prefix="powts-letters-baseline-")
t0 = time.perf_counter()
result = notices_send(jurisdiction=unit, as_of=as_of, output_dir=out, email=False, sync=False)
seconds = time.perf_counter() - t0
commit = subprocess.run(["git", "-C", checkout, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
Notice.objects.filter(jurisdiction=unit).delete()
Schedule.objects.filter(jurisdiction=unit).update(stage="", stage_on=None, delinquent=False)
subprocess.run(["rm", "-rf", out])
print(json.dumps({"letters": result.total, "seconds": seconds, "commit": commit}))
'''


def baseline_send(checkout: str) -> dict | None:
    """Today's figure: the same batch sent by another checkout's code (say, the main branch) on the same database."""
    if not checkout:
        return None
    run = subprocess.run([sys.executable, "-c", BASELINE, checkout, AS_OF.isoformat()], capture_output=True, text=True, env=dict(os.environ))
    if run.returncode:
        print("   baseline failed:", run.stderr[-1500:])
        return None
    return json.loads(run.stdout.strip().splitlines()[-1])


def bench_letters(n: int, baseline_checkout: str = ""):
    from django.test import Client

    from powts.accounts.models import User
    from powts.accounts.services import user_create
    from powts.maintenance.letters import Press
    from powts.maintenance.models import Notice
    from powts.maintenance.notices import letter_for, notices_send, plan, preview, sender_for

    unit = letters_unit_setup(n)
    base = baseline_send(baseline_checkout)
    out = Path(tempfile.mkdtemp(prefix="powts-letters-"))
    try:
        m_plan, _, planned = timed(lambda: plan(jurisdiction=unit, as_of=AS_OF), repeat=3)
        m_preview, _, found = timed(lambda: preview(jurisdiction=unit, as_of=AS_OF), repeat=3)
        staff = User.objects.filter(username="bench-notices").first() or user_create(
            username="bench-notices", password="bench-password-123", role="county_staff", jurisdiction=unit)
        client = Client()
        client.force_login(staff)
        m_page, _, response = timed(lambda: client.get(f"/maintenance/notices/?as_of={AS_OF}"), repeat=3)
        assert response.status_code == 200, response.status_code
        t0 = time.perf_counter()
        result = notices_send(jurisdiction=unit, as_of=AS_OF, output_dir=out, email=False, sync=False)
        end_to_end = time.perf_counter() - t0
        notices = list(Notice.objects.filter(batch=result.batch).select_related("system__parcel"))
        sender = sender_for(unit)
        letters = [letter_for(x) for x in notices]
        t0 = time.perf_counter()
        press = Press(out / "rb.pdf", sender)
        for i, item in enumerate(letters):
            press.write_owner(out / f"r{i}.pdf", press.add(item))
        press.close()
        render_only = time.perf_counter() - t0
        t0 = time.perf_counter()
        bare_reportlab(out / "peer.pdf", letters, sender)
        peer = time.perf_counter() - t0
        k = len(letters)
        print(f"2. {k:,} notice letters ({result.owner_files:,} owner files + 1 merged file of {k:,} pages)")
        print(f"   preview (the notices page's and --dry-run's selector): {found.total:,} letters, {len(found.held):,} held back")
        print(f"   preview                      median {m_preview:6.2f} s   target < 10 s: {'met' if m_preview < 10 else 'MISSED'}")
        print(f"   plan alone (today's selector) median {m_plan:6.2f} s  ({len(planned):,} planned)")
        print(f"   notices page (GET, first 100 of {found.total:,})  median {m_page:6.2f} s")
        print(f"   notices_send end to end (plan, record, audit, render) {end_to_end:6.2f} s  {k / end_to_end:7.0f} letters/s   target >= 500/s: {'met' if k / end_to_end >= 500 else 'MISSED'}")
        if base:
            print(f"   today's notices_send (checkout {baseline_checkout} at {base['commit']})  {base['seconds']:6.2f} s  "
                  f"{base['letters'] / base['seconds']:7.0f} letters/s ({base['letters']:,} letters)")
        print(f"   rendering only (owner files + merged file)           {render_only:6.2f} s  {k / render_only:7.0f} letters/s")
        print(f"   bare ReportLab loop, same pages, one file             {peer:6.2f} s  {k / peer:7.0f} letters/s")
        print(f"   ratio end to end / bare one-file loop {end_to_end / peer:.2f}x   target <= 2x: {'met' if end_to_end / peer <= 2 else 'MISSED'}")
    finally:
        shutil.rmtree(out, ignore_errors=True)


# ---------------------------------------------------------------- API load

LOADGEN = r"""
import http.client, json, sys, threading, time
port, token, rate, seconds, threads, systems, mode = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), json.loads(sys.argv[6]), sys.argv[7]
gen, gens, start_epoch = int(sys.argv[8]), int(sys.argv[9]), float(sys.argv[10])  # this generator of `gens`, all on one schedule
lat, codes, lock, slow = [], {}, threading.Lock(), {}
start = time.perf_counter() + (start_epoch - time.time())
total = int(rate * seconds)
stride = threads * gens  # request i is sent by thread i % stride of all generators' threads
def worker(k):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)  # one keep-alive connection per thread
    i = k
    while i < total:
        due = start + i / rate
        wait = due - time.perf_counter()
        if wait > 0: time.sleep(wait)
        sid = systems[i % len(systems)]
        day = 1 + (i // len(systems)) % 300
        body = json.dumps({"jurisdiction": "dane", "system_id": sid, "kind": "pumping",
                           "work_date": f"2026-{1 + day // 28:02d}-{1 + day % 28:02d}" if day // 28 < 10 else "2026-10-01",
                           "license_number": "BENCH-SSO-%d" % (i % 50), "gallons_pumped": 1000, "disposal_site": "Bench WWTP"})
        t0 = time.perf_counter()
        try:
            if mode == "healthz":
                conn.request("GET", "/healthz")
            else:
                conn.request("POST", "/api/maintenance/reports/", body, {"Content-Type": "application/json", "Authorization": "Token " + token})
            r = conn.getresponse(); r.read(); code = r.status
        except Exception as exc:
            code = type(exc).__name__; conn.close(); conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        # latency from the scheduled send time, so a queue behind a slow server counts (no coordinated omission)
        with lock:
            lat.append(time.perf_counter() - min(due, t0)); codes[code] = codes.get(code, 0) + 1
            if lat[-1] > 0.2: slow[int(due - start)] = slow.get(int(due - start), 0) + 1  # over target, by second of the run
        i += stride
ts = [threading.Thread(target=worker, args=(gen * threads + k,)) for k in range(threads)]
[t.start() for t in ts]; [t.join() for t in ts]
elapsed = time.perf_counter() - start
import resource
ru = resource.getrusage(resource.RUSAGE_SELF)  # its own CPU: it shares this machine's cores with the server
print(json.dumps({"latencies": lat, "codes": {str(k): v for k, v in codes.items()}, "elapsed": elapsed, "cpu": ru.ru_utime + ru.ru_stime, "slow": slow}))
"""


def _slow_seconds(res, seconds: float) -> str:
    """Where the requests over 200 ms fell, by second of the run: bunched in a few seconds, something stalled
    the server (a reconnect, a vacuum, another program); spread over many, the machine is short of CPU."""
    slow = res["slow"]
    if not slow:
        return "   no request over 200 ms"
    worst = ", ".join(f"{s} s: {n}" for s, n in sorted(sorted(slow.items(), key=lambda kv: -kv[1])[:5]))
    return (f"   requests over 200 ms: {sum(slow.values()):,}, sent in {len(slow)} of the run's {seconds:.0f} seconds; "
            f"the worst seconds (from the start): {worst}")


def _load() -> str:
    return "load average %.1f %.1f %.1f" % os.getloadavg()


def _server_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by a server process and its worker processes (Linux /proc;
    0.0 elsewhere): divided by the requests of a phase, the server's CPU per request on this machine."""
    tick = os.sysconf("SC_CLK_TCK")

    def one(p):
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rpartition(")")[2].split()
            return (int(fields[11]) + int(fields[12])) / tick  # utime, stime
        except (OSError, ValueError, IndexError):
            return 0.0

    try:
        children = [int(c) for t in os.listdir(f"/proc/{pid}/task") for c in open(f"/proc/{pid}/task/{t}/children").read().split()]
    except OSError:
        return 0.0
    return one(pid) + sum(one(c) for c in children)


def _postgres_cpu() -> float:
    """CPU seconds used so far by PostgreSQL on this machine: every process named postgres (backends, WAL
    writer, checkpointer...), plus what its exited backends used, which the postmaster (the one whose parent
    is not postgres) holds as its children's time; a web process reconnects every CONN_MAX_AGE seconds.
    Divided by a phase's requests: the database's CPU per request, when nothing else uses it meanwhile."""
    tick, procs = os.sysconf("SC_CLK_TCK"), {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                head, _, rest = f.read().rpartition(")")
            if head.partition("(")[2] == "postgres":
                procs[int(pid)] = rest.split()
        except (OSError, ValueError):
            continue
    total = 0.0
    for fields in procs.values():
        total += int(fields[11]) + int(fields[12])  # utime, stime
        if int(fields[1]) not in procs:  # the postmaster: cutime, cstime of the backends it reaped
            total += int(fields[13]) + int(fields[14])
    return total / tick


def _run_load(port, token, rate, seconds, connections, systems, mode, loadgens=1):
    """`loadgens` processes of `connections` keep-alive connections each (two machines' worth of clients
    with 2), sharing one schedule of `rate` requests a second in all."""
    start_epoch = time.time() + 1.0 + 0.5 * loadgens
    procs = [subprocess.Popen([sys.executable, "-c", LOADGEN, str(port), token, str(rate), str(seconds), str(connections),
                               json.dumps(systems), mode, str(g), str(loadgens), repr(start_epoch)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ)) for g in range(loadgens)]
    res = {"latencies": [], "codes": {}, "elapsed": 0.0, "cpu": 0.0, "slow": {}}
    for proc in procs:
        out, err = proc.communicate()
        if proc.returncode:
            raise RuntimeError("load generator failed: " + err[-2000:])
        one = json.loads(out)
        res["latencies"] += one["latencies"]
        res["elapsed"] = max(res["elapsed"], one["elapsed"])
        res["cpu"] += one["cpu"]
        for k, v in one["codes"].items():
            res["codes"][k] = res["codes"].get(k, 0) + v
        for k, v in one["slow"].items():
            res["slow"][int(k)] = res["slow"].get(int(k), 0) + v
    lat = sorted(res["latencies"])
    res["p"] = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000  # noqa: E731
    res["max"] = lat[-1] * 1000
    res["sent"] = len(lat)
    res["achieved"] = len(lat) / res["elapsed"]
    res["client_cpu"] = res["cpu"] / len(lat) * 1000  # ms a request
    return res


def today_sweeps_first() -> None:
    """Today's daily sweeps (schedule sync, notices due, map cells, statistics: settings.POWTS_SWEEPS) run here,
    before the server starts, as a county's night would have run them. Otherwise the embedded queue in `powts
    serve` starts them all within its first minute on a database built today, over every system, in one of
    the processes answering the reports: on 100,000 systems they took 28-36 s and made /healthz cost 7.2 ms
    of server CPU instead of 2.1 (SQLite, 150 a second, beside a CI run). The figure would then be of reports
    during the night's batch, not of reports."""
    from django.utils import timezone
    from huey.contrib.djhuey import HUEY

    from powts.jobs.models import Job
    from powts.jobs.sweeps import sweep_clock

    t = time.perf_counter()
    HUEY.immediate = True  # each sweep's job runs here, now
    try:
        jobs = sweep_clock(now=timezone.localtime().replace(hour=23, minute=59))
    finally:
        HUEY.immediate = False
    states = ", ".join(f"{kind.removeprefix('sweep.')} {state}" for kind, state in
                       Job.objects.filter(pk__in=[j.pk for j in jobs]).values_list("kind", "state"))
    print(f"   today's daily sweeps run before the server starts, as the night would have: {len(jobs)} in "
          f"{time.perf_counter() - t:.0f} s ({states or 'all run earlier today'})")


def bench_api(unit, rate: float, seconds: float, processes: int, threads: int, connections: int = 32, baseline_seconds: float = 20,
              loadgens: int = 1):
    """Reports POSTed at `rate` for `seconds` from `connections` keep-alive connections to `powts serve
    --processes N` (the command a county runs); first the same load against /healthz on the same server
    (no database: what the server, the load generator and this machine manage at that rate)."""
    from django.db import connection
    from knox.models import AuthToken

    from powts.accounts.models import License, User
    from powts.accounts.services import license_create, user_create
    from powts.inventory.models import System
    from powts.maintenance.models import Report
    from powts.maintenance.services import schedule_refresh

    user = User.objects.filter(username="bench-pumper").first() or user_create(username="bench-pumper", password="bench-password-123", role="pumper")
    for i in range(50):
        if not License.objects.filter(number=f"BENCH-SSO-{i}").exists():
            license_create(kind="septage_operator", number=f"BENCH-SSO-{i}", holder_name="Bench Pumper", user=user)
    token = AuthToken.objects.create(user=user)[1]
    systems = list(System.objects.filter(jurisdiction=unit, installed_on__lt="2025-01-01").order_by("?").values_list("system_id", flat=True)[:3000]) \
        if connection.vendor == "postgresql" else \
        list(System.objects.filter(jurisdiction=unit, installed_on__lt="2025-01-01", pk__lte=200000).values_list("system_id", flat=True)[::67][:3000])
    for system in System.objects.filter(jurisdiction=unit, system_id__in=systems, maintenance_schedule__isnull=True).select_related("parcel", "jurisdiction"):
        schedule_refresh(system=system)  # as after an import: every system has its schedule row
    Report.objects.filter(license__number__startswith="BENCH-SSO-").delete()
    before = Report.objects.count()
    today_sweeps_first()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "powts.cli", "serve", "--port", str(port), "--processes", str(processes),
                               "--threads", str(threads), "--no-setup", "--quiet"], env=dict(os.environ), cwd=ROOT)
    try:
        for _ in range(600):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        time.sleep(3)  # every worker booted
        print(f"3. API report submission: powts serve --processes {processes} --threads {threads} (gunicorn gthread), "
              f"{rate:.0f} req/s offered from {loadgens} load-generator process(es) of {connections} keep-alive connections each")
        load0, cpu0 = _load(), _server_cpu(server.pid)
        base = _run_load(port, token, rate, baseline_seconds, connections, systems, "healthz", loadgens)
        base_cpu = (_server_cpu(server.pid) - cpu0) / base["sent"] * 1000
        print(f"   baseline GET /healthz for {baseline_seconds:.0f} s: {base['achieved']:.0f} req/s; p50 {base['p'](0.5):.0f} ms  "
              f"p99 {base['p'](0.99):.0f} ms  max {base['max']:.0f} ms; responses {base['codes']}; server CPU {base_cpu:.2f} ms, load generator {base['client_cpu']:.2f} ms a request   "
              f"({load0} before, {_load()} after)")
        pg = connection.vendor == "postgresql"
        load0, cpu0, db0 = _load(), _server_cpu(server.pid), _postgres_cpu() if pg else 0.0
        res = _run_load(port, token, rate, seconds, connections, systems, "report", loadgens)
        res_cpu = (_server_cpu(server.pid) - cpu0) / res["sent"] * 1000
        db_cpu = f", PostgreSQL {(_postgres_cpu() - db0) / res['sent'] * 1000:.2f} ms" if pg else ""
        load1 = _load()
    finally:
        server.terminate()
        server.wait(timeout=60)
    codes = res["codes"]
    accepted = codes.get("201", 0)
    dup = codes.get("200", 0)
    stored = Report.objects.count() - before
    p99 = res["p"](0.99)
    print(f"   reports for {seconds:.0f} s: sent {res['sent']:,} in {res['elapsed']:.1f} s = {res['achieved']:.0f} req/s; responses {codes}; "
          f"server CPU {res_cpu:.2f} ms{db_cpu}, load generator {res['client_cpu']:.2f} ms a report   "
          f"({load0} before, {load1} after)")
    print(f"   latency p50 {res['p'](0.5):.0f} ms  p99 {p99:.0f} ms  max {res['max']:.0f} ms   target p99 < 200 ms: {'met' if p99 < 200 else 'MISSED'}; "
          f"rate {'met' if res['achieved'] >= rate * 0.98 and accepted + dup == res['sent'] else 'MISSED'}")
    print(_slow_seconds(res, seconds))
    print(f"   stored reports {stored:,} == accepted (201) {accepted:,}: {stored == accepted}; recognised duplicates (200) {dup:,}; "
          f"server errors {sum(v for k, v in codes.items() if k.startswith('5'))}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--systems", type=int, default=1_000_000)
    ap.add_argument("--letters", type=int, default=10_000)
    ap.add_argument("--api-rate", type=float, default=200)
    ap.add_argument("--api-seconds", type=float, default=60)
    ap.add_argument("--api-processes", type=int, default=0, help="powts serve --processes (default: its own default)")
    ap.add_argument("--api-threads", type=int, default=0, help="powts serve --threads (default: its own default)")
    ap.add_argument("--api-connections", type=int, default=32, help="keep-alive client connections")
    ap.add_argument("--api-loadgens", type=int, default=1, help="load-generator processes, each with --api-connections "
                                                                "(2: two machines' worth of clients); the rate is shared")
    ap.add_argument("--api-baseline-seconds", type=float, default=20, help="the same load on /healthz first")
    ap.add_argument("--skip", nargs="*", default=[], choices=["due", "letters", "api"])
    ap.add_argument("--baseline-checkout", default="", help="another checkout (say /work/main) whose notices_send runs "
                                                             "on the same batch for today's figure")
    args = ap.parse_args(argv)
    setup_django(Path(os.environ.get("POWTS_BENCH_DIR", "/tmp/powts-bench-maint")))
    from django.db import connection

    from powts.jurisdictions.services import jurisdiction_ensure

    print(f"database: {connection.vendor} ({connection.settings_dict['NAME']})")
    unit = jurisdiction_ensure(slug="dane")
    built = build_inventory(unit, args.systems)
    if built:
        print(f"  built the inventory in {built:.0f} s")
    if "due" not in args.skip:
        bench_due(unit, args.systems)
    if "letters" not in args.skip:
        bench_letters(args.letters, args.baseline_checkout)
    if "api" not in args.skip:
        from powts.core.management.commands.serve import default_processes, default_threads

        bench_api(unit, args.api_rate, args.api_seconds, args.api_processes or default_processes(),
                  args.api_threads or default_threads(), args.api_connections, args.api_baseline_seconds, args.api_loadgens)
    return 0


if __name__ == "__main__":
    sys.exit(main())
