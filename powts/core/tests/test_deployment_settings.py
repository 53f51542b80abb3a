"""Deployment settings: HTTPS-only cookies, HSTS and the proxy header when asked for,
8-hour sessions, and the browser protections on every response."""
import json
import os
import subprocess
import sys

import pytest
from django.test import Client, override_settings

SETTINGS = ["SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS",
            "SECURE_PROXY_SSL_HEADER", "SECURE_SSL_REDIRECT", "SESSION_COOKIE_AGE", "SESSION_COOKIE_HTTPONLY"]


def _settings_with(tmp_path, **env) -> dict:
    """The settings module as a fresh process computes them from this environment."""
    code = ("import json, django; from django.conf import settings; django.setup(); "
            f"print(json.dumps({{k: getattr(settings, k, None) for k in {SETTINGS!r}}}))")
    clean = {k: v for k, v in os.environ.items() if not k.startswith("POWTS_")}
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True,
                         env={**clean, "DJANGO_SETTINGS_MODULE": "powts.settings", "POWTS_DATA_DIR": str(tmp_path), **env})
    return json.loads(out.stdout)


def test_plain_http_by_default_with_8_hour_sessions(tmp_path):
    """Without POWTS_HTTPS nothing forces HTTPS (a laptop works), sessions last 8 hours."""
    got = _settings_with(tmp_path)
    assert got["SESSION_COOKIE_SECURE"] is False and got["SECURE_HSTS_SECONDS"] == 0
    assert got["SECURE_PROXY_SSL_HEADER"] is None
    assert got["SESSION_COOKIE_AGE"] == 8 * 3600 and got["SESSION_COOKIE_HTTPONLY"] is True


def test_https_turns_on_secure_cookies_hsts_and_proxy_header(tmp_path):
    """POWTS_HTTPS=1 -> Secure cookies and a year of HSTS with subdomains; POWTS_PROXY_SSL_HEADER=1 ->
    X-Forwarded-Proto trusted; POWTS_SESSION_HOURS sets the session length."""
    got = _settings_with(tmp_path, POWTS_HTTPS="1", POWTS_PROXY_SSL_HEADER="1", POWTS_SESSION_HOURS="2",
                         POWTS_SSL_REDIRECT="1")
    assert got["SESSION_COOKIE_SECURE"] is True and got["CSRF_COOKIE_SECURE"] is True
    assert got["SECURE_HSTS_SECONDS"] == 365 * 24 * 3600 and got["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert got["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert got["SECURE_SSL_REDIRECT"] is True and got["SESSION_COOKIE_AGE"] == 2 * 3600


@pytest.mark.django_db
def test_headers_on_responses():
    """Nosniff, frame denial, a referrer policy and a CSP on every response."""
    r = Client().get("/accounts/login/")
    assert r["X-Content-Type-Options"] == "nosniff" and r["X-Frame-Options"] == "DENY"
    assert r["Referrer-Policy"] == "same-origin"
    assert "default-src 'self'" in r["Content-Security-Policy"]


@pytest.mark.django_db
def test_behind_a_proxy_the_https_request_gets_hsts_and_a_secure_session_cookie(staff):
    """With the proxy header trusted, a request the proxy marks https gets HSTS, and signing in sets a
    Secure, HttpOnly session cookie lasting 8 hours."""
    with override_settings(SECURE_HSTS_SECONDS=31536000, SECURE_HSTS_INCLUDE_SUBDOMAINS=True,
                           SESSION_COOKIE_SECURE=True, SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https")):
        client = Client(HTTP_X_FORWARDED_PROTO="https")
        r = client.post("/accounts/login/", {"username": "sam", "password": "a-long-test-password"})
        assert r["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
        cookie = r.cookies["sessionid"]
        assert cookie["secure"] and cookie["httponly"] and int(cookie["max-age"]) == 8 * 3600
        assert "Strict-Transport-Security" not in Client().get("/accounts/login/")  # plain http: none
