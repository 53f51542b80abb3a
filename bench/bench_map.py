"""The map's bounding-box query at county-to-state scale (target: p95 under 150 ms at 1,000,000 systems).

    .venv/bin/python bench/bench_map.py [--rows 1000000] [--workdir /tmp/powts-bench-map] [--reuse]

Writes N systems on N parcels spread over a county, N/3 owners with the demo data's names and each system's
search text (straight SQL, COPY on PostgreSQL: the import is bench_inventory's to measure; the database
then serves `bench_inventory.py --search-only URL --as-user bench-staff` too), their maintenance schedules
in every standing, counts the map's clusters (timed), then asks
/api/map/systems.geojson through Django's handler for a 1280 x 800 pixel window at several zooms,
each beside a baseline in the same run: a plain COUNT of the user's systems in the same box (the first
--baseline-samples windows of each case: over a county-wide box it reads every system).
Also: the list's facets together (type and status, type and municipality, all three, several types), summed
from the clusters counted per combination (MapFacetCell), each beside the live count the map ran for them
before (its "live count p95" column: the same box counted from the filtered systems and their schedules);
and filters only a live count answers (a search, a standing). SQLite by default; set DATABASE_URL to run it
on PostgreSQL. Not a test: nothing here asserts.
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
# The county's box (around Madison, as the demo data): 0.8 x 0.6 degrees.
WEST, EAST, SOUTH, NORTH = -89.8, -89.0, 42.77, 43.37


def p95(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=20)[-1] if len(samples) >= 20 else max(samples)


def ms(x: float) -> str:
    return f"{x * 1000:7.1f} ms"


def setup(workdir: Path):
    workdir.mkdir(parents=True, exist_ok=True)
    os.environ["POWTS_DATA_DIR"] = str(workdir)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "powts.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def generate(rows: int, seed: int = 7) -> None:
    from django.db import connection, transaction

    from powts.accounts.models import User
    from powts.inventory.demo_data import FIRST, LAST, STREETS
    from powts.inventory.models import Owner, Parcel, System
    from powts.inventory.search import search_text_for
    from powts.jurisdictions.services import jurisdiction_ensure
    from powts.maintenance.models import Schedule

    dane = jurisdiction_ensure(slug="dane")
    if System.objects.filter(jurisdiction=dane).count() == rows:
        print(f"reusing {rows:,} systems")
        return
    rng = random.Random(seed)
    today = dt.date.today()
    now = dt.datetime.now(dt.timezone.utc)
    t = time.perf_counter()
    Schedule.objects.all().delete()
    System.objects.all().delete()
    Parcel.objects.all().delete()
    Owner.objects.all().delete()
    owner = Owner.objects.create(jurisdiction=dane, name="Bench Owner")
    User.objects.filter(username="bench-staff").delete()
    User.objects.create(username="bench-staff", role="county_staff", jurisdiction=dane)
    chunk = 50_000
    owners = max(1, rows // 3)  # an owner has three parcels on average: names repeat as in a county
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("UPDATE inventory_search_sync SET enabled = 0")  # as bulk imports do
        first_owner = owner.pk + 1
        names = {}
        for start in range(0, owners, chunk):
            batch = []
            for k in range(start, min(start + chunk, owners)):
                names[k] = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
                batch.append((first_owner + k, dane.pk, names[k], "person", "", "", "", "en", 1))
            _write(cursor, "inventory_owner", ("id", "jurisdiction_id", "name", "kind", "mailing_address", "email", "phone",
                                               "language", "version"), batch)
        for start in range(1, rows + 1, chunk):
            ids = range(start, min(start + chunk, rows + 1))
            parcels, systems, schedules = [], [], []
            for i in ids:
                lat = round(rng.uniform(SOUTH, NORTH), 6)
                lon = round(rng.uniform(WEST, EAST), 6)
                if rng.random() < 0.02:
                    lat = lon = None  # not on the map
                k = rng.randrange(owners)
                number = f"{0o600 + i % 97:04d}-{rng.randint(100, 364):03d}-{i:07d}"
                address, town = f"{rng.randint(100, 9999)} {rng.choice(STREETS)}", "Town of Dunn"
                parcels.append((i, dane.pk, number, "", address, town, "", False, lat, lon, first_owner + k, False, 1))
                kind = rng.choice(("conventional", "mound", "mound", "conventional", "holding_tank", "at_grade"))
                status = "failing" if rng.random() < 0.01 else "active"
                system_id = f"DA-{i:07d}"
                installed = None if i % 20 == 0 else dt.date(1970, 1, 1) + dt.timedelta(days=(i * 7919) % 20000)
                systems.append((i, dane.pk, system_id, i, kind, status, installed, "day", "{}",
                                search_text_for(system_id, number, address, town, names[k]), "", "", 1))
                needs = rng.random() < 0.02
                due = None if needs else today + dt.timedelta(days=rng.randint(-900, 1100))
                notice = None if due is None else due - dt.timedelta(days=30)
                schedules.append((i, dane.pk, system_id, "septic_tank", 36, due, notice, needs, False, False, False,
                                  False, "", kind, "", now))
            _write(cursor, "inventory_parcel", ("id", "jurisdiction_id", "parcel_number", "legal_description", "site_address",
                                                "municipality", "site_zip", "sewered", "latitude", "longitude", "owner_id",
                                                "pending", "version"), parcels)
            _write(cursor, "inventory_system", ("id", "jurisdiction_id", "system_id", "parcel_id", "system_type", "status",
                                                "installed_on", "installed_on_precision", "extra", "search_text", "structures_served",
                                                "permit_number", "version"), systems)
            _write(cursor, "maintenance_schedule", ("system_id", "jurisdiction_id", "system_ref", "rule", "interval_months",
                                                    "due_on", "notice_on", "needs_data", "exempt", "pumping_required",
                                                    "failure_reported", "delinquent", "stage", "src_system_type",
                                                    "basis_kind", "updated_at"), schedules)
        if connection.vendor == "sqlite":
            cursor.execute("UPDATE inventory_search_sync SET enabled = 1")
            cursor.execute("INSERT INTO inventory_system_fts(rowid, search_text) SELECT id, search_text FROM inventory_system")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            for table in ("inventory_parcel", "inventory_system", "inventory_owner"):
                cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}))")
            cursor.execute("ANALYZE")
    else:
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    print(f"generated {rows:,} parcels, systems and schedules in {time.perf_counter() - t:.1f} s ({connection.vendor})")


def _write(cursor, table: str, columns: tuple, rows: list) -> None:
    """Rows into a table: COPY on PostgreSQL (a million rows in seconds), executemany on SQLite."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with cursor.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        return
    cursor.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})", rows)


