"""The applications list's filters (the web list and the API read the same query words)."""
import django_filters
from django.db.models import Q

from powts.grants import choices as c
from powts.grants.models import GrantApplication


class GrantApplicationFilterSet(django_filters.FilterSet):
    q = django_filters.CharFilter(method="filter_q", label="Search",
                                  help_text="Owner, system id, parcel number, address or the import file's id")
    status = django_filters.MultipleChoiceFilter(choices=c.ApplicationStatus.choices, label="Status")
    source = django_filters.MultipleChoiceFilter(choices=c.ApplicationSource.choices, label="Received")
    applicant_type = django_filters.ChoiceFilter(choices=c.ApplicantType.choices, label="Applicant")
    fiscal_year = django_filters.CharFilter(label="Fiscal year")
    applied_after = django_filters.DateFilter(field_name="applied_on", lookup_expr="gte", label="Received on or after")
    applied_before = django_filters.DateFilter(field_name="applied_on", lookup_expr="lte", label="Received on or before")
    jurisdiction = django_filters.CharFilter(field_name="jurisdiction__slug", label="County (slug)")

    class Meta:
        model = GrantApplication
        fields = ["q", "status", "source", "applicant_type", "fiscal_year", "applied_after", "applied_before",
                  "jurisdiction"]

    def filter_q(self, queryset, name, value):
        value = value.strip()
        if not value:
            return queryset
        return queryset.filter(Q(owner__name__icontains=value) | Q(owner_name__icontains=value)
                               | Q(system__system_id__icontains=value) | Q(parcel__parcel_number__icontains=value)
                               | Q(parcel__site_address__icontains=value) | Q(external_id=value))
