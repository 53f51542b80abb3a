"""Setback rules from a profile's `setbacks.yaml`.

A county file may say `extends: state` and list its own `rules+` (the kernel's one rule of layers);
its rules and the state's then govern pair by pair (subject kind, object kind), the stricter distance
winning: every ordinance here calls itself
a minimum that yields to higher standards (each profile cites where its ordinance says so). On a tie
the county's own rule is cited, being the more specific.
"""
from __future__ import annotations

from dataclasses import dataclass

from powts.kernel.cited import line_of
from powts.kernel.profiles import STATE_MINIMUM, ProfileError, governing, resolve, profile_cached

from .errors import SetbackRulesError
from .plan import KINDS


@dataclass(frozen=True)
class SetbackRule:
    id: str
    subjects: tuple[str, ...]
    objects: tuple[str, ...]
    min_ft: float
    citation: str
    quote: str = ""
    where_practical: bool = False
    outside_texts: bool = False


def parse_rules(entries, where: str) -> list[SetbackRule]:
    """Validate the `rules` list of one setbacks.yaml."""
    rules = []
    for i, e in enumerate(entries or []):
        line = line_of(e)
        label = f"{where}{f':{line}' if line else ''} rule #{i + 1} ({e.get('id', '?') if isinstance(e, dict) else e!r})"
        if not isinstance(e, dict):
            raise SetbackRulesError(f"{label}: expected a mapping")
        if not e.get("citation"):
            raise SetbackRulesError(f"{label}: has no citation")
        for key in ("subjects", "objects"):
            kinds = e.get(key)
            if not kinds or not isinstance(kinds, list):
                raise SetbackRulesError(f"{label}: needs a list of {key}")
            unknown = [k for k in kinds if k not in KINDS]
            if unknown:
                raise SetbackRulesError(f"{label}: unknown {key} {unknown}")
        min_ft = e.get("min_ft")
        if isinstance(min_ft, bool) or not isinstance(min_ft, (int, float)) or min_ft < 0:
            raise SetbackRulesError(f"{label}: min_ft must be a number of feet >= 0")
        rules.append(SetbackRule(
            id=e.get("id") or label, subjects=tuple(e["subjects"]), objects=tuple(e["objects"]),
            min_ft=float(min_ft), citation=e["citation"], quote=e.get("quote", ""),
            where_practical=bool(e.get("where_practical")), outside_texts=bool(e.get("outside_texts")),
        ))
    return rules


def combine(*rule_lists: list[SetbackRule]) -> dict[tuple[str, str], SetbackRule]:
    """Pair -> governing rule; earlier lists win ties (pass the county's rules first)."""
    governing: dict[tuple[str, str], SetbackRule] = {}
    for rules in rule_lists:
        for rule in rules:
            for s in rule.subjects:
                for o in rule.objects:
                    current = governing.get((s, o))
                    if current is None or rule.min_ft > current.min_ft:
                        governing[(s, o)] = rule
    return governing


def _own_rules(slug: str) -> list[list[SetbackRule]]:
    """The county's rules, then the state's (county first wins ties). The two are one list by the
    kernel's one rule of layers (`rules+`); which file each came from is kept for ties and messages."""
    try:
        own, slug_of, _state = governing(slug, "setbacks")
        data, slug_of = resolve(slug, "setbacks")
    except ProfileError as exc:
        raise SetbackRulesError(str(exc)) from None
    entries = data.get("rules")
    if slug_of == STATE_MINIMUM or not own.get("extends"):
        return [parse_rules(entries, f"profiles/{slug_of}/setbacks.yaml")]
    mine = own.get("rules+") or own.get("rules") or []
    county = [e for e in entries or [] if e in mine]  # combine copies the county's entries: equal, not the same
    state = [e for e in entries or [] if e not in mine]
    return [parse_rules(county, f"profiles/{slug}/setbacks.yaml"),
            parse_rules(state, f"profiles/{STATE_MINIMUM}/setbacks.yaml")]


@profile_cached
def rules_for(slug: str) -> dict[tuple[str, str], SetbackRule]:
    """The governing setback rule for each (subject kind, object kind) pair of jurisdiction `slug`."""
    return combine(*_own_rules(slug))
