"""The state's view of every county program and powts's automatic flagging of reports (s. 145.20(5)(c)), statewide:
not a test, nothing here asserts.

    .venv/bin/python bench/bench_oversight.py [--counties 72] [--systems 10000] [--samples 30] [--workdir DIR]

Loads (once, then reused) `--counties` counties of `--systems` systems each: parcels, owners, systems and schedules
as bench_map.py writes them, and one maintenance report a system dated in this year (a pumping or an inspection,
a few filed late, a few pairs the flagging must find: a pumping then an inspection finding the tank full, two
reports one day by licences far apart, work before a licence was issued), with notices and correction orders.
Then prints p95 and median, wall and CPU (this process's: SQLite runs in it), of

1. the state view page (GET /oversight/ as the department) and its API (GET /api/oversight/programs/);
2. the automatic flag computation of one county (`flags_detect`, rolled back after each run so each run finds the
   same reports), over `--samples` counties in turn;

each beside a baseline asked right after each sample in the same run: the sign-in page (no query of any county's
records). The load average is printed at the start and the end. SQLite by default; set DATABASE_URL for PostgreSQL.
Target (every page's): the state view under 100 ms p95.
"""
from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def p95(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=20)[-1] if len(samples) >= 20 else max(samples)


def ms(x: float) -> str:
    return f"{x * 1000:9.1f} ms"


