"""Sign-in and tokens: "a password change page; Django's validators with a minimum length of 12" (finding:
"user_create accepts the password 1; no password change page")."""
import pytest
from django.conf import settings
from django.contrib.auth import authenticate
from django.test import RequestFactory
from knox.models import AuthToken

from powts.accounts.errors import AccountRefused
from powts.accounts.models import User
from powts.accounts.services import user_create
from powts.accounts.tests.conftest import PASSWORD
from powts.audit.models import AuditEvent


@pytest.mark.parametrize("password", ["1", "12345678901234", "password12345", "tqbz-ruvw-x"])
def test_user_create_refuses_weak_passwords(db, password):
    """Too short (1; 11 characters, one under the minimum), all digits, or common: refused, naming the field,
    and no account is made."""
    with pytest.raises(AccountRefused) as exc:
        user_create(username="weak", password=password, role="owner")
    assert "password" in exc.value.errors
    assert not User.objects.filter(username="weak").exists()


def test_user_create_accepts_twelve_characters(db):
    """The other side of the threshold: exactly 12 characters."""
    assert len("tqbz-ruvw-xy") == 12
    user = user_create(username="ok", password="tqbz-ruvw-xy", role="owner")
    assert user.check_password("tqbz-ruvw-xy")


def test_password_like_the_user_name_is_refused(db):
    with pytest.raises(AccountRefused):
        user_create(username="maryjohnson", password="maryjohnson1", role="owner", first_name="Mary")


def test_change_page_refuses_a_weak_password_and_changes_nothing(client, staff):
    client.force_login(staff)
    page = client.get("/accounts/password/")
    assert page.status_code == 200 and "Change your password" in page.content.decode()
    r = client.post("/accounts/password/", {"old_password": PASSWORD, "new_password1": "1", "new_password2": "1"})
    assert r.status_code == 200 and "usa-error-message" in r.content.decode() and "too short" in r.content.decode()
    staff.refresh_from_db()
    assert staff.check_password(PASSWORD)


def test_change_page_needs_the_old_password(client, staff):
    client.force_login(staff)
    r = client.post("/accounts/password/", {"old_password": "not-my-password", "new_password1": "a-brand-new-password",
                                            "new_password2": "a-brand-new-password"})
    assert r.status_code == 200 and "usa-error-message" in r.content.decode()
    staff.refresh_from_db()
    assert staff.check_password(PASSWORD)


def test_change_page_changes_keeps_this_session_revokes_tokens_and_is_audited(client, staff):
    AuthToken.objects.create(user=staff)
    client.force_login(staff)
    r = client.post("/accounts/password/", {"old_password": PASSWORD, "new_password1": "a-brand-new-password",
                                            "new_password2": "a-brand-new-password"})
    assert r.status_code == 302 and r["Location"] == "/accounts/me/"
    assert client.get("/accounts/me/").status_code == 200  # still signed in here
    request = RequestFactory().post("/accounts/login/")
    assert authenticate(request, username="sam", password="a-brand-new-password") == staff
    assert not AuthToken.objects.filter(user=staff).exists()
    actions = set(AuditEvent.objects.filter(object_id=staff.pk).values_list("action", flat=True))
    assert {"password changed", "API tokens and calendar address revoked (password changed)"} <= actions
    assert not any("a-brand-new-password" in str(e.changes) for e in AuditEvent.objects.all())


def test_change_page_needs_sign_in(client):
    assert client.get("/accounts/password/").status_code == 302


def test_header_links_to_the_account_page(client, staff):
    client.force_login(staff)
    assert 'href="/accounts/me/"' in client.get("/inventory/").content.decode()


def test_web_sign_in_lasts_eight_hours(client, staff):
    """Finding: "14-day sessions" -> 8 hours by default."""
    r = client.post("/accounts/login/", {"username": "sam", "password": PASSWORD})
    assert r.status_code == 302
    assert int(r.cookies[settings.SESSION_COOKIE_NAME]["max-age"]) == 8 * 3600


def test_production_hashes_passwords_with_argon2_first():
    """The test run hashes with MD5 for speed (conftest.py); the settings a county runs put Argon2 first
    and never accept MD5."""
    import powts.settings as production

    assert production.PASSWORD_HASHERS[0] == "django.contrib.auth.hashers.Argon2PasswordHasher"
    assert "django.contrib.auth.hashers.MD5PasswordHasher" not in production.PASSWORD_HASHERS
    assert settings.PASSWORD_HASHERS == ["django.contrib.auth.hashers.MD5PasswordHasher"]  # the override is in force
