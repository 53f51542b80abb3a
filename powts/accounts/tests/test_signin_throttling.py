"""Sign-in and tokens: lockout after repeated failures with a message, on the web sign-in and on POST /api/token/
(finding: "100 wrong passwords at 9 a second, all processed"). Failures are counted per account at one address (so
nobody can lock a person out by guessing at their user name from elsewhere) and per address over all accounts, at
a higher limit."""
import datetime as dt

import pytest
import time_machine
from django.conf import settings
from rest_framework.test import APIClient

from powts.accounts.tests.conftest import PASSWORD

LIMIT = settings.AXES_FAILURE_LIMIT
ADDRESS_LIMIT = settings.POWTS_LOGIN_ADDRESS_FAILURE_LIMIT
ATTACKER, HOME, OTHER = "203.0.113.9", "198.51.100.7", "192.0.2.20"


def web_login(client, username, password, ip="127.0.0.1"):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=ip)


def api_login(username, password, ip="127.0.0.1"):
    return APIClient().post("/api/token/", {"username": username, "password": password}, format="json", REMOTE_ADDR=ip)


def test_the_limit_is_small():
    """Lockout after *repeated* failures -- a handful, not a hundred; an address, shared by an office, gets
    several people's worth, still far short of a hundred."""
    assert 3 <= LIMIT <= 10
    assert LIMIT * 3 <= ADDRESS_LIMIT <= 50


@pytest.fixture
def quick_hashing(settings):
    """An unknown user name still costs one password hash (so timing does not tell which exist); the address
    tests make dozens. MD5 first for those; the users made with the default hasher still check with it."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *settings.PASSWORD_HASHERS]


def test_web_one_failure_short_of_the_limit_still_signs_in(client, staff):
    """Below the threshold: LIMIT-1 wrong passwords, then the right one signs in."""
    for _ in range(LIMIT - 1):
        r = web_login(client, "sam", "wrong-password-123")
        assert r.status_code == 200 and "do not match" in r.content.decode()
    assert web_login(client, "sam", PASSWORD).status_code == 302


def test_web_locked_after_repeated_failures_with_a_message(client, staff):
    """At the threshold: the LIMIT-th wrong password locks the account; the next try, even with the right
    password, gets the lockout page (429) saying why and for how long; after the cool-off it works again."""
    for _ in range(LIMIT - 1):
        web_login(client, "sam", "wrong-password-123")
    locked = web_login(client, "sam", "wrong-password-123")
    assert locked.status_code == 429
    page = locked.content.decode()
    assert "Too many failed sign-ins" in page and f"{settings.AXES_COOLOFF_TIME.seconds // 60} minutes" in page and "usa-alert" in page
    right = web_login(client, "sam", PASSWORD)
    assert right.status_code == 429 and "_auth_user_id" not in client.session
    with time_machine.travel(dt.datetime.now(dt.UTC) + settings.AXES_COOLOFF_TIME + dt.timedelta(minutes=1)):
        assert web_login(client, "sam", PASSWORD).status_code == 302


def test_api_token_locked_after_repeated_failures(staff):
    """POST /api/token/: 400 naming the problem below the threshold, then 429 JSON with the message,
    and no token even for the right password while locked."""
    for _ in range(LIMIT - 1):
        r = api_login("sam", "wrong-password-123")
        assert r.status_code == 400 and r.json()["errors"]["non_field_errors"]
    locked = api_login("sam", "wrong-password-123")
    assert locked.status_code == 429 and "Too many failed sign-ins" in locked.json()["detail"]
    right = api_login("sam", PASSWORD)
    assert right.status_code == 429 and "token" not in right.json()


def test_api_token_below_the_limit_still_issues(staff):
    for _ in range(LIMIT - 1):
        api_login("sam", "wrong-password-123")
    assert api_login("sam", PASSWORD).status_code == 200


def test_failures_from_one_address_lock_that_account_at_that_address(client, quick_hashing, staff, make_user):
    """LIMIT wrong passwords for sam from one address: sam is locked out there, on the web and the API, even
    with the right password; another account at that address is not (the address is far from its limit)."""
    make_user("lee", "county_staff")
    for _ in range(LIMIT):
        web_login(client, "sam", "wrong-password-123", ip=ATTACKER)
    assert web_login(client, "sam", PASSWORD, ip=ATTACKER).status_code == 429
    assert api_login("sam", PASSWORD, ip=ATTACKER).status_code == 429
    assert web_login(client, "lee", PASSWORD, ip=ATTACKER).status_code == 302


def test_the_same_person_still_signs_in_from_another_address(client, quick_hashing, staff):
    """Locking a person out from elsewhere is no longer possible: failures for sam from other addresses,
    each up to the limit, leave sam's own address free (web and API)."""
    for attacker in (ATTACKER, OTHER, "203.0.113.10"):
        for _ in range(LIMIT):
            web_login(client, "sam", "wrong-password-123", ip=attacker)
        assert web_login(client, "sam", PASSWORD, ip=attacker).status_code == 429
    assert api_login("sam", PASSWORD, ip=HOME).status_code == 200
    assert web_login(client, "sam", PASSWORD, ip=HOME).status_code == 302


