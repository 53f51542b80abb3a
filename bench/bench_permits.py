"""Permit workflow through the services (validated, audited) vs the same rows written bare.

    .venv/bin/python bench/bench_permits.py [--permits 200] [--workdir /tmp/powts-bench-permits]

Per permit: file (with 3 documents and a plot plan checked for setbacks), pay, approve, issue,
request an inspection (notice rules + working-day deadline), record it passed, final approval.
Baseline in the same run and database: the same Permit/Invoice/Payment/Inspection rows created with
plain Django ORM .create() calls (no validation, no audit, no rule evaluation, no timeline), so the
ratio is the cost of doing it by the book. Also the completeness check alone, per call.
Not a test: nothing here asserts.
"""
from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--permits", type=int, default=200)
    ap.add_argument("--workdir", default="/tmp/powts-bench-permits")
    args = ap.parse_args()
    os.environ["POWTS_DATA_DIR"] = args.workdir
    Path(args.workdir).mkdir(parents=True, exist_ok=True)
    db = Path(args.workdir) / "powts.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "powts.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from django.utils import timezone

    from powts.accounts.services import license_create
    from powts.inventory.models import Owner, Parcel
    from powts.jurisdictions.services import jurisdiction_ensure
    from powts.permits import selectors, services
    from powts.permits.models import Inspection, Invoice, Payment, Permit
    from powts.permits.tests.conftest import COMPLIANT_PLAN, DOCS

    for slug in ("dane", "lincoln"):
        unit = jurisdiction_ensure(slug=slug)
        lic = license_create(kind="master_plumber", number=f"MP-{slug}", holder_name="Bench Plumber")
        parcels = []
        for i in range(args.permits * 2):
            owner = Owner.objects.create(jurisdiction=unit, name=f"Owner {i}")
            parcels.append((Parcel.objects.create(jurisdiction=unit, parcel_number=f"{slug}-{i}", legal_description="Lot",
                                                  site_address=f"{i} Road", owner=owner), owner))
        filed = dt.date(2026, 3, 2)
        stage = "before_backfill" if slug == "dane" else "final"
        times = []
        t_all = time.perf_counter()
        for parcel, owner in parcels[:args.permits]:
            t0 = time.perf_counter()
            p = services.permit_file(jurisdiction=unit, parcel=parcel, owner=owner, plumber=lic, filed_on=filed,
                                     building_use="single-family", lot_dimensions="200x300", reference_points="BM",
                                     estimated_daily_flow_gpd=300, design_flow_gpd=450, plans_signed=True,
                                     plot_plan=COMPLIANT_PLAN, documents=[{"kind": k, "received_on": filed} for k in DOCS[slug]])
            for inv in p.invoices.all():
                services.payment_record(invoice=inv, amount=inv.amount, received_on=filed)
            services.permit_approve(permit=p, on=filed)
            p = services.permit_issue(permit=p, on=filed)
            insp = services.inspection_request(permit=p, stage=stage, notice_at=timezone.make_aware(dt.datetime(2026, 5, 4, 7, 0)),
                                               requested_day=dt.date(2026, 5, 5))
            services.inspection_record(inspection=insp, result="passed", on=dt.date(2026, 5, 5))
            services.permit_final_approve(permit=p, on=dt.date(2026, 5, 6))
            times.append(time.perf_counter() - t0)
        full = time.perf_counter() - t_all

        t_all = time.perf_counter()
        for i, (parcel, owner) in enumerate(parcels[args.permits:]):
            p = Permit.objects.create(jurisdiction=unit, number=f"B-{i}", parcel=parcel, owner=owner, plumber=lic, filed_on=filed,
                                      status="completed", issued_on=filed, expires_on=dt.date(2028, 3, 2), plot_plan=COMPLIANT_PLAN)
            inv = Invoice.objects.create(jurisdiction=unit, permit=p, fee_code="application", description="x", amount="450.00",
                                         authority="x", amount_citation="x", schedule_id="x", issued_on=filed, status="paid")
            Payment.objects.create(invoice=inv, amount="450.00", received_on=filed, method="check")
            Inspection.objects.create(permit=p, stage=stage, notice_at=timezone.now(), requested_day=dt.date(2026, 5, 5),
                                      deadline_day=dt.date(2026, 5, 6), deadline_citation="x", result="passed")
        bare = time.perf_counter() - t_all

        sample = Permit.objects.filter(jurisdiction=unit, number__startswith="2026").first()
        t0 = time.perf_counter()
        for _ in range(200):
            selectors.missing_items(sample)
        check = (time.perf_counter() - t0) / 200

        n = args.permits
        print(f"{slug:8s} lifecycle through services: {full / n * 1000:7.1f} ms/permit (p95 "
              f"{statistics.quantiles(times, n=20)[-1] * 1000:.1f} ms)   bare ORM rows: {bare / n * 1000:6.2f} ms/permit   "
              f"ratio {full / bare:5.1f}x   completeness check: {check * 1000:.2f} ms")


if __name__ == "__main__":
    main()
