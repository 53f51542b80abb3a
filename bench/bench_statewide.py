"""Statewide deployment on one machine (Wisconsin's 72 counties, as deploy/ runs it): not a test, nothing here asserts.

    .venv/bin/python bench/bench_statewide.py [--counties 71] [--systems 10000] [--api-rate 100 --api-seconds 30]

Starts its own PostgreSQL cluster (initdb in a temporary directory, a spare port, as .ci/run does), a
redis-server on a spare port, two `powts serve --no-worker` web processes and two `powts worker`
processes (POWTS_QUEUE_URL=redis://...), the way deploy/ runs them; then prints, each figure beside a
baseline measured in the same run:

1. load: N of Wisconsin's counties, set up through the department's service (`powts county add`: the state
   minimum profile, the shipped one for the example counties) with a contact set through the county
   administrator's, of M systems each (the last of them the notice baseline's, so N + 1 <= 72), through
   `powts import inventory FILE --jurisdiction SLUG` (the import a county uses, with its maintenance
   follow-up; two processes, one per core, each importing its half of the counties one after another),
   beside PostgreSQL's COPY of the same rows into one table.
2. reports through the API: a load generator (a second process, keep-alive connections spread over the
   two web processes) at a fixed rate; reports/s, p50/p99; beside the same load on one web process.
3. a statewide notice batch: one batch per county asked for as the notices page asks (batch_request),
   run by the two workers from Redis; beside one county's batch run in this process with no queue.
4. the fault: PostgreSQL restarted (pg_ctl restart -m fast) in the middle of the API load; clients retry
   a failed request (a connection error or a 5xx) with the same report; afterwards every acknowledged
   report (201 stored, or 200 recognised as already stored) is in the database exactly once.
"""
from __future__ import annotations

import argparse
import datetime as dt
import csv
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_maintenance import today_sweeps_first

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
POWTS = [str(BIN / "powts")]
AS_OF = dt.date(2026, 11, 2)  # batch_request takes a date (its job title formats it)


def spare_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, seconds: float = 120) -> None:
    end = time.time() + seconds
    while time.time() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"nothing listens on port {port} after {seconds:.0f} s")


