"""The person's own account: password change, API tokens and the secret calendar address."""
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.views.decorators.http import require_POST, require_safe

from powts.accounts import selectors, services
from powts.accounts.forms import AuditedPasswordChangeForm


def _page(request, feed_url=None):
    return render(request, "accounts/account.html", {
        "feed": selectors.calendar_feed_of(user=request.user), "feed_url": feed_url,
        "tokens": selectors.api_tokens_of(user=request.user),
    })


@login_required
@require_safe  # read-only: the changes are the POST-only views below
def account(request):
    return _page(request)


@login_required
@require_POST
def calendar_renew(request):
    # Answered directly rather than redirected: only a digest is stored, so the address exists only in this page.
    secret = services.calendar_feed_renew(user=request.user)
    return _page(request, feed_url=request.build_absolute_uri(reverse("permits:calendar-feed", args=[secret])))


@login_required
@require_POST
def calendar_revoke(request):
    if services.calendar_feed_revoke(user=request.user):
        messages.success(request, "Your calendar address no longer works.")
    return redirect("accounts:account")


@login_required
@require_POST
def tokens_revoke(request):
    count = services.credentials_revoke(user=request.user, reason="revoked by the account holder")
    messages.success(request, f"Revoked {count} API token(s) and calendar address." if count else "Nothing to revoke.")
    return redirect("accounts:account")


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = AuditedPasswordChangeForm
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:account")

    def form_valid(self, form):
        response = super().form_valid(form)  # keeps this session signed in; other sessions end
        messages.success(self.request, "Your password is changed. Your API tokens and calendar address were revoked.")
        return response
