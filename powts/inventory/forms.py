from django import forms

from powts.inventory import edit_fields
from powts.inventory.choices import ComponentKind, OwnerKind, SystemStatus, SystemType


class ImportUploadForm(forms.Form):
    file = forms.FileField(label="Inventory file (CSV or XLSX)",
                           help_text="Required columns: system_id, parcel_id, system_type, owner_name (or your file's own "
                                     "headers for them: you choose which after the upload). Other columns are kept.")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        name = upload.name.lower()
        if not name.endswith((".csv", ".xlsx", ".txt")):
            raise forms.ValidationError("Choose a .csv or .xlsx file.")
        return upload


# ---------------------------------------------------------------- edit forms: parsed like the import (edit_fields)

def _iso(value):
    return value.isoformat() if hasattr(value, "isoformat") else ("" if value is None else value)


class EditForm(forms.Form):
    """A record's fields as typed, then parsed by powts.inventory.edit_fields, so a form names the field
    with the same words as the import. `parsed` holds the values for the service. Every edit carries
    the record's version (hidden) and the editor's reason."""

    parsers: dict = {}
    versioned = True  # False for a form that makes a record (nothing to be stale against)
    version = forms.CharField(widget=forms.HiddenInput, required=False)
    reason = forms.CharField(label="Reason for the change", required=False,
                             help_text="Kept in the record's history with your name, e.g. \"permit 2026-0412 final inspection\".")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.versioned:
            del self.fields["version"]
        for field in self.fields.values():
            widget = field.widget
            if isinstance(widget, forms.CheckboxInput):
                widget.attrs.setdefault("class", "usa-checkbox__input")
            elif isinstance(widget, forms.Select):
                widget.attrs.setdefault("class", "usa-select")
            elif isinstance(widget, forms.Textarea):
                widget.attrs.setdefault("class", "usa-textarea")
                widget.attrs.setdefault("rows", 3)
            elif not isinstance(widget, forms.HiddenInput):
                widget.attrs.setdefault("class", "usa-input")

    @classmethod
    def initial_from(cls, record, version=None) -> dict:
        initial = {name: _iso(getattr(record, name)) for name in cls.parsers if hasattr(record, name)}
        if cls.versioned:
            initial["version"] = record.version if version is None else version
        return initial

    def clean(self):
        data = super().clean()
        self.parsed = {}
        checks = {**self.parsers, "reason": edit_fields.reason}
        if self.versioned:
            checks["version"] = edit_fields.version
        values, errors = edit_fields.parse(checks, data, partial=False)
        for name, messages in errors.items():
            for message in messages:
                self.add_error(name if name in self.fields else None, message)
        self.parsed = {k: v for k, v in values.items() if k in self.parsers}
        return data


def _date(label, help_text="YYYY-MM-DD (or MM/DD/YYYY, as in the import)"):
    return forms.CharField(label=label, required=False, help_text=help_text, widget=forms.DateInput(attrs={"type": "date"}))


def _number(label, help_text=""):
    return forms.CharField(label=label, required=False, help_text=help_text, widget=forms.TextInput(attrs={"inputmode": "numeric"}))


class SystemEditForm(EditForm):
    parsers = {k: edit_fields.SYSTEM[k] for k in ("system_type", "status", "installed_on", "last_serviced_on",
                                                   "design_flow_gpd", "bedrooms", "structures_served", "permit_number")}
    system_type = forms.CharField(label="System type", required=False, widget=forms.Select(choices=SystemType.choices))
    status = forms.CharField(label="Status", required=False, widget=forms.Select(choices=SystemStatus.choices))
    installed_on = _date("Installed on")
    last_serviced_on = _date("Last inspected or pumped on")
    design_flow_gpd = _number("Design flow (gallons per day)")
    bedrooms = _number("Bedrooms")
    structures_served = forms.CharField(label="Structures served", required=False)
    permit_number = forms.CharField(label="Sanitary permit number", required=False)
    field_order = [*parsers, "reason"]


class ComponentForm(EditForm):
    parsers = edit_fields.COMPONENT
    kind = forms.CharField(label="Component", required=False, widget=forms.Select(choices=ComponentKind.choices))
    capacity_gallons = _number("Capacity (gallons)")
    manufacturer = forms.CharField(label="Manufacturer", required=False)
    model = forms.CharField(label="Model", required=False)
    installed_on = _date("Installed on")
    field_order = [*parsers, "reason"]


class ComponentRemoveForm(EditForm):
    parsers = {}


class ParcelEditForm(EditForm):
    parsers = edit_fields.PARCEL
    parcel_number = forms.CharField(label="Tax parcel number", required=False)
    legal_description = forms.CharField(label="Legal description", required=False, widget=forms.Textarea)
    site_address = forms.CharField(label="Site address", required=False)
    municipality = forms.CharField(label="Municipality", required=False)
    sewered = forms.BooleanField(label="Served by a public sewer", required=False)
    latitude = forms.CharField(label="Latitude", required=False, help_text="Decimal degrees, e.g. 43.0731")
    longitude = forms.CharField(label="Longitude", required=False, help_text="Decimal degrees, e.g. -89.4012")
    field_order = [*parsers, "reason"]

    @classmethod
    def initial_from(cls, record, version=None) -> dict:
        initial = super().initial_from(record, version)
        initial["sewered"] = record.sewered
        return initial


class OwnerEditForm(EditForm):
    parsers = edit_fields.OWNER
    name = forms.CharField(label="Name", required=False)
    kind = forms.CharField(label="Person or business", required=False, widget=forms.Select(choices=OwnerKind.choices))
    mailing_address = forms.CharField(label="Mailing address", required=False, widget=forms.Textarea,
                                      help_text="Where notices are mailed: street, city, state and ZIP on their own lines.")
    email = forms.CharField(label="Email", required=False, widget=forms.EmailInput)
    phone = forms.CharField(label="Phone", required=False, widget=forms.TextInput(attrs={"type": "tel"}))
    field_order = [*parsers, "reason"]


class SaleForm(EditForm):
    """A sale: the buyer (an owner record with that name and mailing address, or a new one) from a date."""

    parsers = {"sold_on": edit_fields.date_done, **{k: edit_fields.OWNER[k] for k in ("name", "mailing_address", "email", "phone")}}
    sold_on = _date("Sold on", help_text="The day the buyer's ownership began (the deed's date).")
    name = forms.CharField(label="Buyer's name", required=False,
                           help_text="An owner already on record with this name and mailing address is used; otherwise a new owner record is made.")
    mailing_address = forms.CharField(label="Buyer's mailing address", required=False, widget=forms.Textarea)
    email = forms.CharField(label="Buyer's email", required=False, widget=forms.EmailInput)
    phone = forms.CharField(label="Buyer's phone", required=False, widget=forms.TextInput(attrs={"type": "tel"}))
    field_order = [*parsers, "reason"]
