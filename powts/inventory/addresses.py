"""Site addresses compared as people write them: "1234 County Road K, Madison WI" is "1234 CTY RD K".

No Django imports. Used to find the system at the address a complaint names.
"""
from __future__ import annotations

import re

# The USPS street-suffix and direction abbreviations (Publication 28, appendices B and C) people mix most.
WORDS = {
    "street": "st", "str": "st", "road": "rd", "avenue": "ave", "av": "ave", "drive": "dr", "lane": "ln",
    "court": "ct", "circle": "cir", "boulevard": "blvd", "parkway": "pkwy", "highway": "hwy", "place": "pl",
    "terrace": "ter", "trail": "trl", "county": "cty", "co": "cty", "north": "n", "south": "s",
    "east": "e", "west": "w", "northeast": "ne", "northwest": "nw", "southeast": "se", "southwest": "sw",
    "route": "rte", "wisconsin": "wi", "point": "pt", "mount": "mt",
}
_NON_WORD = re.compile(r"[^a-z0-9 ]+")


def normalised(address: str) -> str:
    """The street line of `address` (before the first comma), lower case, punctuation dropped,
    suffixes and directions abbreviated; "" when there is none."""
    street = (address or "").split(",", 1)[0].lower().replace("#", " ")
    words = _NON_WORD.sub(" ", street).split()
    return " ".join(WORDS.get(w, w) for w in words)


def house_number(address: str) -> str:
    """The leading number of the street line ("N1234" and "1234A" included), or ""."""
    words = normalised(address).split()
    return words[0] if words and any(ch.isdigit() for ch in words[0]) else ""