def generate(counties: int, systems: int, seed: int = 12) -> list[int]:
    """The counties' records, written in bulk; returns the counties' ids. Reused when already there."""
    from django.db import connection, transaction
    from django.utils import timezone

    from powts.accounts.models import License, User
    from powts.inventory.models import Owner, Parcel, System
    from powts.inventory.search import search_text_for
    from powts.jurisdictions.models import Jurisdiction
    from powts.maintenance.models import Notice, Report, Schedule
    from powts.permits.models import CorrectionOrder

    units = []
    for k in range(1, counties + 1):
        unit, _ = Jurisdiction.objects.get_or_create(slug=f"bench-{k:02d}", defaults={
            "name": f"Bench County {k:02d}", "profile_slug": "dane" if k % 2 else "lincoln"})
        units.append(unit)
    if System.objects.count() == counties * systems and Report.objects.exists():
        print(f"reusing {counties} counties of {systems:,} systems")
        return [u.pk for u in units]
    rng = random.Random(seed)
    t = time.perf_counter()
    today = dt.date.today()
    year_start = dt.date(today.year, 1, 1)
    now = timezone.now()
    User.objects.get_or_create(username="bench-dsps", defaults={"role": "dsps"})
    licenses = []
    for i in range(40):
        lic = License.objects.filter(number=f"BENCH-{i}").first() or License.objects.create(
            kind="septage_operator" if i % 2 else "master_plumber", number=f"BENCH-{i}", holder_name=f"Bench Holder {i}",
            latitude=42.5 + (i % 8) * 0.5, longitude=-92.5 + (i // 8) * 0.6, issued_on=dt.date(2010, 1, 1))
        licenses.append(lic)
    late_license = License.objects.filter(number="BENCH-NEW").first() or License.objects.create(
        kind="septage_operator", number="BENCH-NEW", holder_name="Newly Licensed", issued_on=today - dt.timedelta(days=20))
    with transaction.atomic():
        if connection.vendor == "sqlite":
            with connection.cursor() as cursor:
                cursor.execute("UPDATE inventory_search_sync SET enabled = 0")  # as bulk imports do
        next_id = 1
        for unit in units:
            owners = Owner.objects.bulk_create([Owner(jurisdiction=unit, name=f"Owner {unit.pk}-{i}",
                                                      mailing_address="" if i % 50 == 0 else f"{i} Bench Rd, WI")
                                                for i in range(max(1, systems // 3))], batch_size=5000)
            parcels, syss, schedules, reports, notices = [], [], [], [], []
            for i in range(systems):
                pid = next_id + i
                parcels.append(Parcel(id=pid, jurisdiction=unit, parcel_number=f"{unit.pk:02d}-{i:07d}",
                                      legal_description="" if i % 40 == 0 else f"Lot {i}", site_address=f"{i} Bench Rd",
                                      owner=owners[i % len(owners)]))
                sid = f"B{unit.pk}-{i:06d}"
                kind = rng.choice(("conventional", "mound", "holding_tank", "at_grade"))
                syss.append(System(id=pid, jurisdiction=unit, system_id=sid, parcel_id=pid, system_type=kind,
                                   status="failing" if rng.random() < 0.01 else "active",
                                   search_text=search_text_for(sid, f"{unit.pk:02d}-{i:07d}", f"{i} Bench Rd", "", "")))
                due = today + dt.timedelta(days=rng.randint(-700, 1000))
                schedules.append(Schedule(system_id=pid, jurisdiction=unit, system_ref=sid, rule="septic_tank",
                                          interval_months=36, due_on=due, notice_on=due - dt.timedelta(days=30),
                                          delinquent=due < today - dt.timedelta(days=60), src_system_type=kind,
                                          updated_at=now))
                day = year_start + dt.timedelta(days=rng.randint(0, max(0, (today - year_start).days - 1)))
                lic = licenses[rng.randrange(len(licenses))]
                rkind = "pumping" if i % 2 else "inspection"
                reports.append(Report(jurisdiction=unit, system_id=pid, system_ref=sid, kind=rkind, work_date=day, license=lic,
                                      gallons_pumped=1000 if rkind == "pumping" else None,
                                      sludge_scum_fraction=None if rkind == "pumping" else round(rng.uniform(0.05, 0.3), 2),
                                      filed_at=now, late=rng.random() < 0.05, failure_flag=rng.random() < 0.01))
                if i % 500 == 0:  # what the flagging must find: a pumping, then an inspection finding it full
                    reports.append(Report(jurisdiction=unit, system_id=pid, system_ref=sid, kind="inspection",
                                          work_date=day + dt.timedelta(days=5), license=licenses[0], sludge_scum_fraction=0.5,
                                          filed_at=now) if rkind == "pumping" else
                                   Report(jurisdiction=unit, system_id=pid, system_ref=sid, kind="pumping", work_date=day,
                                          license=licenses[-1] if lic != licenses[-1] else licenses[1], filed_at=now))
                if i % 700 == 0:  # work before the licence was issued
                    reports.append(Report(jurisdiction=unit, system_id=pid, system_ref=sid, kind="pumping",
                                          work_date=today - dt.timedelta(days=40), license=late_license, filed_at=now))
                if i % 10 == 0:
                    notices.append(Notice(jurisdiction=unit, system_id=pid, kind="first_notice" if i % 20 else "delinquent",
                                          due_on=due, as_of=day, sent_at=now, batch="bench", to_name="Owner", to_address="x",
                                          citation="SPS 383.255"))
            Parcel.objects.bulk_create(parcels, batch_size=5000)
            System.objects.bulk_create(syss, batch_size=5000)
            Schedule.objects.bulk_create(schedules, batch_size=5000)
            Report.objects.bulk_create(reports, batch_size=5000, ignore_conflicts=True)
            Notice.objects.bulk_create(notices, batch_size=5000)
            CorrectionOrder.objects.bulk_create([_order(unit, next_id + i, today) for i in range(0, systems, 200)],
                                                batch_size=5000)
            next_id += systems
            print(f"  {unit.name}: {systems:,} systems, {len(reports):,} reports", end="\r")
        if connection.vendor == "sqlite":
            with connection.cursor() as cursor:
                cursor.execute("UPDATE inventory_search_sync SET enabled = 1")
                cursor.execute("INSERT INTO inventory_system_fts(rowid, search_text) SELECT id, search_text FROM inventory_system")
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            for table in ("inventory_parcel", "inventory_system"):
                cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}))")
        cursor.execute("ANALYZE")
    print(f"\ngenerated {counties} counties x {systems:,} systems with reports in {time.perf_counter() - t:.1f} s "
          f"({connection.vendor})")
    return [u.pk for u in units]


def _order(unit, system_pk, today):
    from powts.permits.models import CorrectionOrder

    late = system_pk % 400 == 1  # a few past their day to correct
    return CorrectionOrder(jurisdiction=unit, system_id=system_pk, issued_on=today - dt.timedelta(days=90),
                           correct_by=today + dt.timedelta(days=-30 if late else 30), requirement="Pump the tank",
                           citation="SPS 383.54(4)", status="open")


def timed(label, call, samples, anonymous, rows):
    times, cpu, base, base_cpu = [], [], [], []
    call(0)  # warm
    for i in range(samples):
        t, c = time.perf_counter(), time.process_time()
        call(i)
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
        t, c = time.perf_counter(), time.process_time()
        anonymous.get("/accounts/login/")
        base.append(time.perf_counter() - t)
        base_cpu.append(time.process_time() - c)
    rows.append(label)
    print(f"  {label:<44}{ms(p95(times))}{ms(statistics.median(times))}{ms(p95(cpu))}{ms(statistics.median(cpu))}"
          f"   {ms(p95(base)):>14} / {ms(p95(base_cpu)).strip():>9}   load {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--counties", type=int, default=72)
    parser.add_argument("--systems", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/powts-bench-oversight"))
    args = parser.parse_args()
    import bench_map

    bench_map.setup(args.workdir)
    units = generate(args.counties, args.systems)

    from django.db import transaction
    from django.test import Client
    from django.utils import timezone

    from powts.accounts.models import User
    from powts.jurisdictions.models import Jurisdiction
    from powts.maintenance.models import Report
    from powts.oversight.services import flags_detect

    client, anonymous = Client(), Client()
    client.force_login(User.objects.get(username="bench-dsps"))
    print(f"{len(units)} counties, {Report.objects.count():,} reports; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores at the start")
    print(f"\n  {'figure':<44}{'p95':>12}{'median':>12}{'CPU p95':>12}{'CPU median':>12}"
          f"   {'baseline: sign-in p95 / CPU p95':>30}")
    rows: list = []

    def page(i):
        r = client.get("/oversight/")
        assert r.status_code == 200, r.status_code

    def api(i):
        r = client.get("/api/oversight/programs/")
        assert r.status_code == 200, r.status_code

    def page_after_a_write(i):
        # What a load costs when a county wrote since the last one: the view computed afresh (nothing kept).
        from powts.oversight import selectors

        getattr(selectors, "_KEPT", {}).clear()
        page(i)

    found = []

    def detect(i):
        unit = Jurisdiction.objects.get(pk=units[i % len(units)])
        with transaction.atomic():
            found.append(len(flags_detect(jurisdiction=unit, on=timezone.localdate())))
            transaction.set_rollback(True)

    timed("state view page (GET /oversight/)", page, args.samples, anonymous, rows)
    timed("state view page, first load after a write", page_after_a_write, args.samples, anonymous, rows)
    timed("state view API (GET /api/oversight/programs/)", api, args.samples, anonymous, rows)
    timed(f"automatic flags of one county ({args.systems:,} systems)", detect, args.samples, anonymous, rows)
    print(f"\nflags found per county: {min(found)}-{max(found)}; load average {os.getloadavg()[0]:.1f} at the end; "
          "target: the state view p95 < 100 ms")


if __name__ == "__main__":
    main()
