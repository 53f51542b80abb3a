"""The inventory list as a table: labels (never stored codes), sortable only on indexed columns."""
import django_tables2 as tables

from powts.core.lists import DateColumn
from django.utils.html import format_html

from powts.inventory.models import System


class SystemTable(tables.Table):
    # Each sort ends on the id, so a page is stable and served from the index at any depth.
    system_id = tables.Column(verbose_name="System id", linkify=True, order_by=("system_id", "id"))
    parcel = tables.Column(accessor="parcel__parcel_number", verbose_name="Parcel", orderable=False)
    site_address = tables.Column(accessor="parcel__site_address", verbose_name="Site address", orderable=False)
    site_zip = tables.Column(accessor="parcel__site_zip", verbose_name="ZIP", orderable=False)
    municipality = tables.Column(accessor="parcel__municipality", verbose_name="Municipality", orderable=False)
    owner = tables.Column(accessor="parcel__owner__name", verbose_name="Owner", orderable=False)
    system_type = tables.Column(verbose_name="Type", orderable=False)
    status = tables.Column(verbose_name="Status", orderable=False)
    # Ties (the same date, or no date: about 5% of a county) in the county's system id order, which the
    # installation-date index holds: ordered by the row id, PostgreSQL sorted every system of the first date
    # (220 ms for the ~50,000 with no date at 1,000,000 systems); SQLite sorts only each date's few.
    installed_on = DateColumn(verbose_name="Installed", order_by=("installed_on", "system_id", "id"))

    noun = "systems"
    caption = "Systems matching the search and filters"

    class Meta:
        model = System
        fields = ()
        order_by = ("system_id",)
        order_by_field = "sort"
        empty_text = "No systems match."

    def render_status(self, record, value):
        if record.status == "failing":
            return format_html('<span class="usa-tag bg-secondary-dark">{}</span>', value)
        return value
