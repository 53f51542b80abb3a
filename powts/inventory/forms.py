from django import forms


class ImportUploadForm(forms.Form):
    file = forms.FileField(label="Inventory file (CSV or XLSX)",
                           help_text="Required columns: system_id, parcel_id, system_type, owner_name. Other columns are kept.")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        name = upload.name.lower()
        if not name.endswith((".csv", ".xlsx", ".txt")):
            raise forms.ValidationError("Choose a .csv or .xlsx file.")
        return upload
