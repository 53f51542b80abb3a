"""The permits list's filters (the web list; the API reads the same query words)."""
import django_filters
from django.db.models import Q
from django.db.models.functions import Lower, Replace
from django.db.models import Value

from powts.inventory.search import compact
from powts.permits import choices as c
from powts.permits.models import Permit


def _bare_parcel_number():
    """The parcel number lower-cased without dashes, spaces, dots or slashes, as search.compact makes it."""
    expr = Lower("parcel__parcel_number")
    for sep in ("-", " ", ".", "/"):
        expr = Replace(expr, Value(sep), Value(""))
    return expr


class PermitFilterSet(django_filters.FilterSet):
    q = django_filters.CharFilter(method="filter_q", label="Search",
                                  help_text="Permit number, parcel number (with or without dashes), owner or address")
    status = django_filters.MultipleChoiceFilter(choices=c.PermitStatus.choices, label="Status")
    kind = django_filters.MultipleChoiceFilter(choices=c.PermitKind.choices, label="Kind")
    filed_after = django_filters.DateFilter(field_name="filed_on", lookup_expr="gte", label="Filed on or after")
    filed_before = django_filters.DateFilter(field_name="filed_on", lookup_expr="lte", label="Filed on or before")
    jurisdiction = django_filters.CharFilter(field_name="jurisdiction__slug", label="County (slug)")
    parcel_pending = django_filters.BooleanFilter(field_name="parcel__pending", label="New parcel to confirm")

    class Meta:
        model = Permit
        fields = ["q", "status", "kind", "filed_after", "filed_before", "jurisdiction", "parcel_pending"]

    def filter_q(self, queryset, name, value):
        value = value.strip()
        if not value:
            return queryset
        match = (Q(number__icontains=value) | Q(parcel__parcel_number__icontains=value) | Q(owner__name__icontains=value)
                 | Q(parcel__site_address__icontains=value))
        bare = compact(value)
        if len(bare) >= 3 and bare != value.lower():
            queryset = queryset.alias(bare_parcel=_bare_parcel_number())
            match |= Q(bare_parcel__contains=bare)
        return queryset.filter(match)
