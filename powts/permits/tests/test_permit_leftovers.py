"""Delayed connection (Dane s. 46.07(1)(b)), transfer forms (Dane s. 46.08(6)(f)1.;
Lincoln Transfer of Ownership (1), Change of Plumbers (1)), appeals to the board (Dane s. 46.04(1)), and the
nonplumbing limits (Lincoln Limitations and Allowable Uses (6)-(7)(a))."""
import datetime as dt

import pytest

from powts.audit.models import AuditEvent
from powts.kernel.dates import add_years
from powts.permits import choices as c
from powts.permits import services
from powts.permits.errors import PermitRefused
from powts.permits.models import Appeal, Permit
from powts.permits.tests.conftest import file_complete, issue, make_parcel, pay_all

D = dt.date
BOTH = pytest.mark.parametrize("county", ["dane", "lincoln"], indirect=True)


def err(exc) -> str:
    return f"{exc.value.message} [{exc.value.citation}]"


def completed(county, master, on=D(2026, 6, 1)):
    permit = issue(county, master)
    Permit.objects.filter(pk=permit.pk).update(status=c.PermitStatus.COMPLETED, completed_on=on)
    return Permit.objects.get(pk=permit.pk)


# -- delayed connection (Dane s. 46.07(1)(b)) ------------------------------------------------------------

def test_dane_46_07_1_b_connection_on_the_anniversary_is_allowed(dane, master):
    permit = completed(dane, master)
    services.permit_record_connection(permit=permit, connected_on=add_years(permit.completed_on, 1))
    assert Permit.objects.get(pk=permit.pk).connected_on == D(2027, 6, 1)
    assert AuditEvent.objects.filter(object_id=permit.pk, action__contains="structure connected").exists()


def test_dane_46_07_1_b_connection_a_day_after_the_year_needs_a_new_permit(dane, master):
    permit = completed(dane, master)
    with pytest.raises(PermitRefused) as exc:
        services.permit_record_connection(permit=permit, connected_on=D(2027, 6, 2))
    assert "Dane County Code s. 46.07(1)(b)" in err(exc) and "new sanitary permit" in err(exc)
    assert Permit.objects.get(pk=permit.pk).connected_on is None


def test_lincoln_text_sets_no_connection_period(lincoln, master):
    permit = completed(lincoln, master)
    services.permit_record_connection(permit=permit, connected_on=D(2029, 6, 2))


def test_connection_needs_a_completed_system(dane, master):
    permit = issue(dane, master)
    with pytest.raises(PermitRefused) as exc:
        services.permit_record_connection(permit=permit, connected_on=D(2026, 6, 2))
    assert exc.value.field == "connected_on"


# -- transfer forms (Dane s. 46.08(6)(f)1.; Lincoln Transfer of Ownership (1), Change of Plumbers (1)) ------

@BOTH
def test_transfer_is_granted_only_with_the_transfer_form_which_may_come_after_issue(county, master):
    permit = issue(county, master)
    _, new_owner = make_parcel(county, number="T-1", owner_name="New Owner")
    change = services.permit_request_change(permit=permit, kind="transfer", received_on=D(2026, 5, 1), new_owner=new_owner)
    pay_all(permit, D(2026, 5, 1))
    with pytest.raises(PermitRefused) as exc:
        services.permit_grant_change(change=change, on=D(2026, 5, 2))
    assert "transfer form" in exc.value.message and exc.value.citation.endswith(
        {"dane": "s. 46.08(6)(f)1.", "lincoln": "Transfer of Ownership (1)"}[county.slug])
    assert Permit.objects.get(pk=permit.pk).owner != new_owner
    services.permit_add_document(permit=permit, kind="transfer_form", received_on=D(2026, 5, 2))  # issued: still attachable
    services.permit_grant_change(change=change, on=D(2026, 5, 2))
    assert Permit.objects.get(pk=permit.pk).owner == new_owner


def test_lincoln_change_of_plumbers_1_needs_the_form_signed_by_the_new_plumber_dane_does_not(dane, lincoln, master, master2):
    for county, needs in ((lincoln, True), (dane, False)):
        permit = issue(county, master)
        change = services.permit_request_change(permit=permit, kind="plumber_change", received_on=D(2026, 4, 2),
                                                new_plumber=master2)
        pay_all(permit, D(2026, 4, 2))
        if needs:
            with pytest.raises(PermitRefused) as exc:
                services.permit_grant_change(change=change, on=D(2026, 4, 3))
            assert "Change of Plumbers (1)" in err(exc)
            services.permit_add_document(permit=permit, kind="plumber_transfer_form", received_on=D(2026, 4, 3))
        services.permit_grant_change(change=change, on=D(2026, 4, 3))
        assert Permit.objects.get(pk=permit.pk).plumber == master2


