from django.contrib.auth.forms import PasswordChangeForm

from powts.accounts.services import password_change


class AuditedPasswordChangeForm(PasswordChangeForm):
    """Django's form (old password, new twice, AUTH_PASSWORD_VALIDATORS), saved through the service."""

    def save(self, commit=True):
        # The form's own validators ran already; the service's refusal (AccountRefused) is the same rule.
        return password_change(user=self.user, password=self.cleaned_data["new_password1"])
