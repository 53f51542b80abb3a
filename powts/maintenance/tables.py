"""Filed maintenance reports as a table: labels (kind, review), never stored codes."""
import django_tables2 as tables

from powts.core.lists import DateColumn

from powts.maintenance.models import Report


class ReportTable(tables.Table):
    system_ref = tables.Column(verbose_name="System", orderable=False)
    location = tables.Column(verbose_name="Location", orderable=False)
    kind = tables.Column(verbose_name="Work", orderable=False)
    work_date = DateColumn(verbose_name="Work date", order_by=("work_date", "id"))
    filed_at = DateColumn(verbose_name="Filed", order_by=("filed_at", "id"))
    licensee = tables.Column(accessor="license__holder_name", verbose_name="Licensee", orderable=False)
    license = tables.Column(accessor="license__number", verbose_name="License", orderable=False)
    gallons_pumped = tables.Column(verbose_name="Gallons pumped", orderable=False)
    late = tables.BooleanColumn(verbose_name="Filed late", yesno="Yes,No", orderable=False)
    review_status = tables.Column(verbose_name="Inventory", orderable=False)

    noun = "reports"
    caption = "Maintenance reports filed"

    class Meta:
        model = Report
        fields = ()
        order_by = ("-filed_at",)
        order_by_field = "sort"
        empty_text = "No reports match."

    def render_late(self, value):
        return "Yes (SPS 383.55)" if value else "No"

    def value_late(self, value):
        return "Yes" if value else "No"
