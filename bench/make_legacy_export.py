"""A county's legacy inventory export, as such files come: for trying `powts import inventory` on it.

    .venv/bin/python bench/make_legacy_export.py OUT.csv [--rows 2000] [--seed 7]

Writes OUT.csv in Windows-1252 with the county's own headers (Permit #, PIN, Sys Type, Owner, ...), accented
owner names, several date styles (ISO, 6/30/1987, 3/7/87, bare years, month-years, "March 4, 2020"), bare years
for the last pumping, N/A and unknown cells, tank sizes with their unit, blank rows, a few repeated permit
numbers, a few rows without a parcel and a few unknown system types; and beside it OUT.map.csv, the mapping of
its headers to the import's columns. Then:

    powts import inventory OUT.csv --jurisdiction dane --map OUT.map.csv --dry-run

Seeded: the same arguments give the same file. Not a test: nothing asserts.
"""
from __future__ import annotations

import argparse
import csv
import random
from pathlib import Path

HEADER = ["Permit #", "PIN", "Sys Type", "Owner", "Site Address", "Municipality", "Install Date", "Last Pumped",
          "Status", "Tank Size", "Bedrooms", "Design Flow", "Notes"]
MAPPING = {"Permit #": "system_id", "PIN": "parcel_id", "Sys Type": "system_type", "Owner": "owner_name",
           "Site Address": "site_address", "Municipality": "municipality", "Install Date": "installed_on",
           "Last Pumped": "last_serviced_on", "Status": "status", "Tank Size": "tank_capacity_gallons",
           "Bedrooms": "bedrooms", "Design Flow": "design_flow_gpd"}
FIRST = ["José", "Zoë", "Ann", "Bob", "Carl", "Dee", "Ed", "Fay", "Gus", "Hélène", "Ida", "Jürgen", "Kay", "Lars", "Mai",
         "Nils", "Oda", "Pao", "Renée", "Sue", "Tou", "Ursula", "Vang", "Walt"]
LAST = ["Núñez", "Brandt", "Olson", "Berg", "Krueger", "Vang", "Schröder", "Lee", "Dahl", "Müller", "Hanson", "Xiong",
        "Peña", "Johnson", "Côté", "Lor", "Nelson", "Thao"]
TOWNS = ["Town of Dunn", "Town of Vienna", "Town of Berry", "Village of Oregon", "Town of Springfield"]
TYPES = ["Mound", "Septic", "Conventional", "Holding", "HT", "ATU", "At-grade", "In-ground pressure", "IGP",
         "septic/drainfield", "Drip line", "Privy", "mound", "SEPTIC"]
STATUSES = ["Active", "active", "In use", "", "", "", "Failed", "Inactive", "N/A"]


def _date(rng: random.Random, year: int) -> str:
    month, day = rng.randint(1, 12), rng.randint(1, 28)
    style = rng.random()
    if style < 0.35:
        return f"{month}/{day}/{year}"
    if style < 0.55:
        return f"{year}-{month:02d}-{day:02d}"
    if style < 0.70:
        return str(year)
    if style < 0.80:
        return f"{month}/{year}"
    if style < 0.88:
        return f"{month}/{day}/{year % 100:02d}"  # a two-digit year
    if style < 0.94:
        return ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December"][month - 1] + f" {day}, {year}"
    return ""


def rows(count: int, seed: int):
    rng = random.Random(seed)
    permits: list[str] = []
    for i in range(count):
        installed = rng.randint(1965, 2024)
        permit = f"{rng.choice(['SP', 'P', ''])}{installed % 100:02d}-{1000 + i}"
        if permits and rng.random() < 0.01:
            permit = rng.choice(permits)  # a permit number the county used twice
        permits.append(permit)
        pin = f"0608-{rng.randint(100, 999)}-{i:04d}" if rng.random() > 0.01 else ""
        kind = rng.choice(TYPES) if rng.random() > 0.005 else "Lagoon?"
        owner = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        serviced_year = rng.randint(max(installed, 2005), 2025)
        serviced = (str(serviced_year) if rng.random() < 0.34 else _date(rng, serviced_year)) if rng.random() > 0.1 else ""
        tank = rng.choice(["1000", "1,000", "750 gal", "1,250 gallons", "1500", "", "-", "unknown", "2800 L"])
        bedrooms = rng.choice(["3", "4", "2", "N/A", "n/a", "", "5", "unknown"])
        flow = rng.choice(["450", "600 gpd", "", "NA"])
        yield [permit, pin, kind, owner, f"{rng.randint(1, 9999)} {rng.choice(['Lake', 'Oak', 'Elm', 'County'])} Rd",
               rng.choice(TOWNS), _date(rng, installed), serviced, rng.choice(STATUSES), tank, bedrooms, flow,
               rng.choice(["", "", "gate code 12", "dog on site", "call before pumping"])]
        if rng.random() < 0.02:
            yield [""] * len(HEADER)  # the blank rows a spreadsheet leaves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with open(args.out, "w", newline="", encoding="cp1252") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows(rows(args.rows, args.seed))
    mapping = args.out.with_name(f"{args.out.stem}.map.csv")
    with open(mapping, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["file header", "column"], *MAPPING.items()])
    print(f"{args.out} ({args.rows:,} systems) and {mapping}")


if __name__ == "__main__":
    main()
