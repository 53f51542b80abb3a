"""Who someone is to a county, decided once; every app's policies.py builds on these.

County staff and county administrators act for their own county only (a county administrator is
county staff everywhere staff is checked, and later also manages that county's users). State
auditors and DSPS read every county and change nothing; DNR reads the systems and maintenance
reports of every county (septage servicing and disposal, NR 113) and changes nothing.
"""
from powts.accounts.choices import CONTRACTOR_ROLES, COUNTY_ROLES, STATE_READ_ROLES, Role


def is_county_staff(user) -> bool:
    """Staff (or administrator) of some county, with the county on record; superusers are not this."""
    return bool(getattr(user, "is_authenticated", False) and user.role in COUNTY_ROLES and user.jurisdiction_id)


def is_county_staff_of(user, jurisdiction_id) -> bool:
    """Acts for county `jurisdiction_id`: its staff or administrator, or a superuser."""
    if not getattr(user, "is_authenticated", False):
        return False
    return user.is_superuser or (is_county_staff(user) and jurisdiction_id is not None and user.jurisdiction_id == jurisdiction_id)


def staff_jurisdiction(user):
    """The county a staff member acts for, or None for anyone else (superusers name one)."""
    return user.jurisdiction if is_county_staff(user) and not user.is_superuser else None


def reads_every_county(user) -> bool:
    """State auditors and DSPS: every county's records, read-only."""
    return bool(getattr(user, "is_authenticated", False) and user.role in STATE_READ_ROLES)


def is_dnr(user) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.role == Role.DNR)


def is_contractor(user) -> bool:
    return bool(getattr(user, "is_authenticated", False) and user.role in CONTRACTOR_ROLES)


def can_manage_users_of(user, jurisdiction_id) -> bool:
    """A county administrator manages its own county's people (staff, administrators, owners' sign-ins)."""
    return bool(getattr(user, "is_authenticated", False) and user.role == Role.COUNTY_ADMIN and user.jurisdiction_id
                and jurisdiction_id is not None and user.jurisdiction_id == jurisdiction_id)


def can_manage_users(user) -> bool:
    return can_manage_users_of(user, getattr(user, "jurisdiction_id", None))


def can_edit_licenses(user) -> bool:
    """County staff keep the licenses of the people who file with them up to date (licenses are the
    state's, held by people who work in every county, so no county owns one)."""
    return is_county_staff(user)
