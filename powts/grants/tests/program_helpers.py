"""Owner applications for the program tests: rows decided by the law engine, as the grants app stores them."""
from __future__ import annotations

import datetime as dt
import itertools

from django.utils import timezone

from powts.law.grants import decide_row

_n = itertools.count(1)


def application(jurisdiction, *, fiscal_year="2026-27", category=1, income="30000", table="5000",
                applied_on="2025-10-01", experimental=False, business=False, residence_key=None, **extra):
    """A stored application with the engine's decision on it (status eligible/ineligible)."""
    from powts.grants.models import GrantApplication, GrantDecision

    k = next(_n)
    conds = ["a"] if category == 1 else ["d"]
    row = {"id": str(k), "applicant_type": "business" if business else "residence", "failure_conditions": ";".join(conds),
           "failure_determined_on": "2025-06-01", "applied_on": applied_on, "system_installed_on": "1970-05-01",
           "annual_family_income": "" if business else income, "annual_gross_revenue": "100000" if business else "",
           "daily_flow_gpd": "1000" if business else "", "funding_table_amount": table, "experimental": experimental}
    d = decide_row(row)
    app = GrantApplication.objects.create(
        jurisdiction=jurisdiction, fiscal_year=fiscal_year, owner_name=f"Owner {k}",
        imported_failure={"conditions": conds, "determined_on": "2025-06-01", "system_installed_on": "1970-05-01"},
        applicant_type=row["applicant_type"], applied_on=dt.date.fromisoformat(applied_on),
        annual_family_income=None if business else int(float(income) * 100), income_tax_year=2024,
        annual_gross_revenue=10000000 if business else None, daily_flow_gpd=1000 if business else None,
        funding_table_amount=int(float(table) * 100), experimental=experimental,
        residence_key=residence_key or f"parcel-{k}", status="eligible" if d.eligible else "ineligible",
        source="import", external_id=f"x{k}", created_at=timezone.now(), **extra)
    GrantDecision.objects.create(application=app, eligible=d.eligible, amount=d.amount, state_share=d.state_share,
                                 category=d.category, law_version=d.version or "", explanation=d.explanation,
                                 decided_at=timezone.now())
    return app


def inventory_system(jurisdiction, system_id="S-1"):
    from powts.inventory.services import system_create

    return system_create(jurisdiction=jurisdiction, system_id=system_id, parcel_number=f"P-{system_id}",
                         system_type="conventional", owner_name="Pat Owner")
