from django.db.models import Q

from powts.accounts.choices import Role
from powts.core.querysets import RoleScopedQuerySet


class SystemQuerySet(RoleScopedQuerySet):
    def restrict_others(self, user, action: str):
        """Owners see the systems on parcels they own; contractors the systems they were assigned
        or filed reports on. Neither changes a system here."""
        if action != "view":
            return self.none()
        if user.role == Role.OWNER:
            return self.filter(parcel__owner__user=user)
        return self.filter(Q(assignments__user=user) | Q(maintenance_reports__filed_by=user)).distinct()
