"""One FilterSet serves the web list and the API (NetBox's pattern)."""
import django_filters
from django import forms

from powts.inventory.choices import SystemStatus, SystemType
from powts.inventory.models import System
from powts.inventory.search import search


class YearFilter(django_filters.NumberFilter):
    """A whole year the database can take: year 0 or 1e20 is a 400 naming the filter, not a 500."""

    field_class = forms.IntegerField


class SystemFilterSet(django_filters.FilterSet):
    q = django_filters.CharFilter(method="filter_q", label="Search",
                                  help_text="Parcel number, system id, part of the address or the owner's name")
    system_type = django_filters.MultipleChoiceFilter(choices=SystemType.choices, label="Type")
    status = django_filters.MultipleChoiceFilter(choices=SystemStatus.choices, label="Status")
    municipality = django_filters.CharFilter(field_name="parcel__municipality", lookup_expr="exact", label="Municipality")
    installed_year = YearFilter(field_name="installed_on", lookup_expr="year", label="Installed in (year)",
                                min_value=1800, max_value=2200)
    installed_before = django_filters.DateFilter(field_name="installed_on", lookup_expr="lt", label="Installed before")
    installed_after = django_filters.DateFilter(field_name="installed_on", lookup_expr="gte", label="Installed on or after")
    jurisdiction = django_filters.CharFilter(field_name="jurisdiction__slug", label="Jurisdiction (slug)")

    class Meta:
        model = System
        fields = ["q", "system_type", "status", "municipality", "installed_year", "installed_before", "installed_after", "jurisdiction"]

    def filter_q(self, queryset, name, value):
        return search(queryset, value)
