from django.db.models import Q

from powts.accounts.choices import CONTRACTOR_ROLES, Role
from powts.core.querysets import RoleScopedQuerySet


def counties_where_filers_read() -> list[int]:
    """Counties whose profile lets a report's filer read the system (reports.contractors.filer_reads_system)."""
    from powts.jurisdictions.models import Jurisdiction
    from powts.maintenance.profile import maintenance_profile

    return [pk for pk, slug in Jurisdiction.objects.values_list("pk", "profile_slug") if maintenance_profile(slug).filer_reads_system]


class SystemQuerySet(RoleScopedQuerySet):
    dnr_reads = True

    def restrict_others(self, user, action: str):
        """Owners see the systems on parcels they own; contractors the systems the county assigned
        them (and, where the county's profile says so, the systems they filed reports on). Filing a
        report alone gives no read access to the system, its owner or its history. Neither changes a
        system here."""
        if action != "view":
            return self.none()
        if user.role == Role.OWNER:
            return self.filter(parcel__owner__user=user)
        if user.role not in CONTRACTOR_ROLES:
            return self.none()
        reach = Q(assignments__user=user)
        counties = counties_where_filers_read()
        if counties:
            reach |= Q(maintenance_reports__filed_by=user, jurisdiction_id__in=counties)
        return self.filter(reach).distinct()
