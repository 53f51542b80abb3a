import django_tables2 as tables

from powts.oversight.models import Assessment


class AssessmentTable(tables.Table):
    """The county treasurer's tax roll: parcel number, amount, authority (Wis. Stat. s. 145.20(4))."""

    parcel_number = tables.Column(accessor="parcel__parcel_number", verbose_name="Parcel number")
    cost = tables.Column(verbose_name="Amount")
    authority_name = tables.Column(verbose_name="Authority")
    tax_year = tables.Column(verbose_name="Tax year")
    work_done_on = tables.Column(verbose_name="Work done")
    work = tables.Column(verbose_name="Work")
    citation = tables.Column(verbose_name="Under")

    class Meta:
        model = Assessment
        fields = ("parcel_number", "cost", "authority_name", "tax_year", "work_done_on", "work", "citation")
        order_by = ("parcel_number",)
