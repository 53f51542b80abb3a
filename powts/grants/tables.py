"""The applications list as a table: labels, never stored codes."""
import django_tables2 as tables
from django.utils.html import format_html

from powts.core.lists import DateColumn
from powts.grants.models import GrantApplication


class GrantApplicationTable(tables.Table):
    id = tables.Column(verbose_name="Application", linkify=True, order_by=("id",))
    status = tables.Column(verbose_name="Status", orderable=False)
    fiscal_year = tables.Column(verbose_name="Fiscal year", orderable=False)
    owner = tables.Column(accessor="owner_name", verbose_name="Owner", orderable=False)
    system = tables.Column(accessor="system__system_id", verbose_name="System", orderable=False, default="")
    site = tables.Column(accessor="parcel__site_address", verbose_name="Site", orderable=False, default="")
    source = tables.Column(verbose_name="Received", orderable=False)
    county = tables.Column(accessor="jurisdiction__name", verbose_name="County", orderable=False)
    applied_on = DateColumn(verbose_name="Received on", order_by=("applied_on", "id"))

    noun = "grant applications"
    caption = "Wisconsin Fund grant applications matching the search"

    class Meta:
        model = GrantApplication
        fields = ()
        order_by = ("-applied_on",)
        order_by_field = "sort"
        empty_text = "No grant applications match."

    def render_id(self, value):
        return f"Application {value}"

    def value_id(self, value):
        return value

    def render_status(self, value):
        return format_html('<span class="usa-tag">{}</span>', value)
