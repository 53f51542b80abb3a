from django.urls import path

from powts.accounts import views

app_name = "accounts"
urlpatterns = [
    path("me/", views.account, name="account"),
    path("password/", views.PasswordChangeView.as_view(), name="password-change"),
    path("me/calendar/new/", views.calendar_renew, name="calendar-renew"),
    path("me/calendar/revoke/", views.calendar_revoke, name="calendar-revoke"),
    path("me/tokens/revoke/", views.tokens_revoke, name="tokens-revoke"),
]
