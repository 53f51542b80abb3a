"""Sign-in and tokens: "the iCalendar feed gets its own revocable per-user secret URL" (finding: the feed took
the API token in its URL)."""
import re

from powts.accounts.models import CalendarFeed
from powts.accounts.services import calendar_feed_renew, calendar_feed_revoke, password_change


def feed(client, secret):
    return client.get(f"/permits/calendar/{secret}.ics")


def test_secret_address_serves_the_feed_without_signing_in(client, staff):
    secret = calendar_feed_renew(user=staff)
    r = feed(client, secret)
    assert r.status_code == 200 and r["Content-Type"].startswith("text/calendar") and b"BEGIN:VCALENDAR" in r.content
    assert not CalendarFeed.objects.filter(digest=secret).exists()  # only its digest is stored
    assert CalendarFeed.objects.get(user=staff).digest == CalendarFeed.digest_of(secret)


def test_unknown_renewed_and_revoked_secrets_are_404(client, staff):
    assert feed(client, "not-a-secret").status_code == 404
    old = calendar_feed_renew(user=staff)
    new = calendar_feed_renew(user=staff)
    assert feed(client, old).status_code == 404 and feed(client, new).status_code == 200
    calendar_feed_revoke(user=staff)
    assert feed(client, new).status_code == 404


def test_password_change_revokes_the_address(client, staff):
    secret = calendar_feed_renew(user=staff)
    password_change(user=staff, password="another-long-password-2")
    assert feed(client, secret).status_code == 404


def test_inactive_account_feed_is_404(client, staff):
    secret = calendar_feed_renew(user=staff)
    staff.is_active = False
    staff.save(update_fields=["is_active"])
    assert feed(client, secret).status_code == 404


def test_account_page_makes_shows_once_and_stops_the_address(client, staff):
    client.force_login(staff)
    assert "You have no calendar address" in client.get("/accounts/me/").content.decode()
    page = client.post("/accounts/me/calendar/new/").content.decode()
    url = re.search(r'<code id="calendar-address">(.*?)</code>', page).group(1)
    path = url.removeprefix("http://testserver")
    client.logout()
    assert client.get(path).status_code == 200
    client.force_login(staff)
    again = client.get("/accounts/me/").content.decode()
    assert url not in again and "You have a calendar address" in again
    client.post("/accounts/me/calendar/revoke/")
    client.logout()
    assert client.get(path).status_code == 404


def test_account_actions_need_sign_in_and_post(client, staff):
    assert client.get("/accounts/me/").status_code == 302
    assert client.post("/accounts/me/calendar/new/").status_code == 302
    client.force_login(staff)
    assert client.get("/accounts/me/calendar/new/").status_code == 405
    assert not CalendarFeed.objects.exists()
