import django_tables2 as tables
from django.utils.html import format_html

from powts.core.lists import DateColumn
from powts.law.explain import money
from powts.wells.models import WellClaim


class ClaimTable(tables.Table):
    claim_id = tables.Column(verbose_name="Claim", linkify=lambda record: record.get_absolute_url(), order_by=("claim_id",))
    supply = tables.Column(accessor="supply__supply_id", verbose_name="Water supply", orderable=False)
    claimant_name = tables.Column(verbose_name="Claimant", orderable=False)
    status = tables.Column(verbose_name="Status", orderable=False)
    received_on = DateColumn(verbose_name="Received", order_by=("received_on", "id"))
    completed_on = DateColumn(verbose_name="Complete", order_by=("completed_on", "id"))
    award = tables.Column(verbose_name="Award", order_by=("award", "id"))

    noun = "well claims"
    caption = "Well compensation claims matching the search"

    class Meta:
        model = WellClaim
        fields = ()
        order_by = ("received_on",)
        order_by_field = "sort"
        empty_text = "No claims match."

    def render_status(self, value):
        return format_html('<span class="usa-tag">{}</span>', value)

    def render_award(self, value):
        return money(value)

    def value_award(self, value):
        return f"{value / 100:.2f}"
