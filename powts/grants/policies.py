"""Who may do what with grant applications, beyond which rows they may see
(GrantApplication.objects.restrict). One place for the web views, the API and the command.

County staff act for their own county's applications (intake, paper forms, decisions); an owner
applies for a system on a parcel they own and follows their own applications; DSPS and state
auditors read every county's.
"""
from powts.accounts.choices import Role
from powts.accounts.policies import is_county_staff, is_county_staff_of, reads_every_county


def owns_system(user, system) -> bool:
    owner = system.parcel.owner if system.parcel_id else None
    return bool(user.is_authenticated and owner is not None and owner.user_id == user.pk)


def can_apply(user, system) -> bool:
    """Online (the owner) or a paper form entered by the county's staff."""
    return is_county_staff_of(user, system.jurisdiction_id) or (user.is_authenticated and user.role == Role.OWNER
                                                               and owns_system(user, system))


def can_decide(user, application) -> bool:
    """The county decides eligibility with the failure determination it made (s. 145.246(7)-(8))."""
    return is_county_staff_of(user, application.jurisdiction_id)


def can_withdraw(user, application) -> bool:
    return can_decide(user, application) or (user.is_authenticated and user.role == Role.OWNER and (
        application.created_by_id == user.pk or (application.owner_id and application.owner.user_id == user.pk)))


def can_add_evidence(user, application) -> bool:
    return can_withdraw(user, application)


def can_view(user, application) -> bool:
    from powts.grants.models import GrantApplication

    return GrantApplication.objects.restrict(user, "view").filter(pk=application.pk).exists()


def can_browse(user) -> bool:
    """The applications list: staff (their county's), the state's readers, owners (their own)."""
    return bool(user.is_authenticated and (user.is_superuser or is_county_staff(user) or reads_every_county(user)
                                           or user.role == Role.OWNER))


def can_import(user, jurisdiction) -> bool:
    return is_county_staff_of(user, jurisdiction.pk)


def can_see_own_payments(user) -> bool:
    """The owner's page of grant disbursements and well claim payments: owners only (staff and the state
    see payments on the county's and the department's pages)."""
    return bool(user.is_authenticated and user.role == Role.OWNER)
