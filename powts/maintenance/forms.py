from django import forms

from powts.maintenance.choices import AbandonmentMethod, ReportKind

YES_NO = [("", "Not checked"), ("no", "No"), ("yes", "Yes")]


class ReportForm(forms.Form):
    """Quick to fill on a phone: big inputs, numeric keyboards, only the fields the work needs."""

    system_id = forms.CharField(max_length=60, label="POWTS id", widget=forms.TextInput(attrs={"autocapitalize": "characters", "autocomplete": "off"}))
    kind = forms.ChoiceField(choices=ReportKind.choices, widget=forms.RadioSelect, initial=ReportKind.PUMPING, label="Work done")
    work_date = forms.CharField(label="Date of work", widget=forms.DateInput(attrs={"type": "date"}))
    license_number = forms.CharField(max_length=40, label="Your license number")
    sludge_scum_fraction = forms.CharField(required=False, label="Sludge and scum, fraction of the tank (e.g. 0.25 or 1/3)",
                                           widget=forms.TextInput(attrs={"inputmode": "decimal"}))
    gallons_pumped = forms.CharField(required=False, label="Gallons pumped", widget=forms.TextInput(attrs={"inputmode": "numeric"}))
    disposal_site = forms.CharField(required=False, max_length=200, label="Disposal site")
    effluent_ponding = forms.ChoiceField(choices=YES_NO, required=False, label="Effluent ponding on the surface?")
    failure_observed = forms.BooleanField(required=False, label="Signs of failure observed")
    components_serviced = forms.CharField(required=False, max_length=300, label="Components serviced")
    abandonment_method = forms.ChoiceField(choices=[("", "Not an abandonment"), *AbandonmentMethod.choices], required=False,
                                           label="Abandonment: how the tank was abandoned")
    location = forms.CharField(required=False, max_length=200, label="Location (if the id is not found)")
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))


class UploadForm(forms.Form):
    file = forms.FileField(label="CSV of reports")
