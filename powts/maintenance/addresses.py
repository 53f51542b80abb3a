"""Whether an owner's mailing address can go on an envelope, and its lines for the window.

A letter the post office cannot deliver is no notice: an owner without a usable mailing address is
held back from a batch and listed apart for staff to fix. Usable means what USPS
Publication 28 needs on the last two lines of a domestic address: a delivery line (street, PO box or
rural route) and a last line with the city, the state and a ZIP code.
"""
from __future__ import annotations

import re

ZIP = re.compile(r"\b\d{5}(?:-\d{4})?\s*$")
MAX_LINES = 5  # what fits the #10 window (powts.maintenance.letters.WINDOW)


def lines(text: str) -> list[str]:
    """The address as envelope lines: as typed on several lines, or one line split at its commas
    ("12 Lake Rd, Verona, WI 53593" -> "12 Lake Rd" / "Verona, WI 53593")."""
    rows = [r.strip() for r in (text or "").splitlines() if r.strip()]
    if len(rows) == 1 and rows[0].count(",") >= 2:
        street, rest = rows[0].split(",", 1)
        rows = [street.strip(), rest.strip()]
    return rows


def problem(text: str) -> str:
    """Why the address cannot be mailed to, in plain words; empty when it can."""
    rows = lines(text)
    if not rows:
        return "no mailing address on file"
    if len(rows) < 2:
        return "the mailing address has no city, state and ZIP code line"
    if not ZIP.search(rows[-1]):
        return "the mailing address has no ZIP code on its last line"
    if len(rows) > MAX_LINES - 1:  # the name takes one line of the window
        return f"the mailing address has more than {MAX_LINES - 1} lines"
    return ""
