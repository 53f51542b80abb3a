"""Who may do what in oversight. The department (DSPS) audits county programs, holds and exempts; state
auditors read; a county's staff answer its audits, flag reports, refer licence holders and record special
charges; its administrator reassigns work an employee steps aside from (the county's recusal policy)."""
from powts.accounts.choices import Role
from powts.accounts.policies import is_county_staff, is_county_staff_of, reads_every_county


def is_department(user) -> bool:
    return bool(getattr(user, "is_authenticated", False) and (user.is_superuser or user.role == Role.DSPS))


def reads_state_view(user) -> bool:
    return is_department(user) or reads_every_county(user)


def reads_county(user, jurisdiction_id) -> bool:
    return reads_state_view(user) or is_county_staff_of(user, jurisdiction_id)


def answers_for(user, jurisdiction_id) -> bool:
    """The county's staff answer the department's audit of their program."""
    return is_county_staff_of(user, jurisdiction_id)


def can_flag(user, jurisdiction_id) -> bool:
    return is_county_staff_of(user, jurisdiction_id)


def can_reassign(user, jurisdiction_id) -> bool:
    """A supervisor: the county's administrator."""
    return bool(getattr(user, "is_authenticated", False) and (user.is_superuser or (
        user.role == Role.COUNTY_ADMIN and user.jurisdiction_id == jurisdiction_id)))


def opens_flags(user) -> bool:
    return is_county_staff(user) or getattr(user, "is_superuser", False)


def opens_county_pages(user) -> bool:
    """The county's own oversight pages (its audits, flagged reports, special charges): its staff."""
    return is_county_staff(user)


def reads_categories(user) -> bool:
    """The categories needing the department's approval and its approvals: the department, state auditors, and
    county staff (whose issuance waits for them)."""
    return reads_state_view(user) or is_county_staff(user)
