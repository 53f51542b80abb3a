"""Who may do what in the maintenance program: one place, used by the web views, the API, the CSV
upload and the report service alike.

Contractors file under a license they hold, on a system of a county that accepts that license, and
(where the county's profile says only assigned contractors report) on a system assigned to them.
County staff and administrators file for their own county only, on paper for any contractor.
"""
from django.core.exceptions import PermissionDenied

from powts.accounts.choices import Role
from powts.accounts.policies import (
    is_contractor,
    is_county_staff,
    is_county_staff_of,
    reads_every_county,
    staff_jurisdiction,
)
from powts.core.prepared import Prepared
from powts.jurisdictions.models import Jurisdiction

FILING_ROLES = (Role.PLUMBER, Role.PUMPER)


def can_file_reports(user) -> bool:
    return bool(user.is_authenticated and (user.is_superuser or is_county_staff(user) or user.role in FILING_ROLES))


def can_see_dashboard(user) -> bool:
    return bool(user.is_authenticated and (user.is_superuser or is_county_staff(user) or reads_every_county(user)))


def can_manage(user) -> bool:
    """Review failure signs, match queued reports: county staff (of the report's county, see can_manage_report)."""
    return bool(user.is_authenticated and (user.is_superuser or is_county_staff(user)))


def can_manage_report(user, report) -> bool:
    return is_county_staff_of(user, report.jurisdiction_id)


# The county a report names: read on every report, so compiled once (powts.core.prepared; slugs are unique).
_county_by_slug = Prepared(lambda slug: Jurisdiction.objects.filter(slug=slug).order_by()[:1])


def filing_jurisdiction(user, slug: str | None) -> Jurisdiction | None:
    """The county a report is filed in. County staff file in their county: naming another is refused
    (PermissionDenied) on every channel. Contractors name the county (or there is only one)."""
    own = staff_jurisdiction(user)
    if own is not None:
        if slug and slug != own.slug:
            raise PermissionDenied(f"{own.name} staff file reports in {own.name} only.")
        return own
    if slug:
        return next(iter(_county_by_slug(slug)), None)
    units = list(Jurisdiction.objects.all()[:2])
    return units[0] if len(units) == 1 else None


def dashboard_jurisdiction(user, slug: str | None = None) -> Jurisdiction | None:
    own = staff_jurisdiction(user)
    if own is not None:
        return own
    if slug:
        return next(iter(_county_by_slug(slug)), None)
    return user.jurisdiction or Jurisdiction.objects.order_by("name").first()


def license_refusal(filed_by, lic) -> str | None:
    """Why `filed_by` may not file under `lic`, or None. Contractors file under a license they hold
    (a license no account holds cannot be used by any contractor); staff filing on paper, and the
    command line (no filer), may name any license."""
    if filed_by is None or not getattr(filed_by, "pk", None) or not is_contractor(filed_by):
        return None
    if lic.user_id is None:
        return (f"license {lic.number} is not linked to a sign-in; ask the county to link it to your account, "
                "or file on paper")
    if lic.user_id != filed_by.pk:
        return f"license {lic.number} is not yours; file under your own license"
    return None


def system_refusal(filed_by, profile, system) -> str | None:
    """Why a contractor may not report on `system` (None: the system is not in the inventory) in a
    county whose profile allows only assigned contractors, or None."""
    if filed_by is None or not getattr(filed_by, "pk", None) or not is_contractor(filed_by) or profile.any_contractor_reports:
        return None
    if system is not None and system.assignments.filter(user=filed_by).exists():
        return None
    return (f"this county accepts reports only from contractors it assigned to the system "
            f"({profile.citations['contractors']})")


def can_send_notices(user) -> bool:
    """Preview and send notice batches: county staff and administrators, for their own county."""
    return is_county_staff(user)


def can_read_notice(user, notice) -> bool:
    """A notice's letter: the county's staff (who reprint it), the state's readers, and the owner it was sent to."""
    if not getattr(user, "is_authenticated", False):
        return False
    if is_county_staff_of(user, notice.jurisdiction_id) or reads_every_county(user):
        return True
    return bool(user.role == Role.OWNER and notice.owner_id and notice.owner.user_id == user.pk)


def can_list_reports(user) -> bool:
    """The filed reports list in the menu: staff, the contractors who file, the state's readers and DNR
    (septage servicing); owners read their systems' reports on their property page."""
    from powts.accounts.policies import is_dnr

    return bool(user.is_authenticated and (can_file_reports(user) or reads_every_county(user) or is_dnr(user)))


def is_owner(user) -> bool:
    return bool(user.is_authenticated and user.role == Role.OWNER)
