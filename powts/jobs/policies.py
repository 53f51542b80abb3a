"""Who sees a job and may retry it: the person who started it, or staff of its county (the department's
jobs, with no county, are the starter's and the administrators')."""
from powts.accounts.policies import is_county_staff_of


def can_view(user, job) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if job.started_by_id and job.started_by_id == user.pk:
        return True
    if job.kind == "export":
        return bool(user.is_superuser)  # the file holds what its asker may read: theirs only
    if job.jurisdiction_id is not None:
        return is_county_staff_of(user, job.jurisdiction_id)
    return bool(user.is_superuser)


def can_retry(user, job) -> bool:
    return job.state == "failed" and can_view(user, job)
