"""Reads for grant applications, scoped to the person (GrantApplication.objects.restrict)."""
from __future__ import annotations

from django.http import Http404

from powts.accounts.policies import is_county_staff_of
from powts.grants.models import GrantApplication, GrantDecision


def application_list(*, user):
    return (GrantApplication.objects.restrict(user, "view")
            .select_related("jurisdiction", "system", "parcel", "owner").order_by("-applied_on", "-id"))


def application_get(*, user, pk: int) -> GrantApplication:
    """One application for someone who may see it; anyone else gets a 404 (its existence is not told)."""
    app = (GrantApplication.objects.restrict(user, "view")
           .select_related("jurisdiction", "system", "parcel", "owner", "failure_determination", "created_by")
           .filter(pk=pk).first())
    if app is None:
        raise Http404("No such grant application.")
    return app


def current_decision(application) -> GrantDecision | None:
    return application.decisions.select_related("decided_by").order_by("-decided_at", "-id").first()


def determinations_for(user):
    """The determinations of failure a person may apply on: county staff, their county's; an owner,
    those on systems of parcels they own."""
    from powts.accounts.choices import Role
    from powts.permits.models import FailureDetermination

    qs = FailureDetermination.objects.select_related("system__parcel", "jurisdiction").order_by("-determined_on", "-id")
    if user.is_superuser:
        return qs
    if is_county_staff_of(user, getattr(user, "jurisdiction_id", None)):
        return qs.filter(jurisdiction_id=user.jurisdiction_id)
    if user.is_authenticated and user.role == Role.OWNER:
        return qs.filter(system__parcel__owner__user=user)
    return qs.none()


def owner_disbursements(*, user):
    """The county's payments to this owner of the grant funds it received (s. 145.246(8)(g)): those on
    the owner's own applications only (GrantApplication.objects.restrict)."""
    from powts.grants.models import Disbursement

    mine = GrantApplication.objects.restrict(user, "view").values("pk")
    return (Disbursement.objects.filter(application__in=mine)
            .select_related("application", "jurisdiction").order_by("-paid_on", "-id"))
