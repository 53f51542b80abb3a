"""Demo well claims for a demo county: a year of claims received by DNR, some still incomplete, two
claims on one water supply (consolidated, s. 281.75(5)(e)), and a payment run short of funds (a
conditional approval, (5)(f)). Every step through the services. Idempotent per county."""
from __future__ import annotations

import datetime as dt

from django.utils import timezone

from powts.audit.choices import Channel
from powts.audit.context import acting
from powts.wells import services
from powts.wells.models import WellClaim


def _rows(slug: str, today: dt.date) -> list[dict]:
    start = today - dt.timedelta(days=360)
    rows = []
    for i in range(12):
        received = start + dt.timedelta(days=30 * i)
        complete = i not in (3, 9, 11)  # three still incomplete
        rows.append({
            "id": f"{slug.upper()}-WC-{i + 1:03d}", "supply_id": f"{slug.upper()}-WS-{i + 1:03d}", "county": slug,
            "claimant_name": f"Demo Claimant {i + 1}", "claimant_address": f"{100 + i} County Road\nWisconsin",
            "claimant_type": "lessee" if i == 5 else "landowner", "supply_use": "livestock" if i == 7 else "residential",
            "well_kind": "drilled" if i % 3 else "driven", "dwelling_units": 1 if i != 7 else "",
            "sample_dates": f"{(received - dt.timedelta(days=40)).isoformat()};{(received - dt.timedelta(days=20)).isoformat()}"
            if i != 11 else "",
            "lab_certified": True, "department_advisory": False,
            "annual_family_income": 70000 if i == 4 else 30000 + 2500 * i,  # claim 5 is over the $65,000 limit
            "eligible_costs": f"new_well:{9000 + 250 * i};pump:1500", "claimed_on": received.isoformat(),
            "completed_on": (received + dt.timedelta(days=10 + (40 if i == 1 else 0))).isoformat() if complete else "",
            "affidavit_on": "" if i == 3 else received.isoformat(), "tax_returns_on": "" if i == 9 else received.isoformat(),
        })
    # a second claimant (the spouse) on the first claim's supply: consolidated
    rows.append({**rows[0], "id": f"{slug.upper()}-WC-013", "claimant_name": "Demo Claimant 1 (spouse)", "claimant_type": "spouse",
                 "claimed_on": (start + dt.timedelta(days=15)).isoformat(), "completed_on": ""})
    return rows


def load(jurisdiction) -> str:
    slug = jurisdiction.slug
    if WellClaim.objects.filter(claim_id__startswith=f"{slug.upper()}-WC-").exists():
        return "already loaded"
    today = timezone.localdate()
    with acting(channel=Channel.CLI, actor_label="powts demo"):
        r = services.claims_import(rows=_rows(slug, today))
        # a run that pays the first claims and conditionally approves the next (the appropriation is short)
        run = services.payment_run(funds=2_000_000, on=today - dt.timedelta(days=30))
    return f"{r.stored} claims ({r.incomplete} incomplete, {r.consolidated} consolidated), payment run {run.pk}"
