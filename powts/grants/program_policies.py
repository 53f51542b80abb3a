"""Who may do what in the program between counties and the department (s. 145.246(7)-(8), (11)-(13)).

A county's staff (or administrator) certify its conditions, submit its application for participation and
disburse the funds it received, for their own county only: the certification names a county official, so a
superuser, who is no county's official, may not certify or submit. DSPS (the department) reviews every
county's application, revises determinations, allocates, pays and runs what-ifs. State auditors read.
"""
from powts.accounts import policies as who
from powts.accounts.choices import Role


def acts_for_county(user, jurisdiction_id) -> bool:
    """County staff of exactly this county (not a superuser: the county's own people sign for it)."""
    return who.is_county_staff(user) and user.jurisdiction_id == jurisdiction_id


def can_certify(user, jurisdiction_id) -> bool:
    return acts_for_county(user, jurisdiction_id)


def can_submit(user, jurisdiction_id) -> bool:
    return acts_for_county(user, jurisdiction_id)


def can_disburse(user, jurisdiction_id) -> bool:
    return acts_for_county(user, jurisdiction_id)


def is_department(user) -> bool:
    """DSPS staff, or a superuser acting for the department."""
    return bool(getattr(user, "is_authenticated", False) and (user.is_superuser or user.role == Role.DSPS))


def can_review(user) -> bool:
    return is_department(user)


def can_allocate(user) -> bool:
    return is_department(user)


def can_pay(user) -> bool:
    return is_department(user)


def can_run_whatif(user) -> bool:
    return is_department(user)


def can_view_state_side(user) -> bool:
    """The review queue, allocation runs and payments of every county: the department and state auditors."""
    return is_department(user) or who.reads_every_county(user)


def can_view_county_side(user) -> bool:
    """A county's certification, submission and disbursement pages: its staff."""
    return who.is_county_staff(user)
