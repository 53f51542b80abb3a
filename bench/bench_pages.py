"""The staff pages (lists, system, dashboard, notices, permits, map), at 1,000,000 systems: p95 server side
(Django's handler), each beside a baseline measured in the same run on the same machine: the sign-in page (no query of the county's
records: what any page costs here at this load), asked right after each sample. The permit page is timed on
`--samples` applications filed (once, then reused) on the benchmark's parcels.

    .venv/bin/python bench/bench_pages.py [--workdir /tmp/powts-bench-map] [--samples 30] [--only notices]

The notices pages are timed on the county as it is after its batches were mailed every day until
yesterday (`notices_sent_until`, with the letters they mailed and two earlier cycles': `letters_on_file`),
as of today (a day's letters) and as of 30 days on (a month's). Each owner has a mailing address of their
own, about 5% of them unusable (`vary_addresses`), as in a county's records.
Reuses bench_map.py's data (1,000,000 parcels, systems and schedules in every standing; run it first,
or with --rows to make them). Target: "every page above: p95 under 100 ms at 1,000,000 systems".
SQLite by default; set DATABASE_URL for PostgreSQL. Not a test: nothing here asserts.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def p95(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=20)[-1] if len(samples) >= 20 else max(samples)


def ms(x: float) -> str:
    return f"{x * 1000:8.1f} ms"


def ensure_permits(n: int) -> list[int]:
    """`n` filed applications (fees, documents, a plot plan) on the benchmark's parcels, filed once and reused."""
    import datetime as dt

    from powts.accounts.models import License
    from powts.accounts.services import license_create
    from powts.inventory.models import Parcel
    from powts.jurisdictions.models import Jurisdiction
    from powts.permits import services
    from powts.permits.models import Permit
    from powts.permits.tests.conftest import COMPLIANT_PLAN, DOCS

    dane = Jurisdiction.objects.get(slug="dane")
    have = list(Permit.objects.filter(jurisdiction=dane).order_by("pk").values_list("pk", flat=True)[:n])
    if len(have) >= n:
        return have
    lic = License.objects.filter(number="MP-BENCH").first() or license_create(
        kind="master_plumber", number="MP-BENCH", holder_name="Bench Plumber")
    filed = dt.date(2026, 3, 2)
    for parcel in Parcel.objects.filter(jurisdiction=dane, pk__gt=500_000).select_related("owner").order_by("pk")[:n - len(have)]:
        services.permit_file(jurisdiction=dane, parcel=parcel, owner=parcel.owner, plumber=lic, filed_on=filed,
                             building_use="single-family", lot_dimensions="200x300", reference_points="BM",
                             estimated_daily_flow_gpd=300, design_flow_gpd=450, plans_signed=True, plot_plan=COMPLIANT_PLAN,
                             documents=[{"kind": k, "received_on": filed} for k in DOCS["dane"]])
    return list(Permit.objects.filter(jurisdiction=dane).order_by("pk").values_list("pk", flat=True)[:n])


def notices_sent_until(day) -> None:
    """The county as it is after running its batches every day up to `day`: each schedule at the stage its
    sequence had reached (first notice from the notice date, each step from its days after the due date), the
    owner with a usable mailing address. Without this every overdue system of the generated data would be in
    one batch of hundreds of thousands of letters, which no county that mails its notices ever has. Once."""
    from powts.jurisdictions.models import Jurisdiction
    from powts.maintenance.models import Schedule

    dane = Jurisdiction.objects.get(slug="dane")
    if Schedule.objects.filter(jurisdiction=dane).exclude(stage="").exists():
        return
    _write_stages(dane, day)
    from django.db import connection

    with connection.cursor() as cursor:
        # the statistics bench_map took said every schedule is at stage "": SQLite would read the notices
        # page's kinds from the due-date index (2.8 s each) rather than the stage index
        cursor.execute("ANALYZE")