class Postgres:
    """A throw-away cluster: initdb, pg_ctl start/restart/stop (as the postgres account when run as root)."""

    def __init__(self, workdir: Path):
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: float(p.parent.name))
        if not found:
            raise SystemExit("PostgreSQL's server binaries are not installed (apt-get install postgresql)")
        self.bin = found[-1]
        self.data = workdir / "pgdata"
        self.port = spare_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/powts"

    def _run(self, *args: str) -> None:
        command = [str(self.bin / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)

    def start(self, reuse: bool = False) -> None:
        if reuse and (self.data / "PG_VERSION").exists():
            self.pg_ctl("start")
            return
        if self.data.exists():
            shutil.rmtree(self.data)
        self.data.mkdir(parents=True)
        if os.geteuid() == 0:
            shutil.chown(self.data, "postgres", "postgres")
            self.data.parent.chmod(0o755)
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres")
        self.pg_ctl("start")
        subprocess.run([str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "powts"], check=True)

    def pg_ctl(self, action: str, *extra: str) -> None:
        opts = f"-p {self.port} -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.data / "server.log"), "-o", opts, "-w", action, *extra)

    def stop(self) -> None:
        try:
            self.pg_ctl("stop", "-m", "fast")
        except subprocess.CalledProcessError:
            pass


def start(args: list[str], env: dict, log: Path) -> subprocess.Popen:
    return subprocess.Popen(args, env=env, stdout=open(log, "w"), stderr=subprocess.STDOUT, cwd=ROOT)


def stop(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        if p.poll() is None:
            p.send_signal(2)  # SIGINT: graceful for waitress and Huey alike
    for p in procs:
        try:
            p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()


def make_counties(n: int, systems: int, workdir: Path) -> list[tuple[str, Path]]:
    """The first n of Wisconsin's 72 counties (slug, CSV), set up as the department does (`county_add`: the shipped
    profile for the example counties, else the state minimum) and each given its contact and return address by
    its administrator's service (`county_setting_change`, "county policy"): its letters need one. The rows of
    each CSV are the shipped demo data's, its own seed."""
    from powts.accounts.services import user_create
    from powts.jurisdictions.counties import wisconsin_counties
    from powts.jurisdictions.models import Jurisdiction
    from powts.inventory.demo_data import write_csv
    from powts.jurisdictions.services import county_add, county_setting_change

    listed = list(wisconsin_counties().items())
    if n > len(listed):
        raise SystemExit(f"--counties {n - 1} asks for {n} counties with the notice baseline's; Wisconsin has {len(listed)}")
    made = []
    for k, (slug, name) in enumerate(listed[:n], start=1):
        unit = Jurisdiction.objects.filter(slug=slug).first() or county_add(slug=slug, name=name)
        if not unit.settings.filter(key="contact").exists():
            admin = user_create(username=f"bench-admin-{slug}", password="bench-password-123", role="county_admin",
                                jurisdiction=unit)
            county_setting_change(jurisdiction=unit, key="contact", citation="county policy", by=admin, value={
                "office": f"{name} POWTS program", "address": ["1 Courthouse Square", "Anytown, WI 53000"],
                "phone": "(608) 555-0100", "email": f"powts@{slug}.example.org", "hours": "Monday to Friday, 8 to 4:30"})
        path = workdir / f"{slug}-{systems}.csv"
        if not path.exists():
            write_csv(path, "dane" if k % 2 else "lincoln", systems, seed=k, messy=False)
        made.append((slug, path))
    return made


# One loader process per core, each running `powts import inventory` (call_command: the command itself,
# its checks, audit rows and maintenance follow-up) for its share of the counties, one after another:
# a process per county spent most of a small county's time starting Django.
LOADER = r"""
import json, sys, django
django.setup()
from django.core.management import call_command
for slug, path in json.loads(sys.argv[1]):
    call_command("import", "inventory", path, "--jurisdiction", slug, "--json")
"""


def load_counties(counties: list[tuple[str, Path]], env: dict, workdir: Path, procs: list, parallel: int = 2) -> tuple[float, int]:
    """`powts import inventory` for every county, `parallel` processes; returns (seconds, failed processes)."""
    shares = [[(slug, str(path)) for slug, path in counties[k::parallel]] for k in range(parallel)]
    t = time.perf_counter()
    loaders = [start([sys.executable, "-c", LOADER, json.dumps(share)], env, workdir / f"import-{k}.log") for k, share in enumerate(shares)]
    procs.extend(loaders)  # stopped with the rest if the run is interrupted
    failures = sum(p.wait() != 0 for p in loaders)
    return time.perf_counter() - t, failures


def copy_baseline(counties: list[tuple[str, Path]], url: str) -> tuple[float, int]:
    """PostgreSQL's bulk path for the same rows into one table of text columns."""
    import psycopg

    with open(counties[0][1], newline="", encoding="utf-8") as handle:
        header = next(csv.reader(handle))
    rows = 0
    with psycopg.connect(url, autocommit=True) as con:
        con.execute("DROP TABLE IF EXISTS bench_copy")
        con.execute(f"CREATE TABLE bench_copy ({', '.join(f'{h} text' for h in header)})")
        t = time.perf_counter()
        for _, path in counties:
            with open(path, "rb") as handle, con.cursor().copy("COPY bench_copy FROM STDIN (FORMAT csv, HEADER true)") as copy:
                while chunk := handle.read(1 << 20):
                    copy.write(chunk)
        elapsed = time.perf_counter() - t
        rows = con.execute("SELECT count(*) FROM bench_copy").fetchone()[0]
        con.execute("DROP TABLE bench_copy")
    return elapsed, rows


# The load generator: its own process; `threads` keep-alive connections, spread over the ports; each
# request sent at its scheduled time; a failure (connection error or 5xx) retried with the same report
# after a short pause, up to 60 s; acknowledged = 201 (stored) or 200 (recognised as stored before).
LOADGEN = r'''
import http.client, json, sys, threading, time
ports, token, rate, seconds, threads, jobs = json.loads(sys.argv[1]), sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), json.load(open(sys.argv[6]))
lat, codes, acked, lock = [], {}, [], threading.Lock()
retries = [0]
start = time.perf_counter() + 0.5
total = min(int(rate * seconds), len(jobs))
def worker(k):
    port = ports[k % len(ports)]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    i = k
    while i < total:
        due = start + i / rate
        wait = due - time.perf_counter()
        if wait > 0: time.sleep(wait)
        county, sid, day, lic = jobs[i]
        body = json.dumps({"jurisdiction": county, "system_id": sid, "kind": "pumping", "work_date": day,
                           "license_number": lic, "gallons_pumped": 1000, "disposal_site": "Bench WWTP"})
        first = time.perf_counter()
        give_up = first + 60
        while True:
            try:
                conn.request("POST", "/api/maintenance/reports/", body, {"Content-Type": "application/json", "Authorization": "Token " + token})
                r = conn.getresponse(); r.read(); code = r.status
            except Exception as exc:
                code = type(exc).__name__; conn.close(); conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            with lock: codes[str(code)] = codes.get(str(code), 0) + 1
            if code in (200, 201) or (isinstance(code, int) and code < 500) or time.perf_counter() > give_up:
                break
            with lock: retries[0] += 1
            time.sleep(0.25)
        with lock:
            lat.append(time.perf_counter() - min(due, first))
            if code in (200, 201): acked.append(i)
        i += threads
ts = [threading.Thread(target=worker, args=(k,)) for k in range(threads)]
[t.start() for t in ts]; [t.join() for t in ts]
print(json.dumps({"latencies": lat, "codes": codes, "acked": acked, "retries": retries[0], "elapsed": time.perf_counter() - start}))
'''


def api_jobs(n: int, offset: int) -> list[list]:
    """n distinct reports over every county: (county slug, system id, work date, license number)."""
    from powts.inventory.models import System

    systems = list(System.objects.filter(installed_on__lt="2025-01-01").order_by("?")
                   .values_list("jurisdiction__slug", "system_id")[:5000])
    jobs = []
    for i in range(n):
        county, sid = systems[i % len(systems)]
        k = offset + i // len(systems)
        jobs.append([county, sid, f"2026-{1 + (k // 28) % 10:02d}-{1 + k % 28:02d}", f"BENCH-SSO-{i % 50}"])
    return jobs


def send_reports(ports: list[int], token: str, rate: float, seconds: float, jobs: list, env: dict, during=None) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(jobs, handle)  # a file: thousands of reports overflow one command-line argument
    gen = subprocess.Popen([sys.executable, "-c", LOADGEN, json.dumps(ports), token, str(rate), str(seconds), "32", handle.name],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if during is not None:
        during()
    out, err = gen.communicate()
    if gen.returncode:
        raise SystemExit(f"load generator failed: {err[-2000:]}")
    return json.loads(out)


def stored_once(jobs: list, acked: list[int]) -> tuple[int, int, int]:
    """(acknowledged, stored exactly once, missing or stored more than once) for the acknowledged reports."""
    from django.db import connection
    from django.db.models import Count

    from powts.maintenance.models import Report

    connection.close()  # the bench's own connection may predate a restart
    want = {(jobs[i][0], jobs[i][1], jobs[i][2], jobs[i][3]) for i in acked}
    counts = {}
    for row in (Report.objects.filter(license__number__startswith="BENCH-SSO-")
                .values("jurisdiction__slug", "system_ref", "work_date", "license__number").annotate(n=Count("id"))):
        counts[(row["jurisdiction__slug"], row["system_ref"], str(row["work_date"]), row["license__number"])] = row["n"]
    once = sum(1 for key in want if counts.get(key) == 1)
    return len(want), once, len(want) - once


def report_figures(label: str, res: dict, rate: float) -> None:
    lat = sorted(res["latencies"])
    p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000  # noqa: E731
    print(f"  {label:<44}{len(res['acked']) / res['elapsed']:7.0f}/s {p(0.5):8.0f} ms {p(0.99):8.0f} ms   "
          f"offered {rate:.0f}/s; responses {res['codes']}; retries {res['retries']}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--counties", type=int, default=71)
    ap.add_argument("--systems", type=int, default=10_000, help="systems per county")
    ap.add_argument("--api-rate", type=float, default=100)
    ap.add_argument("--api-seconds", type=float, default=30)
    ap.add_argument("--workdir", type=Path, default=None, help="kept afterwards when given (default: a temporary one)")
    ap.add_argument("--reuse", action="store_true", help="the cluster and counties an earlier run left in --workdir: no load")
    args = ap.parse_args()
    if not shutil.which("redis-server"):
        raise SystemExit("redis-server is not installed (apt-get install redis-server)")
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="powts-statewide-"))
    workdir.mkdir(parents=True, exist_ok=True)
    workdir.chmod(0o755)
    pg = Postgres(workdir)
    redis_port = spare_port()
    env = {**os.environ, "DATABASE_URL": pg.url, "POWTS_QUEUE_URL": f"redis://127.0.0.1:{redis_port}/0",
           "POWTS_DATA_DIR": str(workdir / "data"), "DJANGO_SETTINGS_MODULE": "powts.settings", "POWTS_LOG_LEVEL": "ERROR"}
    os.environ.update(env)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # kill PID: the processes and the cluster stopped too
    procs: list[subprocess.Popen] = []
    pg.start(reuse=args.reuse)
    try:
        procs.append(start(["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                           env, workdir / "redis.log"))
        wait_port(redis_port)
        subprocess.run([*POWTS, "migrate", "-v0"], env=env, check=True, cwd=ROOT)
        import django

        django.setup()
        from django.db import connection

        print(f"PostgreSQL {connection.cursor().connection.info.server_version} on port {pg.port}, Redis on {redis_port}, "
              f"work directory {workdir}")
        counties = make_counties(args.counties + 1, args.systems, workdir)  # the last one: the notice baseline's
        statewide, spare = counties[:-1], counties[-1]

        print(f"\n1. load {args.counties} counties x {args.systems:,} systems   time")
        from powts.inventory.models import System

        if args.reuse:
            print(f"  loaded by an earlier run: {System.objects.count():,} systems (its figures are in its output)")
        else:
            elapsed, failures = load_counties(counties, env, workdir, procs)
            base, rows = copy_baseline(statewide, pg.url)
            loaded = System.objects.exclude(jurisdiction__slug=spare[0]).count()
            per_county = elapsed * args.counties / (args.counties + 1)
            print(f"  COPY of the same {rows:,} rows into one table   {base:8.1f} s")
            print(f"  powts import inventory, 2 processes        {per_county:8.1f} s   ({loaded:,} systems; {failures} import(s) failed; "
                  f"{per_county / base:.0f}x COPY; with each county's maintenance follow-up)")

        from powts.accounts.models import License, User
        from powts.accounts.services import license_create, user_create
        from powts.jurisdictions.models import Jurisdiction
        from powts.jobs.tasks import execute
        from powts.maintenance.batches import batch_request
        from powts.maintenance.models import NoticeBatch

        staff = User.objects.filter(username="bench-state").first() or user_create(
            username="bench-state", password="bench-password-123", role="dnr")
        units = {j.slug: j for j in Jurisdiction.objects.filter(slug__in=[slug for slug, _ in counties])}
        # Baseline: one county's batch in this process, no queue, before any worker runs (its task waits
        # on Redis; a worker later finds the batch done and does nothing).
        if args.reuse:  # an earlier run's letters and batches (bench data only): the batches start again
            from powts.maintenance.models import Notice

            Notice.objects.filter(jurisdiction__slug__in=units).delete()
            NoticeBatch.objects.filter(jurisdiction__slug__in=units).delete()
        batch, _ = batch_request(jurisdiction=units[spare[0]], as_of=AS_OF, user=staff)
        t = time.perf_counter()
        execute(batch.job_id)  # its job, claimed here before any worker runs
        one_county = time.perf_counter() - t
        batch.refresh_from_db()
        one_letters = batch.total
        today_sweeps_first()  # as bench_maintenance: else the workers run them over every system during the load
        webs = [spare_port(), spare_port()]
        for i, port in enumerate(webs):
            procs.append(start([*POWTS, "serve", "--host", "127.0.0.1", "--port", str(port), "--no-worker"], env, workdir / f"web-{i}.log"))
        for i in range(2):
            procs.append(start([*POWTS, "worker"], env, workdir / f"worker-{i}.log"))
        for port in webs:
            wait_port(port)

        from knox.models import AuthToken

        user = User.objects.filter(username="bench-pumper").first() or user_create(
            username="bench-pumper", password="bench-password-123", role="pumper")
        for i in range(50):
            if not License.objects.filter(number=f"BENCH-SSO-{i}").exists():
                license_create(kind="septage_operator", number=f"BENCH-SSO-{i}", holder_name="Bench Pumper", user=user)
        token = AuthToken.objects.create(user=user)[1]
        n = int(args.api_rate * args.api_seconds)
        print(f"\n2. reports through the API, {args.api_seconds:.0f} s   acknowledged      p50         p99")
        jobs = api_jobs(n, 0)
        one = send_reports(webs[:1], token, args.api_rate, args.api_seconds, jobs, env)
        report_figures("baseline: one web process", one, args.api_rate)
        jobs2 = api_jobs(n, 300)
        two = send_reports(webs, token, args.api_rate, args.api_seconds, jobs2, env)
        report_figures("two web processes", two, args.api_rate)

        print("\n3. statewide notice batch                     time")
        print(f"  baseline: one county here, no queue       {one_county:8.1f} s   ({one_letters:,} letters; "
              f"x{args.counties} = {one_county * args.counties:.0f} s one after another)")
        t = time.perf_counter()
        ids = [batch_request(jurisdiction=units[slug], as_of=AS_OF, user=staff)[0].pk for slug, _ in statewide]
        while NoticeBatch.objects.filter(pk__in=ids, job__state__in=["queued", "running"]).exists():
            time.sleep(1)
        statewide_s = time.perf_counter() - t
        done = NoticeBatch.objects.filter(pk__in=ids)
        letters = sum(done.values_list("total", flat=True))
        failed = done.filter(job__state="failed").count()
        print(f"  {args.counties} counties by two workers from Redis    {statewide_s:8.1f} s   ({letters:,} letters; "
              f"{failed} batch(es) failed)")

        print(f"\n4. PostgreSQL restarted during the API load ({args.api_seconds:.0f} s, two web processes)")
        jobs3 = api_jobs(n, 600)

        def restart():
            time.sleep(args.api_seconds / 2)
            t0 = time.perf_counter()
            pg.pg_ctl("restart", "-m", "fast")
            print(f"  PostgreSQL restarted at {args.api_seconds / 2:.0f} s, down {time.perf_counter() - t0:.1f} s")

        fault = send_reports(webs, token, args.api_rate, args.api_seconds, jobs3, env, during=restart)
        report_figures("with the restart", fault, args.api_rate)
        for label, res, js in (("one web process", one, jobs), ("two web processes", two, jobs2), ("with the restart", fault, jobs3)):
            acked, once, wrong = stored_once(js, res["acked"])
            print(f"  {label:<20} acknowledged {acked:,}; stored exactly once {once:,}; lost or doubled {wrong}; "
                  f"never acknowledged {len(res['latencies']) - len(res['acked'])}")
    finally:
        stop(procs)
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # noqa: BLE001 (Django may not be set up yet)
            pass
        pg.stop()
        if args.workdir is None:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
