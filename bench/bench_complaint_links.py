"""Benchmark (not a test): finding the system at a complaint's address, so a complaint links to its system's record.

    POWTS_DATA_DIR=$(mktemp -d) .venv/bin/python bench/bench_complaint_links.py [--parcels 200000]

Builds N parcels with one system each in a fresh SQLite database (or DATABASE_URL), then times
`inventory.selectors.systems_at_address` for addresses written differently from the parcel's ("Road"
for "Rd", a city after the comma) and for addresses with no system (the complaint is queued), beside
a baseline measured in the same run: the indexed look-up of one system by its id.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--parcels", type=int, default=200_000)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "powts.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from powts.inventory.models import Parcel, System
    from powts.inventory.selectors import systems_at_address
    from powts.jurisdictions.services import jurisdiction_ensure

    n = args.parcels
    dane = jurisdiction_ensure(slug="dane")
    streets = ["Lake Rd", "County Road K", "Oak Ridge Dr", "Main St", "Highway 12", "Pine Ln", "Elm Ave", "River Rd"]
    Parcel.objects.bulk_create([Parcel(jurisdiction=dane, parcel_number=f"P{i:07d}", site_address=f"{(i * 7919) % 9999 + 1} {streets[i % 8]}")
                                for i in range(n)], batch_size=5000)
    System.objects.bulk_create([System(jurisdiction=dane, system_id=f"S{i:07d}", parcel_id=pk, system_type="conventional",
                                       search_text=f"s{i:07d} | {address.lower()}")
                                for i, (pk, address) in enumerate(Parcel.objects.values_list("pk", "site_address"))], batch_size=5000)

    def timed(fn):
        start = time.perf_counter()
        result = fn()
        return (time.perf_counter() - start) * 1000, result

    def p95(xs):
        return sorted(xs)[max(0, int(len(xs) * 0.95) - 1)]

    hits, found = [], 0
    for i in range(0, 2000, 20):
        ms, result = timed(lambda i=i: systems_at_address(
            jurisdiction=dane, address=f"{(i * 7919) % 9999 + 1} {streets[i % 8].replace('Rd', 'Road')}, Verona WI"))
        hits.append(ms)
        found += bool(result)
    misses = [timed(lambda i=i: systems_at_address(jurisdiction=dane, address=f"{(i * 7919) % 9999 + 1} Nowhere Road"))[0]
              for i in range(0, 2000, 20)]
    base = [timed(lambda i=i: System.objects.filter(jurisdiction=dane, system_id=f"S{i * 37:07d}").first())[0] for i in range(100)]
    print(f"{n:,} parcels; {found} of {len(hits)} written-differently addresses found")
    print(f"  address found:          p50 {statistics.median(hits):7.1f} ms  p95 {p95(hits):7.1f} ms")
    print(f"  no system (queued):     p50 {statistics.median(misses):7.1f} ms  p95 {p95(misses):7.1f} ms")
    print(f"  baseline id look-up:    p50 {statistics.median(base):7.2f} ms  p95 {p95(base):7.2f} ms")


if __name__ == "__main__":
    main()