def letters_on_file(dane) -> None:
    """The letters those batches mailed, which `notices_sent_until` advanced the stages for without writing:
    for each schedule past stage "", one letter of each kind up to its stage for its due date, and two earlier
    cycles' (three and six years before: a first notice each, a reminder for a third of them). The page's
    counts no longer read the letters (a schedule's stage is restored from them when a due date comes back), but
    the send, the letters tab and the owner's page do, and a county's database holds them: the pages are timed
    with them on file. Made once."""
    from django.db import connection, transaction
    from django.utils import timezone

    from powts.maintenance.models import Notice
    from powts.maintenance.services import profile_for

    if Notice.objects.filter(jurisdiction=dane).exists():
        return
    kinds = ["first_notice", *[step.kind for step in profile_for(dane).steps]]
    ranks = " ".join(f"WHEN '{k}' THEN {i}" for i, k in enumerate(kinds))
    ladder = " UNION ALL ".join(f"SELECT '{k}' AS kind, {i} AS rank" for i, k in enumerate(kinds))  # SQLite too
    back = ("date(s.due_on, '-' || y.y || ' years')" if connection.vendor == "sqlite"
            else "(s.due_on - make_interval(years => y.y))::date")
    cols = ("kind, due_on, as_of, sent_at, batch, to_name, to_address, to_email, email_error, pdf_path, citation, "
            "jurisdiction_id, system_id, language, bounce_reason")
    t, now = time.perf_counter(), timezone.now()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"""INSERT INTO maintenance_notice ({cols})
            SELECT k.kind, s.due_on, s.due_on, %s, 'bench', 'Owner', %s, '', '', '', '', s.jurisdiction_id, s.system_id,
                   'en', ''
            FROM maintenance_schedule s JOIN ({ladder}) AS k
              ON k.rank <= CASE s.stage {ranks} ELSE -1 END
            WHERE s.jurisdiction_id = %s AND s.due_on IS NOT NULL AND s.stage <> ''""",
                       [now, SHARED, dane.pk])
        cursor.execute(f"""INSERT INTO maintenance_notice ({cols})
            SELECT k.kind, {back}, {back}, %s, 'bench', 'Owner', %s, '', '', '', '', s.jurisdiction_id, s.system_id,
                   'en', ''
            FROM maintenance_schedule s CROSS JOIN (SELECT 3 AS y UNION ALL SELECT 6) AS y
              JOIN (SELECT 'first_notice' AS kind UNION ALL SELECT 'reminder') AS k ON k.kind = 'first_notice' OR s.system_id %% 3 = 0
            WHERE s.jurisdiction_id = %s AND s.due_on IS NOT NULL""", [now, SHARED, dane.pk])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE maintenance_notice")
    print(f"letters on file: {Notice.objects.filter(jurisdiction=dane).count():,} written in {time.perf_counter() - t:.0f} s")


SHARED = "1 Bench Rd\nVerona, WI 53593"  # what every owner had before vary_addresses
TOWNS = ["Verona", "Madison", "Sun Prairie", "Mount Horeb", "Stoughton", "Cross Plains", "Oregon", "Waunakee"]


