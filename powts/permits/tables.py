"""The permits list as a table: the status's label, never its stored code."""
import django_tables2 as tables

from powts.core.lists import DateColumn
from django.utils.html import format_html

from powts.permits.models import Permit


class PermitTable(tables.Table):
    number = tables.Column(verbose_name="Permit", linkify=True, order_by=("number", "id"))
    status = tables.Column(verbose_name="Status", orderable=False)
    kind = tables.Column(verbose_name="Kind", orderable=False)
    site = tables.Column(accessor="parcel__site_address", verbose_name="Site", orderable=False)
    parcel = tables.Column(accessor="parcel__parcel_number", verbose_name="Parcel", orderable=False)
    owner = tables.Column(accessor="owner__name", verbose_name="Owner", orderable=False)
    plumber = tables.Column(accessor="plumber__holder_name", verbose_name="Plumber", orderable=False)
    filed_on = DateColumn(verbose_name="Filed", order_by=("filed_on", "id"))
    expires_on = DateColumn(verbose_name="Expires", order_by=("expires_on", "id"))

    noun = "permits and applications"
    caption = "Sanitary permits and applications matching the search"

    class Meta:
        model = Permit
        fields = ()
        order_by = ("-filed_on",)
        order_by_field = "sort"
        empty_text = "No permits match."

    def render_status(self, value):
        return format_html('<span class="usa-tag">{}</span>', value)
