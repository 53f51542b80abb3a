"""One grant per residence or establishment (s. 145.246(3)(b)): the key that names one.

The street address with its municipality, normalised as people write it (inventory.addresses), with
no county in it: governmental units overlap (a tribe is one, s. 145.246(1)(b)) and a residence's
earlier grant may be on another unit's books, so the same place is the same key in every county.
Without an address, the county's parcel number (parcel numbers are only unique within a county).
"""
from __future__ import annotations

from powts.inventory.addresses import normalised


def key(*, site_address: str = "", municipality: str = "", parcel_number: str = "", county: str = "") -> str:
    street = normalised(site_address)
    if street:
        place = normalised(municipality) or normalised(site_address.split(",", 1)[1] if "," in site_address else "")
        return f"address:{street}|{place}"[:300]
    if parcel_number.strip():
        return f"parcel:{county}:{' '.join(parcel_number.lower().split())}"[:300]
    return ""


def of_parcel(parcel, county_slug: str) -> str:
    return key(site_address=parcel.site_address, municipality=parcel.municipality,
               parcel_number=parcel.parcel_number, county=county_slug)
