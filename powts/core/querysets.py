"""Per-user scoping shared by every county record (NetBox's `.restrict(user, action)`)."""
from django.db import models

from powts.accounts import policies as who
from powts.accounts.choices import COUNTY_ROLES


class RoleScopedQuerySet(models.QuerySet):
    """`restrict(user, action)`: only the rows `user` may see ("view") or change ("change").

    The same for every record with a `jurisdiction`: nobody signed in sees nothing; superusers see
    all; county staff and administrators see their own county's; state auditors and DSPS see every
    county's, read-only; DNR sees every county's where the model says `dnr_reads`, read-only. Each
    model says in `restrict_others` what the rest (owners, contractors) may reach.
    """

    # DNR reads only what septage servicing oversight needs (systems, maintenance reports).
    dnr_reads = False

    def restrict(self, user, action: str = "view"):
        if user is None or not user.is_authenticated:
            return self.none()
        if user.is_superuser:
            return self
        if who.is_county_staff(user):
            return self.filter(jurisdiction_id=user.jurisdiction_id)
        if user.role in COUNTY_ROLES:  # county staff with no county on record
            return self.none()
        if who.reads_every_county(user):
            return self if action == "view" else self.none()
        if who.is_dnr(user):
            return self if action == "view" and self.dnr_reads else self.none()
        return self.restrict_others(user, action)

    def restrict_others(self, user, action: str):
        return self.none()
