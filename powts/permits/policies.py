"""Who may do what with permits, beyond which rows they may see (Permit.objects.restrict)."""
from powts.accounts.choices import Role

APPLICANT_KINDS = ("master_plumber", "master_plumber_restricted")


def is_county_staff_for(user, jurisdiction_id) -> bool:
    return user.is_authenticated and (user.is_superuser or (user.role == Role.COUNTY_STAFF and user.jurisdiction_id == jurisdiction_id))


def can_decide(user, permit) -> bool:
    """Approve, deny, issue, inspect, take payments, suspend, revoke: the permit's county staff."""
    return is_county_staff_for(user, permit.jurisdiction_id)


def plumber_license(user):
    """The master plumber license a signed-in plumber files under (the first one on record)."""
    if not user.is_authenticated:
        return None
    return user.licenses.filter(kind__in=APPLICANT_KINDS).order_by("id").first()


def can_file(user) -> bool:
    return user.is_authenticated and (user.is_superuser or user.role == Role.COUNTY_STAFF or plumber_license(user) is not None)


def acts_for_permit(user, permit) -> bool:
    """The permit's plumber (request inspections, changes, add documents) or its county staff."""
    return can_decide(user, permit) or (permit.plumber.user_id is not None and permit.plumber.user_id == user.pk) \
        or permit.filed_by_id == user.pk
