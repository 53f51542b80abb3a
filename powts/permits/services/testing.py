"""Component tests: the plumber's notice (given like an inspection notice), the county's verification
(inspection during the test, written results, or both), and no final approval while a noticed test is unverified.
The rules are the profile's permits.yaml `testing` section."""
from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from powts.audit.services import audit_create, audit_update, snapshot
from powts.calendars import CalendarError, deadline, review_request
from powts.permits import choices as c
from powts.permits import rules
from powts.permits.models import ComponentTest, Permit
from powts.permits.services._common import _event, _lock, checked, refuse


def _rules(permit: Permit) -> dict:
    testing = rules.section(permit.slug, "testing")
    if not testing.get("notice"):
        refuse(f"the {permit.jurisdiction.name} profile has no rule on component testing", field="component")
    return testing


@transaction.atomic
def component_test_notify(*, permit: Permit, component: str, notice_at: dt.datetime, requested_day: dt.date | None = None,
                          tester=None) -> ComponentTest:
    permit = _lock(permit)
    testing = _rules(permit)
    notice_rule = testing["notice"]
    component = (component or "").strip()
    if not component or len(component) > 200:
        refuse("component is required: what is tested (at most 200 characters)", notice_rule["citation"], "component")
    if permit.status != c.PermitStatus.ISSUED:
        refuse(f"tests are noticed for an issued permit; permit {permit.number} is {permit.get_status_display().lower()}",
               notice_rule["citation"])
    who = testing.get("tester")
    if who:
        if tester is None or tester.kind not in who["license_kinds"]:
            refuse("the test is performed by a properly licensed individual: give the license of a "
                   + " or ".join(k.replace("_", " ") for k in who["license_kinds"]), who["citation"], "tester_license")
        if tester.expires_on and tester.expires_on < (requested_day or notice_at.date()):
            refuse(f"license {tester.number} expired on {tester.expires_on.isoformat()}", who["citation"], "tester_license")
    if timezone.is_naive(notice_at):
        notice_at = timezone.make_aware(notice_at)
    try:  # "in the same manner as notification for system inspections": the county's inspection notice rules
        decision = review_request(permit.slug, notice_at, system=permit.system_type, requested_day=requested_day)
    except CalendarError as exc:
        refuse(str(exc), field="requested_day")
    if not decision.allowed:
        refuse("; ".join(f"{f.message} [{f.citation}]" for f in decision.refusals), field="requested_day")
    day = decision.requested_day
    due = deadline(permit.slug, "inspection", notice_at, system=permit.system_type, requested_day=day)
    test = ComponentTest(permit=permit, component=component, notice_at=notice_at, requested_day=day, deadline_day=due.day,
                         tester=tester, citation=notice_rule["citation"])
    checked(test)
    test.save()
    audit_create(test, action=f"test of {component} noticed for {day.isoformat()}")
    _event(permit, step="test_noticed", on=notice_at.date(), citation=notice_rule["citation"],
           summary=f"Test of {component} noticed for {day:%A %Y-%m-%d}; the county may inspect during the test")
    return test


@transaction.atomic
def component_test_verify(*, test: ComponentTest, method: str, passed: bool, on: dt.date, results: str = "") -> ComponentTest:
    test = ComponentTest.objects.select_for_update().select_related("permit__jurisdiction").get(pk=test.pk)
    rule = _rules(test.permit)["verification"]
    if test.verification:
        refuse("this test is already verified", rule["citation"], "method")
    if method not in rule["methods"]:
        refuse(f"method must be one of {', '.join(rule['methods'])}", rule["citation"], "method")
    results = (results or "").strip()
    if method in (c.TestVerification.WRITTEN, c.TestVerification.BOTH) and not results:
        refuse("written verification carries the test results", rule["citation"], "results")
    if on < test.requested_day:
        refuse(f"verified_on {on.isoformat()} is before the test day {test.requested_day.isoformat()}", field="on")
    before = snapshot(test, ["verification", "passed", "verified_on", "results"])
    test.verification, test.passed, test.verified_on, test.results = method, passed, on, results
    test.save()
    label = c.TestVerification(method).label.lower()
    audit_update(test, before=before, action=f"test of {test.component} verified ({label}): {'passed' if passed else 'failed'}")
    _event(test.permit, step="test_verified", on=on, citation=rule["citation"],
           summary=f"Test of {test.component} verified, {label}: {'passed' if passed else 'failed'}"
                   + (f" ({results})" if results else ""))
    return test


def tests_blocking_final_approval(permit: Permit) -> tuple[list[ComponentTest], str]:
    """Noticed tests not verified as passed, and the citation that holds the final approval for them."""
    rule = rules.section(permit.slug, "testing").get("before_final_approval")
    if not rule:
        return [], ""
    open_tests = [t for t in permit.component_tests.all() if not t.verification or not t.passed]
    return open_tests, rule["citation"]
