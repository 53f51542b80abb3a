"""Who may do what in the maintenance program."""
from powts.accounts.choices import Role
from powts.jurisdictions.models import Jurisdiction


def can_file_reports(user) -> bool:
    return user.is_authenticated and (user.is_superuser or user.role in (Role.COUNTY_STAFF, Role.PLUMBER, Role.PUMPER))


def can_see_dashboard(user) -> bool:
    return user.is_authenticated and (user.is_superuser or user.role in (Role.COUNTY_STAFF, Role.STATE_AUDITOR))


def can_manage(user) -> bool:
    return user.is_authenticated and (user.is_superuser or user.role == Role.COUNTY_STAFF)


def filing_jurisdiction(user, slug: str | None) -> Jurisdiction | None:
    """County staff file in their county; contractors name the county (or there is only one)."""
    if user.is_authenticated and user.role == Role.COUNTY_STAFF and user.jurisdiction_id and not slug:
        return user.jurisdiction
    if slug:
        return Jurisdiction.objects.filter(slug=slug).first()
    units = list(Jurisdiction.objects.all()[:2])
    return units[0] if len(units) == 1 else None


def dashboard_jurisdiction(user, slug: str | None = None) -> Jurisdiction | None:
    if user.role == Role.COUNTY_STAFF and user.jurisdiction_id and not user.is_superuser:
        return user.jurisdiction
    if slug:
        return Jurisdiction.objects.filter(slug=slug).first()
    return user.jurisdiction or Jurisdiction.objects.order_by("name").first()
