"""Who sees the list of counties, who adds a county, who changes a county's settings."""
from powts.accounts.choices import Role
from powts.accounts.policies import is_dnr, reads_every_county


def can_list_counties(user) -> bool:
    return bool(user.is_authenticated and (user.is_superuser or reads_every_county(user) or is_dnr(user)))


def can_add_counties(user) -> bool:
    """The department's administrator (DSPS, which oversees every governmental unit's program under
    Wis. Stat. s. 145.20(3)) or the site's superuser sets a county up."""
    return bool(getattr(user, "is_authenticated", False) and (user.is_superuser or user.role == Role.DSPS))


def can_change_settings_of(user, jurisdiction_id) -> bool:
    """A county's administrator changes its own county's settings, no other county's."""
    return bool(getattr(user, "is_authenticated", False) and user.role == Role.COUNTY_ADMIN and user.jurisdiction_id
                and jurisdiction_id is not None and user.jurisdiction_id == jurisdiction_id)


def can_change_own_settings(user) -> bool:
    return can_change_settings_of(user, getattr(user, "jurisdiction_id", None))
