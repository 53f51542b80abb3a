"""Restrictions on county reviewers and inspectors, checked in one place.

Two rules with two sources:

- Wis. Stat. s. 145.20(6)(a)-(b): a governmental unit employee with duties under sub. (2)(a) to (i) may not do
  certified work, nor install, design, maintain, repair or sell a system or component, in the county they work
  in or an adjacent county, except on property they own outside the governmental unit they work for
  (`refuse_employee_work_nearby`).
- Recusal, where the county's profile has it (oversight.yaml `recusal`, cited as the county's policy or its own
  ordinance): a county employee who reviews, inspects or approves steps aside from a permit, soil evaluation or
  report where they, their firm or a relative named on their record is the owner, plumber, soil tester or pumper.
  The statute says nothing of relatives or firms; this is the county's choice. Every service that reviews,
  inspects, approves, verifies or accepts calls `refuse_if_conflicted`; a county administrator then gives the
  work to someone else (powts.oversight.services.conflict_reassign).
"""
from __future__ import annotations

from powts.kernel.refusals import Refused

NEARBY_CITATION = "Wis. Stat. s. 145.20(6)(a)"
OWN_PROPERTY_CITATION = "Wis. Stat. s. 145.20(6)(b)"


class ConflictRefused(Refused):
    """The acting county employee has a conflict of interest in the record."""


def _norm(text: str) -> str:
    return " ".join(str(text or "").casefold().replace(",", " ").replace(".", " ").split())


def _names_of(party) -> list[str]:
    """The names a party goes by: an owner's name; a license's holder and business."""
    names = [getattr(party, "name", ""), getattr(party, "holder_name", ""), getattr(party, "business_name", "")]
    return [n for n in (_norm(x) for x in names) if n]


def recusal_citation(user) -> str:
    """The citation of the recusal rule of the county `user` works for ("" where its profile has none)."""
    from powts.oversight.profile import oversight_profile

    unit = getattr(user, "jurisdiction", None)
    return oversight_profile(unit.profile_slug).recusal_citation if unit is not None else ""


def conflict(user, parties: list[tuple[str, object]]) -> str | None:
    """Why `user` may not act under their county's recusal policy, in plain words, or None (also where the
    county has no such policy). `parties`: (role in the record, Owner or License)."""
    from powts.accounts.choices import COUNTY_ROLES

    if not getattr(user, "pk", None) or getattr(user, "role", None) not in COUNTY_ROLES:
        return None
    if not recusal_citation(user):
        return None
    own = {_norm(user.get_full_name())} - {""}
    firm = {_norm(user.firm_name)} - {""}
    relatives = {_norm(r.name): r for r in user.relatives.all()}
    for role, party in parties:
        if party is None:
            continue
        if getattr(party, "user_id", None) == user.pk:
            return f"you are the {role}"
        for name in _names_of(party):
            if name in own:
                return f"you are the {role}"
            if name in firm:
                return f"the {role} is your firm, {user.firm_name}"
            if name in relatives:
                r = relatives[name]
                return f"the {role} is your relative{' (' + r.relationship + ')' if r.relationship else ''}, {r.name}"
    return None


def refuse_if_conflicted(*, parties: list[tuple[str, object]], what: str, user=None) -> None:
    """Refuse `what` ("approve permit 2026-0004") when the acting person (the audit context's actor unless
    given) has a conflict of interest in it under their county's recusal policy (cited as the profile has it)."""
    if user is None:
        from powts.audit.context import current

        user = current().resolved_actor()
    reason = conflict(user, parties)
    if reason:
        raise ConflictRefused(f"you may not {what}: {reason}; a county administrator can reassign it to a colleague",
                              field="conflict", citation=recusal_citation(user))


def permit_parties(permit) -> list[tuple[str, object]]:
    parties = [("owner", permit.owner), ("plumber", permit.plumber)]
    if permit.soil_evaluation_id:
        parties.append(("soil tester", permit.soil_evaluation.soil_tester))
    return parties


def soil_parties(evaluation) -> list[tuple[str, object]]:
    owner = evaluation.parcel.owner if evaluation.parcel.owner_id else None
    return [("soil tester", evaluation.soil_tester), ("owner", owner)]



def adjacent_counties(slug: str) -> frozenset[str]:
    """The slugs of the counties bordering `slug` (its profile's adjacent_counties)."""
    from powts.kernel.profiles import load_profile

    return frozenset((load_profile(slug).get("adjacent_counties") or {}).get("value") or ())


def refuse_employee_work_nearby(*, license, jurisdiction, owner, what: str) -> None:
    """s. 145.20(6)(a): a county employee (reviewer, inspector) may not do certified work (1.: soil testing) nor
    install, design, maintain, repair or sell a system (2.) in their county or an adjacent one; (b): except on
    property they own outside their own county. `license` is the licence the work is done under; `owner` the property's owner."""
    from powts.accounts.choices import COUNTY_ROLES

    user = getattr(license, "user", None)
    if user is None or user.role not in COUNTY_ROLES or not user.jurisdiction_id:
        return
    home = user.jurisdiction
    if home.pk != jurisdiction.pk and jurisdiction.slug not in adjacent_counties(home.profile_slug):
        return
    own_property = owner is not None and (owner.user_id == user.pk
                                          or (_norm(owner.name) and _norm(owner.name) == _norm(user.get_full_name())))
    if own_property and home.pk != jurisdiction.pk:
        return  # (6)(b): the employee's own property outside the county they work for
    where = "the county you work for" if home.pk == jurisdiction.pk else f"{jurisdiction.name}, next to {home.name}"
    raise ConflictRefused(f"you may not {what} in {where}: {home.name}'s reviewers and inspectors may not install, "
                          "design, maintain, repair or sell systems, or do certified work, there"
                          + ("" if home.pk == jurisdiction.pk else ", except on property they own"),
                          field="conflict", citation=NEARBY_CITATION)
