"""The allocation run's lines as a list with CSV and XLSX export (powts.core.lists)."""
import django_tables2 as tables

from powts.grants.models import AllocationLine


def _money(c) -> str:
    return f"{c / 100:,.2f}" if c is not None else ""


class MoneyColumn(tables.Column):
    def render(self, value):
        return _money(value)

    def value(self, value):
        return f"{value // 100}.{value % 100:02d}" if value is not None else ""


class AllocationLineTable(tables.Table):
    application = tables.Column(verbose_name="Application", accessor="application_id", order_by=("application_id",))
    county = tables.Column(verbose_name="County", accessor="jurisdiction__name", order_by=("jurisdiction__name", "id"))
    category = tables.Column(verbose_name="Category")
    state_share = MoneyColumn(verbose_name="State share ($)")
    award = MoneyColumn(verbose_name="Allocated ($)")
    status = tables.Column(verbose_name="Status")
    note = tables.Column(verbose_name="Why", orderable=False)

    noun = "applications"
    caption = "Each application's state share and allocation"

    class Meta:
        model = AllocationLine
        fields = ()
        order_by = ("application",)
        order_by_field = "sort"
        empty_text = "No application in this run."
