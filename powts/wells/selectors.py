"""Reads for well claims."""
from django.db.models import Count, Sum

from powts.wells.models import WellClaim, WellPaymentRun


def claims():
    return WellClaim.objects.select_related("supply", "consolidated_into", "owner")


def claim_counts() -> dict:
    return dict(WellClaim.objects.values_list("status").annotate(n=Count("id")).order_by())


def runs():
    return WellPaymentRun.objects.annotate(n=Count("lines"))


def run_lines(run):
    return sorted(run.lines.select_related("claim__supply"),
                  key=lambda x: (x.position is None, x.position or 0, x.claim.received_on, x.claim.pk))


def conditional_total() -> int:
    return WellClaim.objects.filter(status="conditional").aggregate(s=Sum("award"))["s"] or 0


def claimant_payments(*, user):
    """The payment runs' lines on the well claims this person made as claimant (s. 281.75(5)(f)): paid or
    approved conditionally until funds come; the claims of others never."""
    from powts.wells.models import WellPaymentLine

    if not (user.is_authenticated and user.role == "owner"):
        return WellPaymentLine.objects.none()
    return (WellPaymentLine.objects.filter(claim__owner__user=user, status__in=("paid", "conditional"))
            .select_related("run", "claim__supply").order_by("-run__on", "-run_id", "id"))
