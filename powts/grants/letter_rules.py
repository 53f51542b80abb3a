"""The county's words for grant letters (grants.yaml): the appeal route and the next steps, each cited.
No Django: the start-up data check (jurisdictions.data_check) reads it too.
"""
from __future__ import annotations

from dataclasses import dataclass

from powts.kernel.errors import DataFileError
from powts.kernel.profiles import resolve


@dataclass(frozen=True)
class LetterRules:
    denial_citation: str
    appeal_text: str
    appeal_citation: str
    next_steps: str
    next_steps_citation: str


def letter_rules(slug: str) -> LetterRules:
    """The county's grants.yaml (or the state's), checked: every text comes with its citation."""
    data, _ = resolve(slug, "grants")
    try:
        rules = LetterRules(
            denial_citation=str(data["denial"]["citation"]), appeal_text=" ".join(str(data["appeal"]["text"]).split()),
            appeal_citation=str(data["appeal"]["citation"]),
            next_steps=" ".join(str(data["approval_next_steps"]["text"]).split()),
            next_steps_citation=str(data["approval_next_steps"]["citation"]))
    except (KeyError, TypeError) as exc:
        raise DataFileError(f"{slug}/grants.yaml", None, f"missing {exc}") from None
    if not all([rules.denial_citation, rules.appeal_citation, rules.next_steps_citation]):
        raise DataFileError(f"{slug}/grants.yaml", None, "every text needs its citation")
    return rules
