"""A realistic, reproducible county inventory for demos and benchmarks (same seed, same rows)."""
from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal
from pathlib import Path
from typing import Iterator

from powts.core import spreadsheet
from powts.inventory.importing.columns import KNOWN
from powts.kernel import profiles

STREETS = ["County Hwy", "Lake Rd", "Oak Ridge Dr", "Valley View Rd", "Church Rd", "Old Stage Rd", "Schneider Dr",
           "Hillside Ln", "Pleasant View Rd", "Prairie Ln", "River Rd", "Timber Ln", "Maple Ct", "Highland Dr",
           "Meadow Ln", "Cedar Cir", "Fox Run", "Ridge Rd", "Sunset Dr", "Woodland Trl"]
FIRST = ["Mary", "James", "Linda", "Robert", "Karen", "John", "Susan", "Michael", "Lisa", "David", "Nancy", "Daniel",
         "Sandra", "Paul", "Donna", "Mark", "Carol", "Steven", "Ruth", "Kevin", "Brenda", "Thomas", "Amy", "Gary"]
LAST = ["Olson", "Johnson", "Schmidt", "Anderson", "Miller", "Nelson", "Peterson", "Larson", "Schultz", "Hanson",
        "Meyer", "Krueger", "Wagner", "Becker", "Koch", "Hoffmann", "Weber", "Fischer", "Jensen", "Erickson",
        "Klein", "Schroeder", "Zimmerman", "Braun", "Thompson", "Gruber", "Novak", "Kowalski", "Lee", "Vang"]
BUSINESSES = ["Sunset Supper Club LLC", "Lakeview Bait & Tackle Inc", "St. Mary's Church", "Hilltop Dairy Farms",
              "Northwoods Resort LLC", "Pine Acres Campground Inc", "Trinity Lutheran Church", "Riverside Tavern LLC"]
# (type, weight, typical tank gallons): roughly the mix of a Wisconsin county's inventory
TYPES = [("conventional", 46, 1000), ("mound", 24, 1000), ("in_ground_pressure", 8, 1000), ("at_grade", 5, 1000),
         ("holding_tank", 8, 3000), ("aerobic_treatment_unit", 2, 1000), ("sand_filter", 1, 1000), ("drip", 1, 1000),
         ("pit_privy", 2, None), ("vaulted_privy", 2, 500), ("portable_restroom", 1, None)]
SPELLINGS = {"conventional": ["Conventional", "Septic/Drainfield", "Gravity", "conventional"], "mound": ["Mound", "MOUND", "mound"],
             "at_grade": ["At-grade", "AT-GRADE", "at_grade"], "holding_tank": ["Holding Tank", "holding_tank"],
             "aerobic_treatment_unit": ["ATU", "Aerobic Treatment Unit"], "in_ground_pressure": ["In-Ground Pressure", "in_ground_pressure"]}


def default_jurisdiction() -> str:
    """The county `powts demo` loads when none is named: the profile whose demo.yaml says `default: true`."""
    marked = [slug for slug in profiles.available() if profiles.load_profile(slug).get("demo", {}).get("default")]
    return marked[0] if marked else profiles.available()[0]


def demo_settings(jurisdiction: str) -> dict:
    """A county's demo.yaml (towns, map centre), or the default demo county's where it has none."""
    own = profiles.load_profile(jurisdiction).get("demo") or {}
    if own.get("municipalities") and own.get("center"):
        return own
    return profiles.load_profile(default_jurisdiction()).get("demo") or {}


def suffix(jurisdiction: str) -> str:
    """Demo sign-ins and licence numbers of every county but the default one end in '-<slug>' (unique)."""
    return "" if jurisdiction == default_jurisdiction() else f"-{jurisdiction}"


def rows(jurisdiction: str, count: int, seed: int = 1, messy: bool = False) -> Iterator[dict]:
    """`count` inventory rows for a county. `messy` uses the spellings county exports really have."""
    rng = random.Random(seed)
    settings = demo_settings(jurisdiction)
    towns = settings["municipalities"]
    lat0, lon0 = float(settings["center"]["latitude"]), float(settings["center"]["longitude"])
    prefix = jurisdiction[:2].upper()
    types, weights = [t[0] for t in TYPES], [t[1] for t in TYPES]
    gallons = {t[0]: t[2] for t in TYPES}
    start = dt.date(1965, 1, 1).toordinal()
    span = dt.date(2025, 12, 31).toordinal() - start
    for i in range(1, count + 1):
        kind = rng.choices(types, weights)[0]
        installed = dt.date.fromordinal(start + int(span * rng.random() ** 0.8))
        business = rng.random() < 0.04
        owner = rng.choice(BUSINESSES) if business else f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        town = rng.choice(towns)
        address = f"{rng.randint(100, 9999)} {rng.choice(STREETS)}"
        serviced = None
        if rng.random() < 0.8:
            serviced = dt.date.fromordinal(min(dt.date(2026, 10, 31).toordinal(), max(installed.toordinal(), dt.date(2026, 10, 31).toordinal() - rng.randint(0, 1600))))
        spelled = rng.choice(SPELLINGS.get(kind, [kind])) if messy else kind
        yield {
            "system_id": f"{prefix}-{i:07d}",
            "parcel_id": f"{0o600 + i % 97:04d}-{rng.randint(100, 364):03d}-{i:07d}",
            "system_type": spelled,
            "owner_name": owner,
            "site_address": address,
            "municipality": town,
            "owner_mailing_address": f"{address}, {town.split(' of ')[-1]}, WI 5{rng.randint(3000, 4999)}",
            "installed_on": installed.isoformat() if rng.random() > 0.01 else "",
            "last_serviced_on": serviced.isoformat() if serviced else "",
            "status": "failing" if rng.random() < 0.02 else "active",
            "tank_capacity_gallons": gallons[kind] or "",
            "design_flow_gpd": rng.choice([300, 450, 600, 750]) if kind not in ("pit_privy", "vaulted_privy", "portable_restroom") else "",
            "bedrooms": rng.choice([2, 3, 3, 4, 5]) if not business else "",
            # Decimal, not text: numbers stay numbers in the (formula-safe) CSV.
            "latitude": Decimal(f"{lat0 + rng.uniform(-0.3, 0.3):.6f}"),
            "longitude": Decimal(f"{lon0 + rng.uniform(-0.4, 0.4):.6f}"),
            "permit_number": f"{installed.year}-{i % 10000:04d}" if installed.year > 1980 else "",
        }


def write_csv(path: Path, jurisdiction: str, count: int, seed: int = 1, messy: bool = False) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = spreadsheet.DictWriter(handle, fieldnames=list(KNOWN))
        writer.writeheader()
        writer.writerows(rows(jurisdiction, count, seed, messy))
    return path
