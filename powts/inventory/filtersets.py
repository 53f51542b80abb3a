"""One FilterSet serves the web list and the API (NetBox's pattern)."""
import datetime as dt

import django_filters
from django import forms
from django.utils import timezone

from powts.inventory.choices import SystemStatus, SystemType
from powts.inventory.models import System
from powts.inventory.search import search

# The maintenance dashboard's buckets, so each of its cards and chart segments opens this list.
STANDINGS = [("current", "Current"), ("due_soon", "Due soon"), ("overdue", "Overdue"), ("delinquent", "Delinquent"),
             ("failing", "Failing"), ("needs_data", "Needs data")]


class YearFilter(django_filters.NumberFilter):
    """A whole year the database can take: year 0 or 1e20 is a 400 naming the filter, not a 500."""

    field_class = forms.IntegerField


class BoundedDateField(forms.DateField):
    """A date from 1900 to 2199 (what the dashboard's "as of" accepts)."""

    def clean(self, value):
        value = super().clean(value)
        if value is not None and not dt.date(1900, 1, 1) <= value <= dt.date(2199, 12, 31):
            raise forms.ValidationError("Enter a date from 1900-01-01 to 2199-12-31.")
        return value


class BoundedDateFilter(django_filters.DateFilter):
    field_class = BoundedDateField


class SystemFilterSet(django_filters.FilterSet):
    q = django_filters.CharFilter(method="filter_q", label="Search",
                                  help_text="Parcel number, system id, part of the address or the owner's name")
    # Columns of the system itself: no row can come twice, so no DISTINCT (django-filter's default for a
    # multiple choice), which made SQLite sort every matching row once more to drop duplicates there are none of.
    system_type = django_filters.MultipleChoiceFilter(choices=SystemType.choices, label="Type", distinct=False)
    status = django_filters.MultipleChoiceFilter(choices=SystemStatus.choices, label="Status", distinct=False)
    # The parcel's town as copied onto the system (System.municipality, kept by triggers): one index, no join.
    municipality = django_filters.CharFilter(field_name="municipality", lookup_expr="exact", label="Municipality")
    installed_year = YearFilter(field_name="installed_on", lookup_expr="year", label="Installed in (year)",
                                min_value=1800, max_value=2200)
    installed_before = django_filters.DateFilter(field_name="installed_on", lookup_expr="lt", label="Installed before")
    installed_after = django_filters.DateFilter(field_name="installed_on", lookup_expr="gte", label="Installed on or after")
    jurisdiction = django_filters.CharFilter(field_name="jurisdiction__slug", label="Jurisdiction (slug)")
    standing = django_filters.ChoiceFilter(choices=STANDINGS, method="filter_standing", label="Maintenance standing")
    as_of = BoundedDateFilter(method="filter_nothing", label="Standing as of")

    class Meta:
        model = System
        fields = ["q", "system_type", "status", "municipality", "installed_year", "installed_before", "installed_after",
                  "jurisdiction", "standing", "as_of"]

    def filter_q(self, queryset, name, value):
        return search(queryset, value)

    def filter_nothing(self, queryset, name, value):
        return queryset  # read by filter_standing

    def filter_standing(self, queryset, name, value):
        # The maintenance app owns the buckets' definition (its dashboard counts them); imported here,
        # when used, because the maintenance app builds on the inventory and not the other way round.
        from powts.maintenance.selectors import standing_systems

        as_of = self.form.cleaned_data.get("as_of") or timezone.localdate()
        return queryset.filter(pk__in=standing_systems(standing=value, as_of=as_of))
