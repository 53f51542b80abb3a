from django.db import models
from django.db.models import Q

from powts.accounts.choices import Role


class SystemQuerySet(models.QuerySet):
    def restrict(self, user, action: str = "view"):
        """Only the systems `user` may see (action "view") or change ("change").

        County staff: their county's systems. State auditors: every county's, read-only.
        Owners: the systems on parcels they own. Contractors: the systems they were assigned
        (and, once reports exist, those they filed on). Anyone else: none.
        """
        if user is None or not user.is_authenticated:
            return self.none()
        if user.is_superuser:
            return self
        if user.role == Role.COUNTY_STAFF:
            return self.filter(jurisdiction_id=user.jurisdiction_id) if user.jurisdiction_id else self.none()
        if action != "view":
            return self.none()
        if user.role == Role.STATE_AUDITOR:
            return self
        if user.role == Role.OWNER:
            return self.filter(parcel__owner__user=user)
        return self.filter(Q(assignments__user=user) | Q(maintenance_reports__filed_by=user)).distinct()
