from django import forms
from django.contrib.auth.forms import PasswordChangeForm, SetPasswordForm

from powts.accounts.choices import LicenseKind, Role
from powts.accounts.services import invitation_accept, password_change
from powts.inventory import edit_fields
from powts.inventory.forms import EditForm


class AuditedPasswordChangeForm(PasswordChangeForm):
    """Django's form (old password, new twice, AUTH_PASSWORD_VALIDATORS), saved through the service."""

    def save(self, commit=True):
        # The form's own validators ran already; the service's refusal (AccountRefused) is the same rule.
        return password_change(user=self.user, password=self.cleaned_data["new_password1"])


# ---------------------------------------------------------------- licenses and a county's people (county staff, administrators)

class LicenseForm(EditForm):
    parsers = {
        "kind": edit_fields.choice(LicenseKind),
        "number": edit_fields.text(40, required=True),
        "holder_name": edit_fields.text(200, required=True),
        "business_name": edit_fields.text(200),
        "mailing_address": edit_fields.text(2_000),
        "expires_on": edit_fields.date_any,
    }
    kind = forms.CharField(label="License, certification or registration", required=False,
                           widget=forms.Select(choices=LicenseKind.choices))
    number = forms.CharField(label="Number", required=False)
    holder_name = forms.CharField(label="Holder's name", required=False)
    business_name = forms.CharField(label="Business name", required=False)
    mailing_address = forms.CharField(label="Mailing address", required=False, widget=forms.Textarea)
    expires_on = forms.CharField(label="Expires on", required=False, help_text="YYYY-MM-DD",
                                 widget=forms.DateInput(attrs={"type": "date"}))
    field_order = [*parsers, "reason"]


COUNTY_ROLE_CHOICES = [(r.value, r.label) for r in (Role.COUNTY_STAFF, Role.COUNTY_ADMIN)]


class CountyUserForm(EditForm):
    """A new member of the county's staff: they get an email to choose their password."""
    versioned = False

    parsers = {
        "username": edit_fields.text(150, required=True),
        "first_name": edit_fields.text(150),
        "last_name": edit_fields.text(150),
        "email": edit_fields.email,
        "role": edit_fields.text(20, required=True),
    }
    username = forms.CharField(label="User name", required=False)
    first_name = forms.CharField(label="First name", required=False)
    last_name = forms.CharField(label="Last name", required=False)
    email = forms.CharField(label="Email", required=False, widget=forms.EmailInput,
                            help_text="The invitation to choose a password is sent here.")
    role = forms.CharField(label="Role", required=False, widget=forms.Select(choices=COUNTY_ROLE_CHOICES))
    field_order = [*parsers, "reason"]

    def clean(self):
        data = super().clean()
        if not self.parsed.get("email") and "email" not in self.errors:
            self.add_error("email", "email is required: the invitation to choose a password is sent there")
        return data


def _relatives(field: str, raw) -> list[tuple[str, str]]:
    """One relative a line: "Name; relationship" (the relationship may be left out)."""
    text = edit_fields.text(4_000)(field, raw)
    out = []
    for line in text.splitlines():
        name, _, relationship = line.partition(";")
        if name.strip():
            out.append((name.strip()[:200], relationship.strip()[:60]))
    return out


class CountyUserChangeForm(EditForm):
    """A person's role and sign-in, with the version the administrator saw (a second administrator's stale
    form is told what changed), and the firm and relatives on their record (the county's recusal policy)."""
    parsers = {"role": edit_fields.text(20, required=True), "is_active": edit_fields.yes_no,
               "firm_name": edit_fields.text(200), "relatives": _relatives}
    role = forms.CharField(label="Role", required=False, widget=forms.Select(choices=COUNTY_ROLE_CHOICES))
    is_active = forms.BooleanField(label="May sign in (uncheck to deactivate)", required=False)
    # The county's recusal policy: the work of their firm or a relative is work they may not review, inspect or approve.
    firm_name = forms.CharField(label="Firm this person owns or works for (if any)", required=False)
    relatives = forms.CharField(label="Relatives who may file with the county (one a line: name; relationship)",
                                required=False, widget=forms.Textarea)
    field_order = [*parsers, "reason"]


class OwnerInviteForm(EditForm):
    versioned = False
    parsers = {"email": edit_fields.email}
    email = forms.CharField(label="Owner's email", required=False, widget=forms.EmailInput,
                            help_text="Their user name; the invitation to choose a password is sent here.")
    field_order = ["email", "reason"]

    def clean(self):
        data = super().clean()
        if not self.parsed.get("email") and "email" not in self.errors:
            self.add_error("email", "email is required")
        return data


class InvitationAcceptForm(SetPasswordForm):
    """Django's set-password form (AUTH_PASSWORD_VALIDATORS), saved through the audited service."""

    def save(self, commit=True):
        return invitation_accept(user=self.user, password=self.cleaned_data["new_password1"])