def test_dane_46_08_6_f_1_sale_without_transfer_form_invalidates_the_permit(dane, master):
    permit = issue(dane, master)
    services.permit_void_for_missing_transfer(permit=permit, on=D(2026, 5, 1), new_owner_name="Buyer B")
    permit.refresh_from_db()
    assert permit.status == c.PermitStatus.VOID
    assert permit.events.filter(step="void", citation="Dane County Code s. 46.08(6)(f)1.").exists()
    with pytest.raises(PermitRefused):  # a void permit takes no inspection
        services.inspection_request(permit=permit, stage="final", notice_at=dt.datetime(2026, 5, 4, 8),
                                    requested_day=D(2026, 5, 5))


def test_dane_void_refused_when_the_transfer_form_is_on_file(dane, master):
    permit = issue(dane, master)
    services.permit_add_document(permit=permit, kind="transfer_form", received_on=D(2026, 5, 1))
    with pytest.raises(PermitRefused) as exc:
        services.permit_void_for_missing_transfer(permit=permit, on=D(2026, 5, 1), new_owner_name="Buyer B")
    assert "transfer form is on file" in exc.value.message
    assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.ISSUED


def test_lincoln_text_does_not_void_for_a_missing_form(lincoln, master):
    permit = issue(lincoln, master)
    with pytest.raises(PermitRefused) as exc:
        services.permit_void_for_missing_transfer(permit=permit, on=D(2026, 5, 1), new_owner_name="Buyer B")
    assert "does not make a permit invalid" in exc.value.message
    assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.ISSUED


# -- appeals to the board (Dane s. 46.04(1)) ------------------------------------------------------------

def test_dane_46_04_1_appeal_of_a_denial_is_filed_heard_and_decided(dane, master):
    permit = file_complete(dane, master)
    notice = services.permit_deny(permit=permit, on=D(2026, 4, 1), reasons=["site unsuitable"], amendments=["none"])
    appeal = services.appeal_file(permit=permit, filed_on=D(2026, 4, 10), appellant="Pat Owner", notice=notice)
    assert appeal.body == "Board of Health for Madison and Dane County" and appeal.citation == "Dane County Code s. 46.04(1)"
    assert "Notice of denial" in appeal.decision
    with pytest.raises(PermitRefused) as exc:  # decided only after its hearing
        services.appeal_decide(appeal=appeal, outcome="upheld", decided_on=D(2026, 5, 1))
    assert exc.value.field == "outcome"
    with pytest.raises(PermitRefused) as exc:
        services.appeal_schedule(appeal=appeal, hearing_on=D(2026, 4, 9))
    assert exc.value.field == "hearing_on"
    services.appeal_schedule(appeal=appeal, hearing_on=D(2026, 5, 12))
    services.appeal_decide(appeal=appeal, outcome="reversed", decided_on=D(2026, 5, 12), note="soil verified again")
    appeal.refresh_from_db()
    assert (appeal.hearing_on, appeal.outcome, appeal.decided_on) == (D(2026, 5, 12), "reversed", D(2026, 5, 12))
    assert [e.step for e in permit.events.filter(step__startswith="appeal")] == ["appeal_filed", "appeal_hearing",
                                                                                 "appeal_decided"]
    with pytest.raises(PermitRefused):
        services.appeal_decide(appeal=appeal, outcome="upheld", decided_on=D(2026, 5, 13))


def test_appeal_needs_an_appellant_and_a_decision_nothing_saved(dane, master):
    permit = file_complete(dane, master)
    with pytest.raises(PermitRefused) as exc:
        services.appeal_file(permit=permit, filed_on=D(2026, 4, 10), appellant=" ", decision="the hold")
    assert exc.value.field == "appellant"
    with pytest.raises(PermitRefused) as exc:
        services.appeal_file(permit=permit, filed_on=D(2026, 4, 10), appellant="Pat")
    assert exc.value.field == "decision"
    assert not Appeal.objects.exists()


def test_lincoln_text_on_record_names_no_appeal_body(lincoln, master):
    permit = file_complete(lincoln, master)
    with pytest.raises(PermitRefused) as exc:
        services.appeal_file(permit=permit, filed_on=D(2026, 4, 10), appellant="Pat", decision="denial")
    assert "names no appeal body" in exc.value.message and not Appeal.objects.exists()


# -- nonplumbing systems (Lincoln Limitations and Allowable Uses (6)-(7)(a)) -------------------------------

