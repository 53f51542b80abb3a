"""Who may do what with permits, beyond which rows they may see (Permit.objects.restrict).

One place for the web views and the API: county staff (and administrators) act for their own county
only; plumbers for the permits they filed or hold; state auditors and DSPS read.
"""
from powts.accounts.policies import is_county_staff, is_county_staff_of, reads_every_county

APPLICANT_KINDS = ("master_plumber", "master_plumber_restricted")


def is_county_staff_for(user, jurisdiction_id) -> bool:
    return is_county_staff_of(user, jurisdiction_id)


def can_decide(user, permit) -> bool:
    """Approve, deny, issue, inspect, take payments, suspend, revoke: the permit's county staff."""
    return is_county_staff_for(user, permit.jurisdiction_id)


def plumber_license(user):
    """The master plumber license a signed-in plumber files under (the first one on record)."""
    if not user.is_authenticated:
        return None
    return user.licenses.filter(kind__in=APPLICANT_KINDS).order_by("id").first()


def can_file(user) -> bool:
    return bool(user.is_authenticated and (user.is_superuser or is_county_staff(user) or plumber_license(user) is not None))


def acts_for_permit(user, permit) -> bool:
    """The permit's plumber (request inspections, changes, add documents) or its county staff."""
    return can_decide(user, permit) or (permit.plumber.user_id is not None and permit.plumber.user_id == user.pk) \
        or permit.filed_by_id == user.pk


def may_apply_for_change(user, permit) -> bool:
    """A renewal, transfer or change of plumber: the permit's plumber, its county staff, or its owner."""
    return acts_for_permit(user, permit) or (permit.owner.user_id is not None and permit.owner.user_id == user.pk)


def can_read_gate(user, jurisdiction_id) -> bool:
    """The building-permit gate (the profile's clearance.new_structure_needs_issued_permit) tells the county's own
    staff whether a building permit may issue; state auditors and DSPS may read it too."""
    return is_county_staff_of(user, jurisdiction_id) or reads_every_county(user)


def can_browse(user) -> bool:
    """The permits list in the menu: staff, the state's readers, plumbers (their own), owners (their parcels')."""
    from powts.accounts.choices import Role

    return bool(user.is_authenticated and (user.is_superuser or is_county_staff(user) or reads_every_county(user)
                                           or user.role in (Role.PLUMBER, Role.OWNER)))


def can_open_site_work(user) -> bool:
    """Soil evaluations, failing systems and orders in the menu: staff (their county's) and soil testers (their own)."""
    from powts.accounts.choices import Role

    return bool(user.is_authenticated and (user.is_superuser or is_county_staff(user) or user.role == Role.SOIL_TESTER))


# -- variances (Wis. Stat. s. 145.24): the owner petitions the department (the county may record it for the
# owner); the department (DSPS) decides and rescinds.

def can_decide_variances(user) -> bool:
    from powts.accounts.choices import Role

    return bool(user.is_authenticated and (user.is_superuser or user.role == Role.DSPS))


def can_petition_variance(user, system) -> bool:
    """The system's owner (signed in) or its county's staff."""
    if not user.is_authenticated:
        return False
    owner = system.parcel.owner if system.parcel_id else None
    return is_county_staff_for(user, system.jurisdiction_id) or bool(owner and owner.user_id and owner.user_id == user.pk)


def can_see_variances(user) -> bool:
    """The variances page: DSPS (every county), county staff (their county's), owners (their systems')."""
    from powts.accounts.choices import Role

    return bool(user.is_authenticated and (can_decide_variances(user) or is_county_staff(user) or user.role == Role.OWNER))
