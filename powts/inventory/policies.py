"""Who may do what, beyond which rows they may see (that is SystemQuerySet.restrict)."""
from powts.accounts.choices import Role


def can_import(user) -> bool:
    return user.is_authenticated and (user.is_superuser or (user.role == Role.COUNTY_STAFF and user.jurisdiction_id))


def can_edit_systems(user) -> bool:
    return can_import(user)


def import_jurisdiction(user):
    """The county an upload goes to: staff import into their own county only."""
    return user.jurisdiction
