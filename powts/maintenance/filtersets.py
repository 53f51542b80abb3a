"""Filters of the filed reports list: the dashboard's chart bars link here by month."""
import datetime as dt
import re

import django_filters
from django import forms
from django.db.models import Q

from powts.maintenance.choices import ReportKind
from powts.maintenance.models import Report


class MonthField(forms.CharField):
    """YYYY-MM, a month from 1900 to 2199."""

    def clean(self, value):
        value = super().clean(value)
        if not value:
            return None
        if not re.fullmatch(r"\d{4}-\d{2}", value) or not 1 <= int(value[5:]) <= 12 or not 1900 <= int(value[:4]) <= 2199:
            raise forms.ValidationError(f"{value!r} is not a month (YYYY-MM, 1900 to 2199)")
        return dt.date(int(value[:4]), int(value[5:]), 1)


class MonthFilter(django_filters.Filter):
    field_class = MonthField


class ReportFilterSet(django_filters.FilterSet):
    q = django_filters.CharFilter(method="filter_q", label="Search", help_text="System id or location")
    kind = django_filters.MultipleChoiceFilter(choices=ReportKind.choices, label="Work")
    month = MonthFilter(method="filter_month", label="Work done in (month)")
    late = django_filters.BooleanFilter(label="Filed late")
    failure = django_filters.BooleanFilter(field_name="failure_flag", label="Failure signs")
    jurisdiction = django_filters.CharFilter(field_name="jurisdiction__slug", label="County (slug)")

    class Meta:
        model = Report
        fields = ["q", "kind", "month", "late", "failure", "jurisdiction"]

    def filter_q(self, queryset, name, value):
        value = value.strip()
        return queryset.filter(Q(system_ref__icontains=value) | Q(location__icontains=value)) if value else queryset

    def filter_month(self, queryset, name, value):
        following = dt.date(value.year + (value.month == 12), value.month % 12 + 1, 1)
        return queryset.filter(work_date__gte=value, work_date__lt=following)
