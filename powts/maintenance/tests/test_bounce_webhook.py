"""An email address that bounces, reported by a mail provider's webhook (beside the mailbox
command): a bounce POSTed as JSON and signed with the secret shared with the provider marks the notice bounced
as `powts maintenance bounces read DIR` does; an unsigned, wrongly signed or stale report is refused (403) and
changes nothing; a body that is not a bounce report is a 400 naming the field."""
import json
import time

import pytest

from powts.audit.models import AuditEvent
from powts.maintenance.bounce_webhook import TOLERANCE_SECONDS, signature
from powts.maintenance.models import Notice
from powts.maintenance.tests.test_bounces import emailed  # noqa: F401  (two owners' notices e-mailed in June)

URL = "/api/maintenance/bounces/"
SECRET = "county-and-provider-shared-secret"


@pytest.fixture
def secret(settings):
    settings.POWTS_BOUNCE_WEBHOOK_SECRET = SECRET
    return SECRET


def post(client, body, *, key=SECRET, at=None, sign=True):
    raw = json.dumps(body).encode()
    stamp = str(int(time.time() if at is None else at))
    headers = {"HTTP_X_POWTS_TIMESTAMP": stamp}
    if sign:
        headers["HTTP_X_POWTS_SIGNATURE"] = signature(key, stamp, raw)
    return client.post(URL, raw, content_type="application/json", **headers)


BOUNCE = {"recipient": "Lee@Example.org", "reason": "550 mailbox unavailable", "status": "5.1.1"}


def _bounced():
    return list(Notice.objects.filter(bounced_at__isnull=False).values_list("system__system_id", "bounce_reason"))


def test_a_signed_permanent_bounce_marks_that_owners_notice_as_the_folder_reader_does(emailed, client, secret):  # noqa: F811
    response = post(client, BOUNCE)
    assert response.status_code == 200, response.content
    assert response.json() == {"bounced": 1, "unmatched": [], "not_permanent": []}
    assert _bounced() == [("DA-2", "5.1.1 550 mailbox unavailable")]
    lee = Notice.objects.get(system__system_id="DA-2")
    assert AuditEvent.objects.filter(object_id=lee.pk, action="notice e-mail bounced; the letter went on paper").exists()
    # the provider retries a report: recorded once
    assert post(client, BOUNCE).json() == {"bounced": 0, "unmatched": ["lee@example.org"], "not_permanent": []}


@pytest.mark.parametrize("case", ["no secret set", "unsigned", "wrong secret", "body changed", "too old", "too new"])
def test_a_report_not_signed_with_the_shared_secret_is_refused_and_changes_nothing(emailed, client, settings, case):  # noqa: F811
    """Both sides of the signature check: each of these is a 403 naming the signature, and no notice changes."""
    settings.POWTS_BOUNCE_WEBHOOK_SECRET = "" if case == "no secret set" else SECRET
    events = AuditEvent.objects.count()
    now = time.time()
    if case == "body changed":
        raw = json.dumps(BOUNCE).encode()
        stamp = str(int(now))
        response = client.post(URL, raw.replace(b"Lee@", b"Olive@"), content_type="application/json",
                               HTTP_X_POWTS_TIMESTAMP=stamp, HTTP_X_POWTS_SIGNATURE=signature(SECRET, stamp, raw))
    else:
        at = {"too old": now - TOLERANCE_SECONDS - 5, "too new": now + TOLERANCE_SECONDS + 5}.get(case)
        response = post(client, BOUNCE, key="a-guess" if case == "wrong secret" else SECRET, at=at,
                        sign=case != "unsigned")
    assert response.status_code == 403
    assert "signature" in response.json()["errors"]
    assert _bounced() == [] and AuditEvent.objects.count() == events


def test_a_report_just_inside_the_five_minutes_is_taken(emailed, client, secret):  # noqa: F811
    assert post(client, BOUNCE, at=time.time() - TOLERANCE_SECONDS + 5).status_code == 200
    assert len(_bounced()) == 1


@pytest.mark.parametrize("bounce", [{"recipient": "lee@example.org", "reason": "mailbox full", "status": "4.2.2"},
                                    {"recipient": "lee@example.org", "reason": "deferred", "permanent": False}])
def test_a_temporary_failure_is_no_bounce(emailed, client, secret, bounce):  # noqa: F811
    """As the folder reader: only a permanent failure (5.x.x) marks the notice."""
    response = post(client, bounce)
    assert response.status_code == 200 and response.json()["not_permanent"] == ["lee@example.org"]
    assert _bounced() == []


@pytest.mark.parametrize("body,field", [
    ([BOUNCE, {"recipient": "not-an-address", "reason": "x"}], "recipient"),
    ({"reason": "no recipient"}, "recipient"),
    ({**BOUNCE, "bounced_at": "last Tuesday"}, "bounced_at"),
    ({**BOUNCE, "permanent": "yes"}, "permanent"),
    ([], "body"),
])
def test_a_body_that_is_not_a_bounce_report_is_a_400_naming_the_field_and_records_nothing(emailed, client, secret, body, field):  # noqa: F811
    response = post(client, body)
    assert response.status_code == 400 and field in response.json()["errors"]
    assert _bounced() == []  # the good first bounce of a list with a bad one is not recorded either


def test_a_body_that_is_not_json_is_a_400(client, secret):
    stamp = str(int(time.time()))
    response = client.post(URL, b"not json", content_type="application/json", HTTP_X_POWTS_TIMESTAMP=stamp,
                           HTTP_X_POWTS_SIGNATURE=signature(SECRET, stamp, b"not json"))
    assert response.status_code == 400 and "body" in response.json()["errors"]