def test_one_address_guessing_at_many_accounts_is_stopped_at_the_address_limit(client, quick_hashing, staff):
    """A brute force from one address, a few guesses at each of many user names (never LIMIT at one), is
    stopped once the address has ADDRESS_LIMIT failures: every account, on the web and the API, from there
    only."""
    for i in range(ADDRESS_LIMIT - 1):
        r = web_login(client, f"guess{i // (LIMIT - 1)}", "wrong-password-123", ip=ATTACKER)
        assert r.status_code == 200, i  # below the address's limit, each name below its own
    assert api_login("sam", PASSWORD, ip=ATTACKER).status_code == 200  # one short: still open
    assert web_login(client, "guess-last", "wrong-password-123", ip=ATTACKER).status_code == 429
    assert web_login(client, "sam", PASSWORD, ip=ATTACKER).status_code == 429
    assert api_login("sam", PASSWORD, ip=ATTACKER).status_code == 429
    assert web_login(client, "sam", PASSWORD, ip=HOME).status_code == 302


def test_signing_in_to_ones_own_account_does_not_clear_the_address_count(client, quick_hashing, staff, make_user):
    """AXES_RESET_ON_SUCCESS clears the failures of the account that signed in, at that address: an attacker
    with an account of their own cannot sign in to it now and then to keep guessing at others'."""
    make_user("mallory", "pumper")
    for i in range(ADDRESS_LIMIT - 1):
        web_login(client, f"guess{i}", "wrong-password-123", ip=ATTACKER)
    assert api_login("mallory", PASSWORD, ip=ATTACKER).status_code == 200
    assert web_login(client, "guess-last", "wrong-password-123", ip=ATTACKER).status_code == 429
    assert api_login("mallory", PASSWORD, ip=ATTACKER).status_code == 429


def test_a_successful_sign_in_resets_the_count(client, staff):
    """AXES_RESET_ON_SUCCESS: a person who mistypes now and then is never locked out by old mistakes."""
    for _ in range(LIMIT - 1):
        web_login(client, "sam", "wrong-password-123")
    assert web_login(client, "sam", PASSWORD).status_code == 302
    client.logout()
    for _ in range(LIMIT - 1):
        web_login(client, "sam", "wrong-password-123")
    assert web_login(client, "sam", PASSWORD).status_code == 302


def test_an_administrator_can_lift_a_lockout(client, staff):
    """The lockout page says to ask the administrator: `powts axes_reset` (or the admin site) lifts it."""
    from django.core.management import call_command

    for _ in range(LIMIT):
        web_login(client, "sam", "wrong-password-123")
    assert web_login(client, "sam", PASSWORD).status_code == 429
    call_command("axes_reset", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert web_login(client, "sam", PASSWORD).status_code == 302


def test_nul_bytes_in_a_sign_in_are_bad_input_not_a_500(client, staff):
    """PostgreSQL parity for the sign-in forms: a NUL byte is refused before axes or the database sees it (PostgreSQL
    text cannot hold one)."""
    for username, password in (("sa\x00m", PASSWORD), ("sam", "pass\x00word-long"), ("\x00", "\x00")):
        response = web_login(client, username, password)  # refused by RefuseUnstorableTextMiddleware, naming the field
        assert response.status_code == 400 and "contains a NUL character" in response.content.decode()
        assert api_login(username, password).status_code == 400
