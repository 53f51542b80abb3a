"""Sign-in and tokens: "an access log (one line per request: time, user, method, path, status, duration) to a
file in the data directory" (finding: "no access log"); never the query string, never a password."""
import re
import stat

from powts.accounts.services import calendar_feed_renew
from powts.accounts.tests.conftest import PASSWORD

LINE = re.compile(r'^(\S+Z) user=(".*?"|"-"|-) ip=(\S+) method="(\w+)" path="(.*?)" status=(\d{3}) ms=([\d.]+)$')


def parse(line):
    m = LINE.match(line)
    assert m, line
    return m.groups()


def test_one_line_per_request_with_user_status_and_duration(client, staff, access_log):
    client.force_login(staff)
    client.get("/inventory/?q=Smith&token=not-for-the-log")
    client.get("/no-such-page/")
    lines = access_log()
    assert len(lines) == 2
    when, user, ip, method, path, status, ms = parse(lines[0])
    assert user == '"sam"' and ip == "127.0.0.1" and method == "GET" and path == "/inventory/" and status == "200"
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", when) and float(ms) > 0
    assert parse(lines[1])[4:6] == ("/no-such-page/", "404")
    assert "?" not in "".join(lines) and "not-for-the-log" not in "".join(lines) and "Smith" not in "".join(lines)


def test_sign_in_is_logged_without_the_password(client, staff, access_log):
    client.post("/accounts/login/?next=/inventory/", {"username": "sam", "password": PASSWORD})
    client.post("/accounts/login/", {"username": "sam", "password": "wrong-password-xyz"})
    text = "\n".join(access_log())
    assert PASSWORD not in text and "wrong-password-xyz" not in text and "next=" not in text
    assert [parse(line)[3:6] for line in access_log()] == [("POST", "/accounts/login/", "302"), ("POST", "/accounts/login/", "200")]


def test_anonymous_and_api_token_users(client, staff, access_log):
    from knox.models import AuthToken
    from rest_framework.test import APIClient

    client.get("/accounts/login/")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=staff)[1]}")
    api.get("/api/systems/")
    first, second = (parse(line) for line in access_log())
    assert first[1] == "-" and second[1] == '"sam"' and second[4:6] == ("/api/systems/", "200")


def test_calendar_secret_in_a_path_is_masked(client, staff, access_log):
    secret = calendar_feed_renew(user=staff)
    assert client.get(f"/permits/calendar/{secret}.ics").status_code == 200
    (line,) = access_log()
    assert secret not in line and parse(line)[4] == "/permits/calendar/[secret].ics"


def test_a_forged_newline_stays_on_one_line(client, access_log):
    client.get("/x%0A2026-01-01T00:00:00.000Z user=%22admin%22")
    assert len(access_log()) == 1


def test_the_log_is_private(client, settings, access_log):
    """Private files: the log names who did what, so 0600 in a 0700 directory."""
    client.get("/healthz")
    path = settings.DATA_DIR / "logs" / "access.log"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_client_address_behind_a_proxy(rf, settings):
    """POWTS_PROXY_COUNT: only the X-Forwarded-For entries our own proxies added are believed; text that is
    not an address never reaches the lockout table or the log."""
    from powts.accounts.lockout import client_ip

    forwarded = {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "6.6.6.6, 192.0.2.7"}
    settings.POWTS_PROXY_COUNT = 0
    assert client_ip(rf.get("/", **forwarded)) == "10.0.0.2"
    settings.POWTS_PROXY_COUNT = 1
    assert client_ip(rf.get("/", **forwarded)) == "192.0.2.7"
    assert client_ip(rf.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR='x" user="admin')) == "10.0.0.2"
    assert client_ip(rf.get("/", REMOTE_ADDR="10.0.0.2")) == "10.0.0.2"


def test_lines_written_across_the_rotation_at_midnight_are_all_read_whole(client, staff, access_log):
    """The daily log is renamed at midnight (UTC) and a new one begun: a test running then reads both."""
    import logging

    client.force_login(staff)
    client.get("/inventory/")
    [handler] = [h for h in logging.getLogger("powts.access").handlers if hasattr(h, "doRollover")]
    handler.doRollover()  # what the handler does on the first line after midnight
    client.get("/no-such-page/")
    assert [parse(line)[4:6] for line in access_log()] == [("/inventory/", "200"), ("/no-such-page/", "404")]
