"""Who may do what in the inventory, beyond which rows they may see (that is SystemQuerySet.restrict).

Used by the web views and the API alike. County staff (and administrators) write in their own
county only; an upload's preview-confirm token belongs to the person and county that uploaded it.
"""
from powts.accounts.policies import is_county_staff, is_county_staff_of


def can_import(user) -> bool:
    return bool(user.is_authenticated and (user.is_superuser or is_county_staff(user)))


def can_edit_systems(user) -> bool:
    return can_import(user)


def can_edit_system(user, system) -> bool:
    return is_county_staff_of(user, system.jurisdiction_id)


def import_jurisdiction(user):
    """The county an upload goes to: staff import into their own county only."""
    return user.jurisdiction


def upload_owner(user) -> dict:
    """What an upload token is tied to: who uploaded and into which county."""
    return {"user_id": user.pk, "jurisdiction_id": user.jurisdiction_id}


def may_use_upload(user, meta: dict) -> bool:
    """Only the uploader, still staff of the county the file was previewed for, confirms it or reads its rejects."""
    return (can_import(user) and meta.get("user_id") == user.pk and meta.get("jurisdiction_id") is not None
            and meta.get("jurisdiction_id") == user.jurisdiction_id)


def can_assign(user, system) -> bool:
    """County staff assign their county's systems to contractors."""
    return is_county_staff_of(user, system.jurisdiction_id)


def can_browse(user) -> bool:
    """The inventory list in the menu: county staff, the state's readers and DNR (owners have their
    property page; contractors reach a system from their own work)."""
    from powts.accounts.policies import is_dnr, reads_every_county

    return bool(user.is_authenticated and (user.is_superuser or is_county_staff(user) or reads_every_county(user)
                                           or is_dnr(user)))