def address_of(owner_id: int) -> str:
    """A mailing address of the owner's own, in the shapes a county's records have: on two lines or on one with
    commas, and about 5% that cannot be mailed (no ZIP code, no city line, none at all)."""
    from powts.inventory.demo_data import STREETS

    street = f"{100 + (owner_id * 7919) % 9900} {STREETS[owner_id % len(STREETS)]}"
    town = TOWNS[(owner_id // 7) % len(TOWNS)]
    zip_code = f"53{500 + owner_id % 100:03d}"
    if owner_id % 97 == 0:
        return ""
    if owner_id % 50 == 0:
        return f"{street}\n{town}, WI"
    if owner_id % 50 == 1:
        return f"{street} {town}"
    if owner_id % 3 == 0:
        return f"{street}, {town}, WI {zip_code}"
    return f"{street}\n{town}, WI {zip_code}" + ("-0001" if owner_id % 11 == 0 else "")


def vary_addresses(dane) -> None:
    """Before this, every owner shared one address, so the notices page checked one address per batch where a
    county's records make it check each owner's. Written as a bulk fix would write them, then checked as the
    import's follow-up checks them (where that exists). Once."""
    from django.db import connection, transaction

    from powts.inventory.models import Owner

    if not Owner.objects.filter(jurisdiction=dane, mailing_address=SHARED).exists():
        return
    t = time.perf_counter()
    ids = list(Owner.objects.filter(jurisdiction=dane).values_list("pk", flat=True))
    with transaction.atomic(), connection.cursor() as cursor:
        for start in range(0, len(ids), 20_000):
            cursor.executemany("UPDATE inventory_owner SET mailing_address = %s WHERE id = %s",
                               [(address_of(pk), pk) for pk in ids[start:start + 20_000]])
    try:
        from powts.maintenance.notice_flags import recheck
    except ImportError:  # code from before the kept address checks
        recheck = None
    checked = recheck(jurisdiction_id=dane.pk) if recheck else 0
    print(f"gave {len(ids):,} owners addresses of their own ({checked:,} checked) in {time.perf_counter() - t:.1f} s")


def count_map_cells(dane) -> None:
    """The map's clusters, counted as the import, a centroid load and the nightly job count them. bench_map.py
    counts them for its own run; without them the map page reads its extent from every parcel (the first day's
    fallback, 260 ms at 1,000,000 on PostgreSQL), which no county's page does after its first night."""
    from powts.maps.models import MapCell
    from powts.maps.services import cells_rebuild

    if MapCell.objects.filter(jurisdiction=dane).exists():
        return
    t = time.perf_counter()
    cells_rebuild(jurisdiction=dane)
    print(f"counted the map's clusters in {time.perf_counter() - t:.1f} s")


def _write_stages(dane, day) -> None:
    import datetime as dt

    from django.db.models import F

    from powts.inventory.models import Owner
    from powts.maintenance.models import Schedule
    from powts.maintenance.services import profile_for

    Owner.objects.filter(jurisdiction=dane, mailing_address="").update(mailing_address=SHARED)
    live = Schedule.objects.filter(jurisdiction=dane, exempt=False, needs_data=False)
    live.filter(notice_on__lte=day).update(stage="first_notice", stage_on=F("notice_on"))
    for step in profile_for(dane).steps:
        after = dt.timedelta(days=step.days_after_due)
        more = {"delinquent": True} if step.marks_delinquent else {}
        live.filter(due_on__lte=day - after).update(stage=step.kind, stage_on=F("due_on") + after, **more)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/powts-bench-map"))
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--only", default="", help="time only the pages whose label contains this (e.g. notices)")
    parser.add_argument("--counted-samples", type=int, default=3,
                        help="with the dashboard: its counts also read the old way, from every schedule (seconds each)")
    args = parser.parse_args()
    import bench_map

    t = time.perf_counter()
    bench_map.setup(args.workdir)
    print(f"migrated in {time.perf_counter() - t:.1f} s (the first run of maintenance 0013 counts the histogram)")
    bench_map.generate(args.rows)

    from django.test import Client

    from powts.accounts.models import User
    from powts.inventory.models import System

    permits = ensure_permits(args.samples)
    import datetime as dt

    today = dt.date.today()
    notices_sent_until(today - dt.timedelta(days=1))
    from powts.jurisdictions.models import Jurisdiction

    letters_on_file(Jurisdiction.objects.get(slug="dane"))
    vary_addresses(Jurisdiction.objects.get(slug="dane"))
    count_map_cells(Jurisdiction.objects.get(slug="dane"))
    from powts.maintenance import standing_counts

    # the years of daily batches written above in one statement each: the nightly sweep would have rewritten the
    # kept counts after each day (standing_counts.compact); without it they are read from 81 MB on PostgreSQL
    if standing_counts.compact():
        print("kept counts rewritten, as the nightly sweep does")
    next_month = today + dt.timedelta(days=30)
    staff = User.objects.get(username="bench-staff")
    client = Client()
    client.force_login(staff)
    anonymous = Client()
    some = list(System.objects.order_by("?").values_list("pk", flat=True)[:args.samples]) if os.environ.get("DATABASE_URL") \
        else [1 + (i * 7919) % args.rows for i in range(args.samples)]
    # "P-<id>" is no parcel number of bench_map's (theirs are "0385-134-0000001"): that search matches nothing.
    # Kept for comparison with earlier runs; the line after it searches each sampled system's own number.
    numbers = dict(System.objects.filter(pk__in=some).values_list("pk", "parcel__parcel_number"))
    pages = [
        ("systems list, default sort", lambda i: "/inventory/"),
        ("systems list, sorted by installation", lambda i: "/inventory/?sort=-installed_on"),
        ("systems list, one town and type", lambda i: "/inventory/?municipality=Town+of+Dunn&system_type=mound"),
        ("systems list, search a parcel number", lambda i: f"/inventory/?q=P-{some[i]:07d}"),
        ("systems list, search a parcel on file", lambda i: f"/inventory/?q={quote(numbers[some[i]])}"),
        ("systems list, page 200", lambda i: "/inventory/?page=200"),
        ("system page", lambda i: f"/inventory/systems/{some[i]}/"),
        ("maintenance dashboard", lambda i: "/maintenance/"),
        ("maintenance reports list", lambda i: "/maintenance/reports/"),
        ("notices page (preview as of today)", lambda i: "/maintenance/notices/"),
        ("notices page, as of 30 days on", lambda i: f"/maintenance/notices/?as_of={next_month}"),
        ("notices page, 30 days on, page 20", lambda i: f"/maintenance/notices/?as_of={next_month}&page=20"),
        ("permits list", lambda i: "/permits/"),
        ("permit page (filed, with its plot plan)", lambda i: f"/permits/{permits[i % len(permits)]}/"),
        ("map page", lambda i: "/map/"),
    ]
    from powts.core.startup import settle

    settle()  # as powts/wsgi.py does in every web process before its first request
    print(f"{System.objects.count():,} systems; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the start")
    # Wall time and this process's CPU time: on a machine shared at a load of 20-30 on two cores the wall time is
    # mostly waiting for a core; the CPU time (SQLite runs in this process) is what the page itself costs.
    print(f"\n  {'page (server side, Django handler)':<42}{'p95':>11}{'median':>11}{'CPU p95':>11}{'CPU median':>11}"
          f"   {'baseline: sign-in p95 / CPU p95':>32}   status")
    for label, url in pages:
        if args.only not in label:
            continue
        client.get(url(0))  # warm: templates, the municipality list
        times, cpu, base, base_cpu, status = [], [], [], [], set()
        for i in range(args.samples):
            t, c = time.perf_counter(), time.process_time()
            response = client.get(url(i))
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            status.add(response.status_code)
            t, c = time.perf_counter(), time.process_time()
            anonymous.get("/accounts/login/")
            base.append(time.perf_counter() - t)
            base_cpu.append(time.process_time() - c)
        print(f"  {label:<42}{ms(p95(times))}{ms(statistics.median(times))}{ms(p95(cpu))}{ms(statistics.median(cpu))}"
              f"   {ms(p95(base)):>20} / {ms(p95(base_cpu)).strip():>9}   {sorted(status)}")
    if args.only in "maintenance dashboard" and args.counted_samples:
        dashboard_counts_both(args.samples, args.counted_samples)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end; target p95 < 100 ms")


def dashboard_counts_both(samples: int, counted_samples: int) -> None:
    """The dashboard's counts alone, from the kept histogram and counted from every schedule, in one run
    (the same numbers: checked here too)."""
    import datetime as dt

    from powts.jurisdictions.models import Jurisdiction
    from powts.maintenance.selectors import dashboard_counts, dashboard_counts_counted

    dane = Jurisdiction.objects.get(slug="dane")
    today = dt.date.today()
    for label, read, n in (("kept histogram", dashboard_counts, samples), ("counted from every schedule", dashboard_counts_counted,
                                                                          counted_samples)):
        times, cpu = [], []
        for _ in range(n):
            t, c = time.perf_counter(), time.process_time()
            result = read(jurisdiction=dane, as_of=today)
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        print(f"  dashboard counts, {label:<32}{ms(p95(times))}{ms(statistics.median(times))}{ms(p95(cpu))}"
              f"{ms(statistics.median(cpu))}   load {os.getloadavg()[0]:.1f}   totals {result['totals']}")


if __name__ == "__main__":
    main()