def _container(lincoln, master, gallons, docs=("product_approval", "management_plan", "campground_permit")):
    return file_complete(lincoln, master, kind="nonplumbing", nonplumbing_kind="rv_transfer_container",
                         container_gallons=gallons, extra_docs=list(docs))


def test_lincoln_7_a_transfer_container_outside_a_permitted_campground_is_refused(lincoln, master):
    """Lincoln Limitations and Allowable Uses (7): transfer containers "are prohibited unless they are located within a
    campground permitted by the Lincoln County Health Department": without the campground's permit the application
    is not approved (and stays under review); with it, it is."""
    permit = _container(lincoln, master, 300, docs=("product_approval", "management_plan"))
    with pytest.raises(PermitRefused) as exc:
        services.permit_approve(permit=permit, on=D(2026, 4, 1))
    assert "Limitations and Allowable Uses (7)" in err(exc) and "campground" in err(exc)
    assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.APPLIED
    services.permit_add_document(permit=permit, kind="campground_permit", received_on=D(2026, 4, 1))
    services.permit_approve(permit=Permit.objects.get(pk=permit.pk), on=D(2026, 4, 1))
    assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.APPROVED


def test_the_campground_condition_is_lincolns_only(dane, master):
    """Dane's text (s. 46.06(6)) has no campground condition: a Dane container needs no campground permit to file."""
    permit = file_complete(dane, master, kind="nonplumbing", nonplumbing_kind="rv_transfer_container", container_gallons=200)
    from powts.permits.selectors import missing_items

    assert not any("campground" in str(m).lower() for m in missing_items(permit))


def test_lincoln_7_a_transfer_container_of_300_gallons_is_approved(lincoln, master):
    services.permit_approve(permit=_container(lincoln, master, 300), on=D(2026, 4, 1))


def test_lincoln_7_a_transfer_container_of_301_gallons_is_refused(lincoln, master):
    permit = _container(lincoln, master, 301)
    with pytest.raises(PermitRefused) as exc:
        services.permit_approve(permit=permit, on=D(2026, 4, 1))
    assert "Limitations and Allowable Uses (7)(a)" in err(exc) and exc.value.field == "container_gallons"


def test_lincoln_sanitary_permits_7_portable_restroom_needs_product_approval_and_management_plan(lincoln, master):
    permit = file_complete(lincoln, master, kind="nonplumbing", nonplumbing_kind="portable_restroom")
    with pytest.raises(PermitRefused) as exc:
        services.permit_approve(permit=permit, on=D(2026, 4, 1))
    assert "Sanitary Permits (7)" in err(exc)


def test_lincoln_6_portable_restroom_permit_is_annual_dane_privy_runs_two_years(dane, lincoln, master):
    restroom = issue(lincoln, master, kind="nonplumbing", nonplumbing_kind="portable_restroom",
                     extra_docs=["product_approval", "management_plan"])
    assert restroom.expires_on == D(2027, 4, 1)
    assert restroom.events.filter(step="issued", citation__contains="Limitations and Allowable Uses (6)").exists()
    privy = issue(dane, master, kind="nonplumbing", nonplumbing_kind="privy")
    assert privy.expires_on == D(2028, 4, 1)


def test_lincoln_6_portable_restroom_for_30_days_needs_no_permit_31_days_does(lincoln, dane, master):
    """Lincoln Limitations and Allowable Uses (6): no permit when placement will not exceed thirty (30) days."""
    parcel, owner = make_parcel(lincoln, number="PR-1")
    with pytest.raises(PermitRefused) as exc:
        services.permit_file(jurisdiction=lincoln, parcel=parcel, owner=owner, plumber=master, filed_on=D(2026, 5, 1),
                             kind="nonplumbing", nonplumbing_kind="portable_restroom", placement_days=30)
    assert "Limitations and Allowable Uses (6)" in err(exc) and exc.value.field == "placement_days"
    assert not Permit.objects.exists()  # no application, no fee
    permit = services.permit_file(jurisdiction=lincoln, parcel=parcel, owner=owner, plumber=master, filed_on=D(2026, 5, 1),
                                  kind="nonplumbing", nonplumbing_kind="portable_restroom", placement_days=31)
    assert permit.placement_days == 31
    dane_parcel, dane_owner = make_parcel(dane, number="PR-2")  # Dane's text has no such exemption
    services.permit_file(jurisdiction=dane, parcel=dane_parcel, owner=dane_owner, plumber=master, filed_on=D(2026, 5, 1),
                         kind="nonplumbing", nonplumbing_kind="portable_restroom", placement_days=3)
