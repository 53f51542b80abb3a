"""Who may open the map: county staff (their county) and the state's readers (auditors, DSPS: every county)."""
from powts.accounts import policies as who


def can_view_map(user) -> bool:
    return bool(getattr(user, "is_authenticated", False)
                and (user.is_superuser or who.is_county_staff(user) or who.reads_every_county(user)))


def jurisdiction_ids(user) -> list[int] | None:
    """The counties whose pre-counted cells the user may read; None for every county."""
    if user.is_superuser or who.reads_every_county(user):
        return None
    return [user.jurisdiction_id]
