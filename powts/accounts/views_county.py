"""Licenses (county staff) and a county's people (its administrator): lists, edits, invitations.

A county administrator sees and changes only its own county's people; an invitation's link lets the
invited person choose a password (Django's password-reset token: it works once and expires).
"""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse, reverse_lazy
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.views.decorators.http import require_http_methods, require_safe

from powts.accounts import forms, policies, services
from powts.accounts.models import License, User
from powts.inventory.models import Owner
from powts.inventory.views_edit import edit_page

LIST_LIMIT = 200


def _staff(request):
    if not policies.can_edit_licenses(request.user):
        raise PermissionDenied("Only county staff keep licenses up to date.")


def _admin(request):
    if not policies.can_manage_users(request.user):
        raise PermissionDenied("Only a county administrator manages the county's users.")


@login_required
@require_safe
def license_list(request):
    _staff(request)
    q = request.GET.get("q", "").strip()[:100]
    licenses = License.objects.select_related("user").order_by("holder_name", "id")
    if q:
        licenses = licenses.filter(Q(number__icontains=q) | Q(holder_name__icontains=q) | Q(business_name__icontains=q))
    return render(request, "accounts/license_list.html", {"licenses": licenses[:LIST_LIMIT], "q": q, "limit": LIST_LIMIT})


@login_required
@require_http_methods(["GET", "POST"])
def license_edit(request, pk: int):
    _staff(request)
    license = get_object_or_404(License, pk=pk)
    back = reverse("accounts:license-list")
    return edit_page(request, form_class=forms.LicenseForm, initial=forms.LicenseForm.initial_from(license),
                     title=f"Edit license {license.number}", back=back, crumbs=[("Licenses", back)],
                     done=f"License {license.number} saved.",
                     save=lambda data, **kw: services.license_update(license=license, data=data, **kw))


def _accept_url(request):
    def build(user: User) -> str:
        path = reverse("accounts:invite-accept", kwargs={"uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
                                                           "token": default_token_generator.make_token(user)})
        return request.build_absolute_uri(path)
    return build


@login_required
@require_safe
def user_list(request):
    _admin(request)
    people = (services.county_users(jurisdiction=request.user.jurisdiction)
              .prefetch_related("owner_records").order_by("role", "username"))
    return render(request, "accounts/user_list.html", {"people": people})


@login_required
@require_http_methods(["GET", "POST"])
def user_new(request):
    _admin(request)
    back = reverse("accounts:user-list")
    return edit_page(request, form_class=forms.CountyUserForm, initial={"role": "county_staff"},
                     title="Add a member of the county's staff", back=back, crumbs=[("Users", back)],
                     button="Add and send the invitation", done="Added; the invitation to choose a password was sent.",
                     save=lambda data, version, reason: services.county_user_create(
                         by=request.user, reason=reason, accept_url=_accept_url(request), **data))


@login_required
@require_http_methods(["GET", "POST"])
def user_edit(request, pk: int):
    _admin(request)
    person = services.county_users(jurisdiction=request.user.jurisdiction).filter(pk=pk).first()
    if person is None:
        raise Http404
    back = reverse("accounts:user-list")
    return edit_page(request, form_class=forms.CountyUserChangeForm,
                     initial={"role": person.role, "is_active": person.is_active, "version": person.version,
                              "firm_name": person.firm_name,
                              "relatives": "\n".join(f"{r.name}; {r.relationship}".rstrip("; ")
                                                      for r in person.relatives.all())},
                     title=f"Change {person.display_name}", back=back, crumbs=[("Users", back)],
                     done=f"{person.display_name} saved.",
                     save=lambda data, version, reason: services.county_user_update(
                         by=request.user, person=person, role=data["role"] if person.role != "owner" else None,
                         is_active=data["is_active"], firm_name=data["firm_name"], relatives=data["relatives"],
                         reason=reason, version=version))


@login_required
@require_http_methods(["GET", "POST"])
def owner_invite(request, owner_pk: int):
    _admin(request)
    owner = get_object_or_404(Owner, pk=owner_pk, jurisdiction_id=request.user.jurisdiction_id)
    system = owner.parcels.filter(systems__isnull=False).values_list("systems", flat=True).first()
    back = reverse("inventory:system-detail", args=[system]) if system else reverse("accounts:user-list")
    return edit_page(request, form_class=forms.OwnerInviteForm, initial={"email": owner.email},
                     title=f"Invite {owner.name} to sign in", back=back, crumbs=[("Users", reverse("accounts:user-list"))],
                     intro="They will see their own property's septic system records and letters, nothing else.",
                     button="Send the invitation", done=f"Invitation sent to {owner.name}.",
                     save=lambda data, version, reason: services.owner_invite(
                         by=request.user, owner=owner, email=data["email"], reason=reason, accept_url=_accept_url(request)))


class InvitationAcceptView(auth_views.PasswordResetConfirmView):
    """The invited person's link: choose a password, then sign in."""

    form_class = forms.InvitationAcceptForm
    template_name = "accounts/invite_accept.html"
    success_url = reverse_lazy("login")
    post_reset_login = False

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(self.request, "Your password is set. Sign in with your user name and new password.")
        return response
