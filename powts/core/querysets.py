"""Per-user scoping shared by every county record (NetBox's `.restrict(user, action)`)."""
from django.db import models

from powts.accounts.choices import Role


class RoleScopedQuerySet(models.QuerySet):
    """`restrict(user, action)`: only the rows `user` may see ("view") or change ("change").

    The same for every record with a `jurisdiction`: nobody signed in sees nothing; superusers see
    all; county staff see their own county's; state auditors see every county's, read-only. Each
    model says in `restrict_others` what the rest (owners, contractors) may reach.
    """

    def restrict(self, user, action: str = "view"):
        if user is None or not user.is_authenticated:
            return self.none()
        if user.is_superuser:
            return self
        if user.role == Role.COUNTY_STAFF:
            return self.filter(jurisdiction_id=user.jurisdiction_id) if user.jurisdiction_id else self.none()
        if user.role == Role.STATE_AUDITOR:
            return self if action == "view" else self.none()
        return self.restrict_others(user, action)

    def restrict_others(self, user, action: str):
        return self.none()
