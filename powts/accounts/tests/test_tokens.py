"""Sign-in and tokens: "API tokens never expire, are stored in plain text, survive a password change, and are
accepted in a URL (?token= on the iCalendar feed)" -> tokens hashed, expiring, revoked on password change,
never accepted in a URL."""
import datetime as dt

import time_machine
from django.conf import settings
from django.db import connection
from knox.models import AuthToken
from rest_framework.test import APIClient

from powts.accounts.services import password_change
from powts.accounts.tests.conftest import PASSWORD


def get_token(username="sam", password=PASSWORD):
    r = APIClient().post("/api/token/", {"username": username, "password": password}, format="json")
    assert r.status_code == 200, r.content
    return r.json()


def api(key):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_token_endpoint_returns_a_token_and_its_expiry(staff):
    body = get_token()
    assert api(body["token"]).get("/api/systems/").status_code == 200
    expiry = dt.datetime.fromisoformat(body["expiry"])
    remaining = expiry - dt.datetime.now(dt.UTC)
    assert settings.REST_KNOX["TOKEN_TTL"] - dt.timedelta(minutes=1) < remaining <= settings.REST_KNOX["TOKEN_TTL"]


def test_tokens_are_stored_hashed(staff):
    """No column of the token table holds the key itself (a database copy gives no API access)."""
    key = get_token()["token"]
    table = AuthToken._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {table}")
        rows = cursor.fetchall()
    assert len(rows) == 1 and not any(key in str(value) for value in rows[0])


def test_token_expires(staff):
    """Both sides of TOKEN_TTL: accepted a minute before, refused (401) a minute after."""
    key = get_token()["token"]
    ttl = settings.REST_KNOX["TOKEN_TTL"]
    now = dt.datetime.now(dt.UTC)
    with time_machine.travel(now + ttl - dt.timedelta(minutes=1)):
        assert api(key).get("/api/systems/").status_code == 200
    with time_machine.travel(now + ttl + dt.timedelta(minutes=1)):
        r = api(key).get("/api/systems/")
        assert r.status_code == 401 and r.json()["detail"]
    assert not AuthToken.objects.exists()  # the expired token is deleted, not just refused


def test_token_revoked_on_password_change_by_the_service(staff):
    key = get_token()["token"]
    password_change(user=staff, password="another-long-password-2")
    assert api(key).get("/api/systems/").status_code == 401


def test_token_revoked_on_password_change_elsewhere(staff):
    """The admin and `powts changepassword` call set_password + save directly: User.save revokes too."""
    key = get_token()["token"]
    staff.set_password("another-long-password-2")
    staff.save()
    assert api(key).get("/api/systems/").status_code == 401


def test_other_users_tokens_survive_a_password_change(staff, make_user):
    make_user("lee", "county_staff", staff.jurisdiction)
    lee_key = get_token("lee")["token"]
    password_change(user=staff, password="another-long-password-2")
    assert api(lee_key).get("/api/systems/").status_code == 200


def test_a_token_in_the_url_is_never_accepted(client, staff):
    """Not on the API, not on the iCalendar feed, under any of the usual parameter names."""
    key = get_token()["token"]
    for name in ("token", "auth_token", "access_token", "key"):
        assert APIClient().get(f"/api/systems/?{name}={key}").status_code == 401
        assert client.get(f"/permits/inspections.ics?{name}={key}").status_code == 401


def test_a_bad_authorization_header_is_a_401_not_a_500(staff):
    client = APIClient()
    for header in ("Token", "Token a b", "Token " + "é" * 20, "Token \x00abc", "Token " + "f" * 5000,
                   "Token " + "0" * 63 + "\x00", "Token " + "G" * 64):
        client.credentials(HTTP_AUTHORIZATION=header)
        assert client.get("/api/systems/").status_code == 401, header


def test_token_request_with_bad_input_is_a_400_naming_the_field(db):
    client = APIClient()
    r = client.post("/api/token/", {"username": "sam"}, format="json")
    assert r.status_code == 400 and "password" in r.json()["errors"]
    r = client.post("/api/token/", ["sam", "pw"], format="json")
    assert r.status_code == 400
    r = client.post("/api/token/", {"username": "x" * 151, "password": "p"}, format="json")
    assert r.status_code == 400 and "username" in r.json()["errors"]


def test_account_page_lists_and_revokes_my_tokens_only(client, staff, make_user):
    """Revocable by the holder, without changing the password; the page shows dates, never a key."""
    make_user("lee", "county_staff", staff.jurisdiction)
    mine, lees = get_token()["token"], get_token("lee")["token"]
    client.force_login(staff)
    page = client.get("/accounts/me/").content.decode()
    assert "Revoke all my API tokens" in page and mine not in page
    client.post("/accounts/me/tokens/revoke/")
    assert api(mine).get("/api/systems/").status_code == 401
    assert api(lees).get("/api/systems/").status_code == 200


def test_tokens_per_person_are_capped(staff):
    """Signing in again and again keeps at most MAX_API_TOKENS live tokens; the oldest goes first."""
    from powts.accounts.services import MAX_API_TOKENS

    keys = [get_token()["token"] for _ in range(MAX_API_TOKENS)]
    assert AuthToken.objects.filter(user=staff).count() == MAX_API_TOKENS
    assert api(keys[0]).get("/api/systems/").status_code == 200
    keys.append(get_token()["token"])
    assert AuthToken.objects.filter(user=staff).count() == MAX_API_TOKENS
    assert api(keys[0]).get("/api/systems/").status_code == 401
    assert api(keys[1]).get("/api/systems/").status_code == 200
