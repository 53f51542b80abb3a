from django.urls import path

from powts.accounts import views, views_county

app_name = "accounts"
urlpatterns = [
    path("me/", views.account, name="account"),
    path("password/", views.PasswordChangeView.as_view(), name="password-change"),
    path("me/calendar/new/", views.calendar_renew, name="calendar-renew"),
    path("me/calendar/revoke/", views.calendar_revoke, name="calendar-revoke"),
    path("me/tokens/revoke/", views.tokens_revoke, name="tokens-revoke"),
]

# Licenses (county staff) and the county's people (its administrator): views_county.py
urlpatterns += [
    path("licenses/", views_county.license_list, name="license-list"),
    path("licenses/<int:pk>/edit/", views_county.license_edit, name="license-edit"),
    path("users/", views_county.user_list, name="user-list"),
    path("users/new/", views_county.user_new, name="user-new"),
    path("users/<int:pk>/edit/", views_county.user_edit, name="user-edit"),
    path("users/invite/<int:owner_pk>/", views_county.owner_invite, name="owner-invite"),
    path("invite/<uidb64>/<token>/", views_county.InvitationAcceptView.as_view(), name="invite-accept"),
]
