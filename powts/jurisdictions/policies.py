"""Who sees the list of counties: the state's roles, which read every county (auditors, DSPS, DNR)."""
from powts.accounts.policies import is_dnr, reads_every_county


def can_list_counties(user) -> bool:
    return bool(user.is_authenticated and (user.is_superuser or reads_every_county(user) or is_dnr(user)))
