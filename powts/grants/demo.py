"""The demo's Wisconsin Fund applications (`powts demo`): a fiscal year of a county's intake.

Applications received from February 1, 2025 to January 31, 2026 (the county's application for
participation in fiscal year 2026-27 is due before February 1, 2026, s. 145.246(7)(a)): a few made
through the services on systems of the inventory, each on a determination of failure (the demo
owner's online, the rest from paper forms, most decided, one waiting), and the rest of the year's
intake as the county's file, imported and decided in bulk like `powts grants import`.
"""
from __future__ import annotations

import csv
import datetime as dt
import random
import tempfile
from pathlib import Path

from django.db import transaction

from powts.accounts.models import User
from powts.audit.choices import Channel
from powts.audit.context import acting
from powts.core.demo_people import demo_name
from powts.grants import services
from powts.grants.importing import import_applications
from powts.grants.models import GrantApplication
from powts.inventory.models import System

FISCAL_YEAR = "2026-27"
FIRST_DAY, LAST_DAY = dt.date(2025, 2, 1), dt.date(2026, 1, 31)
FILE_ROWS = 240
HEADER = ["id", "applicant_type", "failure_conditions", "failure_determined_on", "applied_on", "system_installed_on",
          "work_started_on", "sewer_available", "annual_family_income", "annual_gross_revenue", "daily_flow_gpd",
          "funding_table_amount", "prior_grant", "owner_name", "site_address", "municipality", "fiscal_year"]


def load(jurisdiction, *, seed: int = 11) -> str:
    if GrantApplication.objects.filter(jurisdiction=jurisdiction).exists():
        return "already there"
    slug = jurisdiction.slug
    staff = User.objects.filter(username=demo_name("staff", slug)).first()
    owner_user = User.objects.filter(username=demo_name("owner", slug)).first()
    if staff is None:
        return "no demo staff"
    rng = random.Random(seed)
    with acting(channel=Channel.CLI, actor_label="powts demo grants"), transaction.atomic():
        made = _from_forms(jurisdiction, staff, owner_user, rng)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{slug}-grant-applications-{FISCAL_YEAR}.csv"
        _write_file(path, rng)
        result = import_applications(str(path), jurisdiction=jurisdiction, by=staff, today=LAST_DAY)
    return (f"{made} applications entered and {result.stored} imported for fiscal year {FISCAL_YEAR} "
            f"({result.eligible} eligible, {result.ineligible} not eligible)")


def _from_forms(jurisdiction, staff, owner_user, rng) -> int:
    from powts.permits.services.enforcement import failure_determine

    systems = list(System.objects.filter(jurisdiction=jurisdiction, installed_on__isnull=False)
                   .select_related("parcel__owner").order_by("id")[:400])
    mine = [s for s in systems if owner_user and s.parcel.owner and s.parcel.owner.user_id == owner_user.pk]
    old = [s for s in systems if s.installed_on < dt.date(1978, 7, 1) and s not in mine]
    pick = (mine[:1] + old[:10] + [s for s in systems if s not in mine and s not in old][:2])
    made = 0
    for i, system in enumerate(pick):
        determined = FIRST_DAY + dt.timedelta(days=rng.randint(0, 200))
        det = failure_determine(system=system, conditions=[rng.choice("abcd")], on=determined, basis="order")
        applied = determined + dt.timedelta(days=rng.randint(5, 150))
        online = owner_user is not None and system in mine
        income = rng.choice([2_400_000, 3_150_000, 3_800_000, 4_400_000, 5_200_000])
        app = services.application_create(
            by=owner_user if online else staff, failure_determination=det, applied_on=applied,
            source="online" if online else "paper", annual_family_income=income, income_tax_year=determined.year - 1,
            income_evidence="prior_year_return", funding_table_amount=rng.choice([480_000, 520_000, 700_000, 360_000]),
            claimed_cost=rng.randint(1_200_000, 2_400_000), fiscal_year=FISCAL_YEAR, today=LAST_DAY)
        made += 1
        if i % 6 != 5:  # one in six still waits for the county's decision
            services.application_decide(application=app, by=staff)
    return made


def _write_file(path: Path, rng) -> None:
    streets = ["County Road K", "Lake Rd", "Hill St", "Mill Pond Rd", "Old Highway 12", "Prairie Ln"]
    towns = ["Town of Dunn", "Town of Verona", "Town of Berry", "Town of Vienna"]
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(HEADER)
        for i in range(FILE_ROWS):
            determined = FIRST_DAY + dt.timedelta(days=rng.randint(0, 300))
            applied = min(determined + dt.timedelta(days=rng.randint(0, 90)), LAST_DAY)
            business = rng.random() < 0.08
            installed = dt.date(1950, 1, 1) + dt.timedelta(days=rng.randint(0, 12000))
            work = determined + dt.timedelta(days=rng.randint(-20, 60)) if rng.random() < 0.2 else ""
            w.writerow([
                f"FY27-{i + 1:04d}", "business" if business else "residence", rng.choice("aabbccde"),
                determined.isoformat(), applied.isoformat(), installed.isoformat(), work and work.isoformat(),
                "true" if rng.random() < 0.04 else "false",
                "" if business else f"{rng.randint(8_000, 60_000)}.00",
                f"{rng.randint(40_000, 400_000)}.00" if business else "",
                str(rng.randint(300, 5200)) if business else "", f"{rng.choice([3600, 4200, 5200, 6600, 7000])}.00",
                "true" if rng.random() < 0.02 else "false", f"Applicant {i + 1}",
                f"{rng.randint(100, 9999)} {rng.choice(streets)}", rng.choice(towns), FISCAL_YEAR])
