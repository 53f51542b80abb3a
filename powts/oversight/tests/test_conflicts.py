"""A county's recusal policy (its profile's oversight.yaml `recusal`, cited "Dane County policy"): a county employee
who reviews, inspects or approves steps aside where they, their firm or a relative named on their record is the owner,
plumber, soil tester or pumper. Wis. Stat. s. 145.20(6) has no such rule: it bars an employee's own certified work,
installing, designing, maintaining, repairing or selling in the county and adjacent counties (test_employee_work_nearby).
One check (powts.accounts.conflicts) in every reviewing service; the county administrator reassigns."""
import datetime as dt

import pytest

from powts.accounts.conflicts import ConflictRefused
from powts.accounts.models import Relative
from powts.accounts.services import license_create
from powts.permits import services as permits
from powts.permits.models import Permit
from powts.permits.services import site
from powts.permits.selectors import stages_for
from powts.permits.tests.conftest import file_complete, issue, make_parcel
from powts.permits.tests.test_site_and_enforcement import good_area

D = dt.date


@pytest.fixture
def reviewer(make_user, dane):
    return make_user("rene", "county_staff", dane, first_name="Rene", last_name="Reviewer")


@pytest.mark.parametrize("how", ["relative_owner", "firm_plumber", "self_owner"])
def test_approval_is_refused_under_the_county_recusal_policy_where_the_reviewer_has_an_interest(dane, master, reviewer, as_user, how):
    permit = file_complete(dane, master)
    if how == "relative_owner":
        Relative.objects.create(user=reviewer, name=permit.owner.name.upper(), relationship="sister")
    elif how == "firm_plumber":
        master.business_name = "Plumber Bros., LLC"
        master.save()
        reviewer.firm_name = "plumber bros llc"
        reviewer.save()
    else:
        permit.owner.user = reviewer
        permit.owner.save()
    with as_user(reviewer), pytest.raises(ConflictRefused) as exc:
        permits.permit_approve(permit=permit, on=D(2026, 4, 1))
    assert exc.value.citation == "Dane County policy" and "reassign" in exc.value.message
    assert Permit.objects.get(pk=permit.pk).status == "applied"


def test_a_colleague_without_interest_approves(dane, master, reviewer, make_user, as_user):
    permit = file_complete(dane, master)
    Relative.objects.create(user=reviewer, name="Somebody Else")
    with as_user(reviewer):
        assert permits.permit_approve(permit=permit, on=D(2026, 4, 1)).status == "approved"


def test_contractors_are_not_county_employees(dane, master, plumber_user, as_user):
    """The county's recusal policy binds its employees: the plumber filing their own permit is not refused by it."""
    permit = file_complete(dane, master)
    from powts.accounts.conflicts import conflict, permit_parties

    assert conflict(plumber_user, permit_parties(permit)) is None


def test_inspection_result_and_soil_verification_are_checked(dane, master, reviewer, as_user):
    permit = issue(dane, master)
    inspection = permits.inspection_request(permit=permit, stage=stages_for(permit)[0].id,
                                            notice_at=dt.datetime(2026, 4, 6, 9, tzinfo=dt.timezone.utc))
    Relative.objects.create(user=reviewer, name="Pete Plumber", relationship="brother")
    with as_user(reviewer), pytest.raises(ConflictRefused, match="your relative"):
        permits.inspection_record(inspection=inspection, result="passed", on=inspection.requested_day)
    tester = license_create(kind="soil_tester", number="CST-9", holder_name="Pete Plumber")
    parcel, _ = make_parcel(dane, number="SOIL-1")
    ev = site.soil_evaluation_file(jurisdiction=dane, parcel=parcel, soil_tester=tester, fieldwork_completed_on=D(2026, 5, 1),
                                   filed_on=D(2026, 5, 2), areas=[good_area(), good_area(name="R", replacement=True)])
    with as_user(reviewer), pytest.raises(ConflictRefused, match="soil tester"):
        site.soil_evaluation_verify(evaluation=ev, outcome="deny", on=D(2026, 5, 3), note="unclear")


def test_report_acceptance_is_checked(dane, reviewer, as_user, make_system, pumper_license, file_report):
    from powts.maintenance.models import Report
    from powts.maintenance.services import report_match

    report = file_report(dane, system_id="NOT-YET")  # queued: the system is not in the inventory
    system = make_system("DA-5")
    Relative.objects.create(user=reviewer, name="Perry Pumper")
    with as_user(reviewer), pytest.raises(ConflictRefused, match="pumper"):
        report_match(report=report, system=system)
    assert Report.objects.get(pk=report.pk).system_id is None


