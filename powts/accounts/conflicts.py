"""Conflicts of interest of county reviewers and inspectors (Wis. Stat. s. 145.20(6)), checked in one place.

A county employee who reviews, inspects or approves may not act on a permit, soil evaluation or report
where they, their firm or a relative named on their record is the owner, plumber, soil tester or pumper.
Every service that reviews, inspects, approves, verifies or accepts calls `refuse_if_conflicted`; a county
administrator then gives the work to someone else (powts.oversight.services.conflict_reassign).
"""
from __future__ import annotations

from powts.kernel.refusals import Refused

CITATION = "Wis. Stat. s. 145.20(6)"


class ConflictRefused(Refused):
    """The acting county employee has a conflict of interest in the record."""


def _norm(text: str) -> str:
    return " ".join(str(text or "").casefold().replace(",", " ").replace(".", " ").split())


def _names_of(party) -> list[str]:
    """The names a party goes by: an owner's name; a license's holder and business."""
    names = [getattr(party, "name", ""), getattr(party, "holder_name", ""), getattr(party, "business_name", "")]
    return [n for n in (_norm(x) for x in names) if n]


def conflict(user, parties: list[tuple[str, object]]) -> str | None:
    """Why `user` may not act, in plain words, or None. `parties`: (role in the record, Owner or License)."""
    from powts.accounts.choices import COUNTY_ROLES

    if not getattr(user, "pk", None) or getattr(user, "role", None) not in COUNTY_ROLES:
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
    given) has a conflict of interest in it."""
    if user is None:
        from powts.audit.context import current

        user = current().resolved_actor()
    reason = conflict(user, parties)
    if reason:
        raise ConflictRefused(f"you may not {what}: {reason}; a county administrator can reassign it to a colleague",
                              field="conflict", citation=CITATION)


def permit_parties(permit) -> list[tuple[str, object]]:
    parties = [("owner", permit.owner), ("plumber", permit.plumber)]
    if permit.soil_evaluation_id:
        parties.append(("soil tester", permit.soil_evaluation.soil_tester))
    return parties


def soil_parties(evaluation) -> list[tuple[str, object]]:
    owner = evaluation.parcel.owner if evaluation.parcel.owner_id else None
    return [("soil tester", evaluation.soil_tester), ("owner", owner)]

