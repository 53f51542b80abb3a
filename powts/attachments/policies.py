"""Who may see, add and remove a record's files: exactly who may see the record (its own row scoping),
and who acts on it. One place for the web views and the API."""
from __future__ import annotations

from powts.accounts.policies import is_county_staff_of, reads_every_county


def record_type(record) -> str:
    return {"Permit": "permit", "Report": "report", "Complaint": "complaint",
            "GrantApplication": "grant_application", "WellClaim": "well_claim"}[type(record).__name__]


def may_view_record(user, record) -> bool:
    if user is None or not user.is_authenticated:
        return False
    kind = record_type(record)
    if kind == "well_claim":  # DNR's claims hold tax returns: DNR only
        from powts.wells.policies import can_read_claims

        return can_read_claims(user)
    if kind == "complaint":  # the public's reports name people: the county's staff and the state's readers
        return bool(user.is_superuser or is_county_staff_of(user, record.jurisdiction_id) or reads_every_county(user))
    return type(record).objects.restrict(user, "view").filter(pk=record.pk).exists()


def may_attach(user, record) -> bool:
    """Signed-in additions: the permit's plumber or county staff; a report's filer or county staff;
    county staff on a complaint (the public adds photos with the complaint itself)."""
    if user is None or not user.is_authenticated:
        return False
    kind = record_type(record)
    if kind == "permit":
        from powts.permits.policies import acts_for_permit

        return acts_for_permit(user, record)
    if kind == "well_claim":
        from powts.wells.policies import can_act_on_claims

        return can_act_on_claims(user)
    if kind == "report":
        return bool(is_county_staff_of(user, record.jurisdiction_id) or (record.filed_by_id and record.filed_by_id == user.pk))
    if kind == "grant_application":
        from powts.grants.policies import can_add_evidence

        return can_add_evidence(user, record)
    return is_county_staff_of(user, record.jurisdiction_id)


def may_delete(user, attachment) -> bool:
    """The county's staff, or the person who uploaded it."""
    if user is None or not user.is_authenticated:
        return False
    return bool(is_county_staff_of(user, attachment.jurisdiction_id)
                or (attachment.uploaded_by_id and attachment.uploaded_by_id == user.pk))
