import django_tables2 as tables

from powts.inventory.models import System


class SystemTable(tables.Table):
    system_id = tables.Column(linkify=True, verbose_name="System id")
    parcel = tables.Column(accessor="parcel__parcel_number", verbose_name="Parcel", order_by="parcel__parcel_number")
    address = tables.Column(accessor="parcel__site_address", verbose_name="Site address", orderable=False)
    municipality = tables.Column(accessor="parcel__municipality", verbose_name="Municipality", orderable=False)
    owner = tables.Column(accessor="parcel__owner__name", verbose_name="Owner", orderable=False)
    system_type = tables.Column(verbose_name="Type")
    status = tables.Column()
    installed_on = tables.DateColumn(format="Y-m-d", verbose_name="Installed")

    class Meta:
        model = System
        fields = ("system_id", "parcel", "address", "municipality", "owner", "system_type", "status", "installed_on")
        attrs = {"class": "usa-table usa-table--borderless usa-table--striped width-full"}
        order_by = "system_id"
        empty_text = "No systems match."
