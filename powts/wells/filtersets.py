import django_filters
from django.db.models import Q

from powts.wells.choices import ClaimStatus
from powts.wells.models import WellClaim


class ClaimFilterSet(django_filters.FilterSet):
    q = django_filters.CharFilter(method="filter_q", label="Search", help_text="Claim, supply or claimant")
    status = django_filters.MultipleChoiceFilter(choices=ClaimStatus.choices, label="Status")
    received_after = django_filters.DateFilter(field_name="received_on", lookup_expr="gte", label="Received on or after")
    received_before = django_filters.DateFilter(field_name="received_on", lookup_expr="lte", label="Received on or before")

    class Meta:
        model = WellClaim
        fields = ["q", "status", "received_after", "received_before"]

    def filter_q(self, queryset, name, value):
        value = value.strip()
        if not value:
            return queryset
        return queryset.filter(Q(claim_id__icontains=value) | Q(supply__supply_id__icontains=value)
                               | Q(claimant_name__icontains=value))