def test_the_administrator_reassigns_and_a_conflicted_colleague_is_refused(dane, master, reviewer, make_user, as_user):
    from powts.oversight.services import conflict_reassign

    permit = issue(dane, master)
    inspection = permits.inspection_request(permit=permit, stage=stages_for(permit)[0].id,
                                            notice_at=dt.datetime(2026, 4, 6, 9, tzinfo=dt.timezone.utc))
    Relative.objects.create(user=reviewer, name="Pete Plumber")
    colleague = make_user("cora", "county_staff", dane)
    with pytest.raises(ConflictRefused):
        conflict_reassign(inspection=inspection, to_user=reviewer, reason="rota")
    assert conflict_reassign(inspection=inspection, to_user=colleague, reason="conflict of interest").inspector == colleague
    with as_user(colleague):
        assert permits.inspection_record(inspection=inspection, result="passed", on=inspection.requested_day).result == "passed"


def test_the_administrator_records_firm_and_relatives_on_the_employees_record(client, dane, master, reviewer, make_user, as_user):
    """The county's recusal policy: the firm and relatives are on the person's record (accounts), kept from the user page."""
    admin = make_user("ada", "county_admin", dane)
    client.force_login(admin)
    response = client.post(f"/accounts/users/{reviewer.pk}/edit/", {
        "role": "county_staff", "is_active": "on", "firm_name": "Plumber Bros LLC",
        "relatives": "Pat Owner; sister\nJo Cousin", "reason": "conflict declaration", "version": reviewer.version})
    assert response.status_code == 302
    reviewer.refresh_from_db()
    assert reviewer.firm_name == "Plumber Bros LLC"
    assert sorted(reviewer.relatives.values_list("name", "relationship")) == [("Jo Cousin", ""), ("Pat Owner", "sister")]
    permit = file_complete(dane, master)  # owned by Pat Owner
    with as_user(reviewer), pytest.raises(ConflictRefused, match=r"your relative \(sister\), Pat Owner"):
        permits.permit_approve(permit=permit, on=D(2026, 4, 1))
    client.post(f"/accounts/users/{reviewer.pk}/edit/", {"role": "county_staff", "is_active": "on", "firm_name": "",
                                                          "relatives": "Jo Cousin", "reason": "sister moved",
                                                          "version": reviewer.version})
    assert list(reviewer.relatives.values_list("name", flat=True)) == ["Jo Cousin"]
    with as_user(reviewer):
        assert permits.permit_approve(permit=permit, on=D(2026, 4, 1)).status == "approved"


def test_recusal_is_cited_as_each_countys_policy_and_not_as_145_20_6():
    """Neither county text has a recusal rule and s. 145.20(6) names no relatives or firms: each county's profile
    cites its own policy; the state minimum has none."""
    from powts.oversight.profile import oversight_profile

    assert oversight_profile("dane").recusal_citation == "Dane County policy"
    assert oversight_profile("lincoln").recusal_citation == "Lincoln County policy"
    assert oversight_profile("state").recusal_citation == ""
    for slug in ("dane", "lincoln", "state"):
        assert "145.20(6)" not in oversight_profile(slug).recusal_citation


def test_a_county_without_the_recusal_policy_does_not_refuse(dane, master, reviewer, as_user, monkeypatch):
    """A county setting, not a statute: where the county's profile has no recusal, a relative's permit is approved."""
    from powts.accounts import conflicts

    permit = file_complete(dane, master)
    Relative.objects.create(user=reviewer, name=permit.owner.name, relationship="sister")
    monkeypatch.setattr(conflicts, "recusal_citation", lambda user: "")
    with as_user(reviewer):
        assert permits.permit_approve(permit=permit, on=D(2026, 4, 1)).status == "approved"


def test_a_recusal_setting_without_a_citation_does_not_load():
    from powts.kernel.profiles import ProfileError
    from powts.oversight.profile import _recusal

    with pytest.raises(ProfileError, match="recusal"):
        _recusal({"applies": True}, "x/oversight.yaml")
    with pytest.raises(ProfileError, match="applies"):
        _recusal({"applies": "yes", "citation": "X County policy"}, "x/oversight.yaml")
    assert _recusal({"applies": False, "citation": "X County policy"}, "x/oversight.yaml") == ""