def window(rng: random.Random, zoom: int) -> str:
    """A 1280 x 800 pixel map window at `zoom`, somewhere over the county."""
    width = 1280 * 360 / (256 * 2 ** zoom)
    height = width * 800 / 1280 * 0.73  # degrees of latitude are longer than longitude's at 43 N
    cx = rng.uniform(WEST, EAST)
    cy = rng.uniform(SOUTH, NORTH)
    return f"{cx - width / 2:.6f},{cy - height / 2:.6f},{cx + width / 2:.6f},{cy + height / 2:.6f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/powts-bench-map"))
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--live-samples", type=int, default=10, help="windows for the filtered (counted live) cases")
    parser.add_argument("--baseline-samples", type=int, default=5,
                        help="the COUNT baseline reads every system in a county-wide box: a few samples suffice")
    parser.add_argument("--keep-cells", action="store_true",
                        help="skip counting the clusters again when they were counted today (a copied database)")
    args = parser.parse_args()
    setup(args.workdir)
    generate(args.rows)

    from decimal import Decimal

    from django.test import Client

    from powts.accounts.models import User
    from powts.inventory.selectors import system_list
    from powts.jurisdictions.models import Jurisdiction
    from django.http import QueryDict

    from powts.maps import grid
    from powts.maps.selectors import _in_box, _live_cells, filtered_systems, standing
    from powts.maps.services import cells_rebuild

    from django.utils import timezone

    from powts.maps.models import MapCell

    dane = Jurisdiction.objects.get(slug="dane")
    if args.keep_cells and MapCell.objects.filter(jurisdiction=dane, computed_on=timezone.localdate()).exists():
        print("map clusters counted today: kept")
    else:
        t = time.perf_counter()
        summary = cells_rebuild(jurisdiction=dane)
        print(f"map clusters counted (every zoom 0-15) in {time.perf_counter() - t:.1f} s: {summary}")

    staff = User.objects.get(username="bench-staff")
    client = Client()
    client.force_login(staff)
    rng = random.Random(11)

    def baseline(box: str) -> None:
        w, s, e, n = (Decimal(v) for v in box.split(","))
        system_list(user=staff).filter(parcel__longitude__range=(w, e), parcel__latitude__range=(s, n)).count()

    def live_count(box: str, zoom: int, extra: str) -> None:
        """What the map ran for two facets before they were counted ahead: the box's filtered systems and
        their schedules grouped by cell."""
        qs, _ = filtered_systems(user=staff, params=QueryDict(extra.lstrip("&")))
        w, s, e, n = (float(v) for v in box.split(","))
        _live_cells(_in_box(qs, grid.BBox(w, s, e, n)), level=min(zoom, grid.MAX_CLUSTER_ZOOM), as_of=dt.date.today())

    def points_by_range(box: str) -> None:
        """The points query as it was before the strip index: the box's longitude range, then latitude."""
        w, s, e, n = (Decimal(v) for v in box.split(","))
        list(system_list(user=staff).filter(parcel__longitude__range=(w, e), parcel__latitude__range=(s, n))
             .annotate(standing=standing(dt.date.today())).order_by()
             .values_list("pk", "system_id", "parcel__latitude", "parcel__longitude", "parcel__site_address", "standing")[:3001])

    print(f"\nsystems.geojson, server side (Django handler), {args.samples} windows of 1280 x 800 px each; target p95 < 150 ms")
    print(f"  load average {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores) at the start")
    print(f"  {'case':<52}{'p95':>10}{'median':>11}{'CPU p95':>11}   {'baseline COUNT p95':>18}   "
          f"{'points by lon range p95':>23}   {'live count p95':>14}   answer")
    two = "&system_type=mound&status=active"
    cases = [(f"zoom {z}", z, "") for z in (8, 10, 12, 14, 16)]
    cases += [("zoom 8, one type (counted cells of the type)", 8, "&system_type=mound"),
              ("zoom 12, one type (counted cells of the type)", 12, "&system_type=mound")]
    cases += [(f"zoom {z}, type and status (counted cells)", z, two) for z in (8, 10, 12, 13, 14)]
    cases += [("zoom 12, type and municipality (counted cells)", 12, "&system_type=mound&municipality=Town+of+Dunn"),
              ("zoom 12, type, status, municipality (counted)", 12, two + "&municipality=Town+of+Dunn"),
              ("zoom 12, two types and status (counted cells)", 12, two + "&system_type=holding_tank"),
              ("zoom 15, type and status (live: closer than 14)", 15, two),
              ("zoom 12, type and installed year (counted live)", 12, "&system_type=mound&installed_year=1990"),
              ("zoom 16, type and status (points)", 16, two),
              ("zoom 12, type and standing (counted cells by standing)", 12, "&system_type=mound&standing=overdue"),
              ("zoom 12, standing alone (counted cells by standing)", 12, "&standing=due_soon"),
              ("zoom 12, type and search (counted live)", 12, "&system_type=mound&q=smith")]
    facet_cases = {label for label, _, extra in cases if extra and "live" not in label and "points" not in label}
    client.get(f"/api/map/systems.geojson?bbox={window(rng, 10)}&zoom=10")  # warm up
    from powts.core.startup import settle

    settle()  # as the web process does before serving (wsgi.py): without it a collector pass was a case's p95
    for label, zoom, extra in cases:
        times, cpu, base, ranged, live, kinds, sizes = [], [], [], [], [], set(), []
        for sample in range(args.live_samples if "live" in label else args.samples):
            box = window(rng, zoom)
            t, c = time.perf_counter(), time.process_time()
            response = client.get(f"/api/map/systems.geojson?bbox={box}&zoom={zoom}{extra}")
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            assert response.status_code == 200, response.content[:300]
            body = response.json()
            kinds.add(body["properties"]["kind"])
            sizes.append(len(body["features"]))
            if sample < args.baseline_samples:
                t = time.perf_counter()
                baseline(box)
                base.append(time.perf_counter() - t)
                if label in facet_cases:
                    t = time.perf_counter()
                    live_count(box, zoom, extra)
                    live.append(time.perf_counter() - t)
            if zoom >= 14 and not extra:
                t = time.perf_counter()
                points_by_range(box)
                ranged.append(time.perf_counter() - t)
        shown = ms(p95(ranged)) if ranged else "-"
        lived = ms(p95(live)) if live else "-"
        print(f"  {label:<52}{ms(p95(times))}{ms(statistics.median(times))}{ms(p95(cpu))}   {ms(p95(base)):>18}   {shown:>23}   "
              f"{lived:>14}   {'/'.join(sorted(kinds))}, median {int(statistics.median(sizes))} features, "
              f"load {os.getloadavg()[0]:.1f}")
    times = []
    for _ in range(20):
        t = time.perf_counter()
        page = client.get("/map/")
        times.append(time.perf_counter() - t)
    print(f"\nmap page (its 'not on the map' count and extent), 20 requests: first {ms(times[0])}, "
          f"p95 {ms(p95(times[1:]))} (status {page.status_code}); target p95 < 100 ms; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
