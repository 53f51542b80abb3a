"""The permit's life, from the ordinances: filing, completeness, approval, denial, issuance, expiry,
renewal, transfer, change of plumber, suspension and revocation. Both counties throughout."""
import datetime as dt
from decimal import Decimal

import pytest

from powts.audit.models import AuditEvent
from powts.permits import choices as c
from powts.permits import selectors, services
from powts.permits.errors import PermitRefused
from powts.permits.models import Notice, Permit
from powts.permits.tests.conftest import BAD_PLAN, file_complete, issue, make_parcel, pay_all

D = dt.date
BOTH = pytest.mark.parametrize("county", ["dane", "lincoln"], indirect=True)


def err(exc) -> str:
    return f"{exc.value.message} [{exc.value.citation}]"


# -- who files (Dane s. 46.08(6)(c)) -------------------------------------------------------

@BOTH
def test_master_plumber_files_for_owner_and_is_audited(county, master):
    permit = file_complete(county, master)
    assert permit.status == c.PermitStatus.APPLIED
    assert permit.number == "2026-0001"
    assert AuditEvent.objects.filter(object_id=permit.pk, verb="create", action__contains="filed").exists()
    assert permit.events.filter(step="filed").exists()


@BOTH
def test_journeyman_may_not_file_46_08_6_c(county, journeyman):
    parcel, owner = make_parcel(county)
    with pytest.raises(PermitRefused) as exc:
        services.permit_file(jurisdiction=county, parcel=parcel, owner=owner, plumber=journeyman, filed_on=D(2026, 3, 2))
    assert "master plumber" in err(exc) and exc.value.field == "plumber"
    assert not Permit.objects.exists()  # nothing half-saved


def test_master_plumber_restricted_may_file_dane_46_08_6_c(dane, master2):
    assert file_complete(dane, master2).status == c.PermitStatus.APPLIED


# -- completeness (Lincoln Application Requirements (1)(a)-(m); Dane s. 46.09) ------------

def test_lincoln_missing_items_listed_with_citations(lincoln, master):
    parcel, owner = make_parcel(lincoln)
    parcel.legal_description = ""
    parcel.save()
    permit = services.permit_file(jurisdiction=lincoln, parcel=parcel, owner=owner, plumber=master, filed_on=D(2026, 3, 2))
    missing = {m["id"]: m for m in selectors.missing_items(permit)}
    assert set(missing) == {"b_legal", "c_lot", "e_use", "f_soil", "g_plans", "h_maintenance", "m_fee"}
    assert missing["c_lot"]["citation"] == "Lincoln County Ch. 22 (draft), Application Requirements (1)(c)"
    assert missing["m_fee"]["citation"].endswith("(1)(m)")


def test_lincoln_conditional_items_apply_only_when_flagged(lincoln, master):
    permit = file_complete(lincoln, master)
    assert selectors.missing_items(permit) == []
    permit = services.permit_update_application(permit=permit, data={"state_plan_required": True, "existing_system_on_lot": True})
    ids = [m["id"] for m in selectors.missing_items(permit)]
    assert ids == ["i_not_failing", "k_state"]


def test_dane_missing_items_46_09(dane, master):
    parcel, owner = make_parcel(dane)
    permit = services.permit_file(jurisdiction=dane, parcel=parcel, owner=owner, plumber=master, filed_on=D(2026, 3, 2),
                                  has_pumps=True)
    ids = {m["id"]: m["citation"] for m in selectors.missing_items(permit)}
    assert ids["plans"] == "Dane County Code s. 46.09(1)"
    assert ids["pump_specs"] == "Dane County Code s. 46.09(3)(c)5.a."
    assert ids["reference_points"] == "Dane County Code s. 46.09(3)(c)2."
    assert ids["design_flow"] == "Dane County Code s. 46.09(3)(c)4."
    assert "application_fee" in ids


@BOTH
def test_incomplete_application_cannot_be_approved(county, master):
    permit = file_complete(county, master, pay=False)
    with pytest.raises(PermitRefused) as exc:
        services.permit_approve(permit=permit, on=D(2026, 3, 10))
    assert "incomplete" in err(exc) and "fee" in err(exc)
    permit.refresh_from_db()
    assert permit.status == c.PermitStatus.APPLIED


@BOTH
def test_plot_plan_with_setback_violation_blocks_approval(county, master):
    permit = file_complete(county, master)
    services.permit_set_plot_plan(permit=permit, plot_plan=BAD_PLAN, on=D(2026, 3, 3))
    with pytest.raises(PermitRefused) as exc:
        services.permit_approve(permit=permit, on=D(2026, 3, 10))
    assert "setback" in err(exc) and "3" in err(exc)


def test_invalid_plot_plan_is_refused_naming_the_problem(dane, master):
    permit = file_complete(dane, master)
    with pytest.raises(PermitRefused) as exc:
        services.permit_set_plot_plan(permit=permit, plot_plan={"type": "FeatureCollection", "features": [{"type": "Feature"}]})
    assert exc.value.field == "plot_plan"


@BOTH
def test_hold_lists_what_is_missing_then_resubmit(county, master):
    permit = file_complete(county, master, pay=False)
    notice = services.permit_hold(permit=permit, on=D(2026, 3, 5))
    assert any("fee" in r for r in notice.reasons)
    services.permit_resubmit(permit=permit, on=D(2026, 3, 9))
    assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.APPLIED


# -- denial (Dane s. 46.08(4), (6)(e); Lincoln Permit Denial) -----------------------------

def test_dane_denial_states_reasons_amendments_and_appeal(dane, master):
    permit = file_complete(dane, master)
    with pytest.raises(PermitRefused) as exc:
        services.permit_deny(permit=permit, on=D(2026, 3, 9), reasons=["Soil absorption area in a driveway"])
    assert exc.value.field == "amendments" and "46.08(4)" in err(exc)
    notice = services.permit_deny(permit=permit, on=D(2026, 3, 9), reasons=["Soil absorption area in a driveway"],
                                  amendments=["Move the dispersal area out of the driveway"])
    assert notice.kind == c.NoticeKind.DENIAL and "Ch. 68" in notice.appeal_rights
    assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.DENIED


def test_dane_minor_technical_denial_omits_appeal_notice_46_08_6_e(dane, master):
    permit = file_complete(dane, master)
    notice = services.permit_deny(permit=permit, on=D(2026, 3, 9), reasons=["Drafting error on sheet 2"],
                                  amendments=["Correct sheet 2"], minor_technical=True)
    assert notice.appeal_rights == ""


def test_lincoln_denial_goes_to_plumber_and_owner(lincoln, master):
    permit = file_complete(lincoln, master)
    with pytest.raises(PermitRefused):
        services.permit_deny(permit=permit, on=D(2026, 3, 9), reasons=[])
    notice = services.permit_deny(permit=permit, on=D(2026, 3, 9), reasons=["No soil test on file"])
    assert notice.recipients == ["plumber", "owner"]


def test_dane_half_fee_retained_on_failure_to_correct_46_08_3(dane, master):
    permit = file_complete(dane, master)
    invoice = permit.invoices.get(fee_code="application")
    services.permit_deny(permit=permit, on=D(2026, 4, 9), reasons=["Not corrected in time"], amendments=["Reapply"],
                         failure_to_correct=True)
    invoice.refresh_from_db()
    assert invoice.retained == Decimal("225.00")
    assert invoice.paid == Decimal("225.00")  # 450 paid, 225 refunded


def test_lincoln_has_no_retention_rule(lincoln, master):
    permit = file_complete(lincoln, master)
    services.permit_deny(permit=permit, on=D(2026, 4, 9), reasons=["Not corrected"], failure_to_correct=True)
    assert permit.invoices.get(fee_code="application").retained is None


# -- issuance (fees first), expiry (Dane s. 46.08(8); Lincoln Permit Expiration (1)) --------

@BOTH
def test_not_issued_with_fees_unpaid(county, master):
    permit = file_complete(county, master)
    services.permit_approve(permit=permit, on=D(2026, 3, 10))
    services.invoice_raise(jurisdiction=county, fee_code="plan_revision", on=D(2026, 3, 11), permit=permit)
    with pytest.raises(PermitRefused) as exc:
        services.permit_issue(permit=permit, on=D(2026, 3, 12))
    assert "fees are unpaid" in err(exc)
    pay_all(permit, D(2026, 3, 12))
    services.permit_issue(permit=permit, on=D(2026, 3, 12))
    permit.refresh_from_db()
    assert permit.status == c.PermitStatus.ISSUED and permit.expires_on == D(2028, 3, 12)


@BOTH
def test_expires_day_after_two_years_not_on_the_day(county, master):
    permit = issue(county, master, issued_on=D(2026, 4, 1))
    assert permit.expires_on == D(2028, 4, 1)
    assert services.permits_expire(today=D(2028, 4, 1)) == []          # expiry day: still valid
    assert services.permits_expire(today=D(2028, 4, 2)) == [permit]    # the day after: expired
    assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.EXPIRED


@BOTH
def test_completed_permit_does_not_expire(county, master):
    permit = issue(county, master, issued_on=D(2026, 4, 1))
    permit.status = c.PermitStatus.COMPLETED
    permit.save()
    assert services.permits_expire(today=D(2029, 1, 1)) == []


def test_leap_day_issue_expires_feb_28(dane, master):
    permit = issue(dane, master, issued_on=D(2028, 2, 29), filed_on=D(2028, 2, 1))
    assert permit.expires_on == D(2030, 2, 28)


# -- renewal (Dane s. 46.08(8): at least 2 working days before; Lincoln (2): once, 1 year, before expiry)

def test_dane_renewal_two_working_days_before_expiry(dane, master):
    # issued Fri 2026-05-01 -> expires Mon 2028-05-01; 2 working days before = Thu 2028-04-27
    permit = issue(dane, master, issued_on=D(2026, 5, 1))
    assert permit.expires_on == D(2028, 5, 1)
    with pytest.raises(PermitRefused) as exc:
        services.permit_request_change(permit=permit, kind="renewal", received_on=D(2028, 4, 28))  # 1 working day before
    assert "46.08(8)" in err(exc) and "2028-04-27" in err(exc)
    change = services.permit_request_change(permit=permit, kind="renewal", received_on=D(2028, 4, 27))
    with pytest.raises(PermitRefused) as exc:   # tender of the renewal fee, s. 46.08(5)
        services.permit_grant_change(change=change, on=D(2028, 4, 28))
    pay_all(permit, D(2028, 4, 28))
    services.permit_grant_change(change=change, on=D(2028, 4, 28))
    permit.refresh_from_db()
    assert permit.expires_on == D(2030, 5, 1) and permit.renewals == 1 and permit.code_basis_on == D(2028, 4, 28)


def test_dane_renewal_may_be_renewed_again(dane, master):
    permit = issue(dane, master, issued_on=D(2026, 5, 1))
    for received in (D(2028, 4, 1), D(2030, 4, 1)):
        change = services.permit_request_change(permit=permit, kind="renewal", received_on=received)
        pay_all(permit, received)
        services.permit_grant_change(change=change, on=received)
        permit.refresh_from_db()
    assert permit.renewals == 2


def test_lincoln_renewal_before_expiry_date_once_for_one_year(lincoln, master):
    permit = issue(lincoln, master, issued_on=D(2026, 5, 1))
    with pytest.raises(PermitRefused) as exc:   # on the expiration date itself: not "prior to"
        services.permit_request_change(permit=permit, kind="renewal", received_on=D(2028, 5, 1))
    assert "Permit Expiration (2)" in err(exc)
    change = services.permit_request_change(permit=permit, kind="renewal", received_on=D(2028, 4, 30))  # the day before
    pay_all(permit, D(2028, 4, 30))
    services.permit_grant_change(change=change, on=D(2028, 5, 2))  # decided after expiry; applied on time
    permit.refresh_from_db()
    assert permit.expires_on == D(2029, 5, 1)
    with pytest.raises(PermitRefused) as exc:
        services.permit_request_change(permit=permit, kind="renewal", received_on=D(2029, 1, 2))
    assert "one time" in err(exc)


def test_timely_pending_renewal_holds_off_expiry(lincoln, master):
    permit = issue(lincoln, master, issued_on=D(2026, 5, 1))
    services.permit_request_change(permit=permit, kind="renewal", received_on=D(2028, 4, 30))
    assert services.permits_expire(today=D(2028, 5, 3)) == []


# -- transfer and change of plumber -------------------------------------------------------

@BOTH
def test_transfer_keeps_expiry(county, master):
    permit = issue(county, master, issued_on=D(2026, 4, 1))
    _, new_owner = make_parcel(county, number="X-1", owner_name="New Owner")
    change = services.permit_request_change(permit=permit, kind="transfer", received_on=D(2026, 6, 1), new_owner=new_owner)
    pay_all(permit, D(2026, 6, 1))
    services.permit_add_document(permit=permit, kind="transfer_form", received_on=D(2026, 6, 1))
    services.permit_grant_change(change=change, on=D(2026, 6, 2))
    permit.refresh_from_db()
    assert permit.owner == new_owner and permit.expires_on == D(2028, 4, 1)


@BOTH
def test_plumber_change_only_before_installation(county, master, master2):
    permit = issue(county, master, issued_on=D(2026, 4, 1))
    services.inspection_request(permit=permit, stage=selectors.stages_for(permit)[0].id,
                                notice_at=dt.datetime(2026, 4, 6, 8, 0), requested_day=D(2026, 4, 8))
    with pytest.raises(PermitRefused) as exc:
        services.permit_request_change(permit=permit, kind="plumber_change", received_on=D(2026, 4, 9), new_plumber=master2)
    assert "before the installation" in err(exc)


def test_lincoln_plumber_change_state_plan_needs_stamp_or_new_approval(lincoln, master, master2):
    permit = issue(lincoln, master, issued_on=D(2026, 4, 1), state_plan_required=True, extra_docs=["state_plan_approval"])
    with pytest.raises(PermitRefused) as exc:
        services.permit_request_change(permit=permit, kind="plumber_change", received_on=D(2026, 4, 2), new_plumber=master2)
    assert "Change of Plumbers (2), (3)" in err(exc)
    change = services.permit_request_change(permit=permit, kind="plumber_change", received_on=D(2026, 4, 2),
                                            new_plumber=master2, new_state_approval=True)
    pay_all(permit, D(2026, 4, 2))
    services.permit_add_document(permit=permit, kind="plumber_transfer_form", received_on=D(2026, 4, 2))
    services.permit_grant_change(change=change, on=D(2026, 4, 3))
    assert Permit.objects.get(pk=permit.pk).plumber == master2


def test_dane_plumber_change_needs_no_stamp(dane, master, master2):
    permit = issue(dane, master, issued_on=D(2026, 4, 1))
    services.permit_update_application  # (no change to the application needed)
    change = services.permit_request_change(permit=permit, kind="plumber_change", received_on=D(2026, 4, 2), new_plumber=master2)
    assert change.citation == "Dane County Code s. 46.08(6)(f)2."


# -- suspension and revocation (Dane s. 46.08(7)) -----------------------------------------

def test_dane_suspend_and_revoke_with_written_notice_to_owner(dane, master):
    permit = issue(dane, master, issued_on=D(2026, 4, 1))
    with pytest.raises(PermitRefused):
        services.permit_suspend(permit=permit, on=D(2026, 5, 1), reasons=[])
    notice = services.permit_suspend(permit=permit, on=D(2026, 5, 1), reasons=["Lot size misstated on the application"])
    assert notice.recipients == ["owner"] and "46.08(7)" in notice.citation
    with pytest.raises(PermitRefused):  # no work during a suspension
        services.inspection_request(permit=permit, stage="before_backfill", notice_at=dt.datetime(2026, 5, 4, 8, 0))
    services.permit_revoke(permit=permit, on=D(2026, 5, 8), reasons=["Lot size misstated on the application"])
    assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.REVOKED
    assert Notice.objects.filter(kind=c.NoticeKind.REVOCATION).count() == 1


def test_lincoln_has_no_revocation_rule(lincoln, master):
    permit = issue(lincoln, master, issued_on=D(2026, 4, 1))
    with pytest.raises(PermitRefused) as exc:
        services.permit_revoke(permit=permit, on=D(2026, 5, 8), reasons=["x"])
    assert "no suspension or revocation rule" in err(exc)


@BOTH
def test_bad_moves_name_the_rule(county, master):
    permit = file_complete(county, master)
    with pytest.raises(PermitRefused) as exc:
        services.permit_issue(permit=permit, on=D(2026, 3, 10))
    assert "can be issued only when approved" in err(exc)


def test_transfer_after_installation_began_dane_refused_lincoln_allowed(dane, lincoln, master):
    """Dane s. 46.08(6)(f)1.: transfer form 'prior to the installation'; Lincoln Transfer of Ownership has no such limit."""
    for county, allowed in ((dane, False), (lincoln, True)):
        permit = issue(county, master, issued_on=D(2026, 4, 1))
        stage = selectors.stages_for(permit)[0].id
        services.inspection_request(permit=permit, stage=stage, notice_at=dt.datetime(2026, 4, 6, 8, 0), requested_day=D(2026, 4, 8))
        _, new_owner = make_parcel(county, number=f"T-{county.slug}", owner_name="Buyer")
        if allowed:
            services.permit_request_change(permit=permit, kind="transfer", received_on=D(2026, 4, 9), new_owner=new_owner)
        else:
            with pytest.raises(PermitRefused) as exc:
                services.permit_request_change(permit=permit, kind="transfer", received_on=D(2026, 4, 9), new_owner=new_owner)
            assert "46.08(6)(f)1." in err(exc)


def test_owner_from_another_county_refused(dane, lincoln, master):
    parcel, _ = make_parcel(dane)
    _, other_owner = make_parcel(lincoln, number="O-1")
    with pytest.raises(PermitRefused) as exc:
        services.permit_file(jurisdiction=dane, parcel=parcel, owner=other_owner, plumber=master, filed_on=D(2026, 3, 2))
    assert exc.value.field == "owner"


def test_unknown_document_kind_refused(dane, master):
    permit = file_complete(dane, master)
    with pytest.raises(PermitRefused) as exc:
        services.permit_add_document(permit=permit, kind="plans")
    assert "system_plans" in err(exc)


def test_dane_may_require_onsite_inspection_on_renewal_46_08_5_lincoln_not(dane, lincoln, master):
    for county, allowed in ((dane, True), (lincoln, False)):
        permit = issue(county, master, issued_on=D(2026, 5, 1))
        change = services.permit_request_change(permit=permit, kind="renewal", received_on=D(2028, 4, 1))
        pay_all(permit, D(2028, 4, 1))
        if allowed:
            services.permit_grant_change(change=change, on=D(2028, 4, 2), require_onsite_inspection=True)
            assert "on-site inspection" in permit.events.last().summary
        else:
            with pytest.raises(PermitRefused):
                services.permit_grant_change(change=change, on=D(2028, 4, 2), require_onsite_inspection=True)


# -- Lincoln Application Requirements (1)(j): recorded documents ------------------------------

def test_lincoln_1_j_recording_must_be_verified_not_just_a_copy(lincoln, master):
    """Lincoln Application Requirements (1)(j): "verification that they have been recorded" needs the recording verified
    (number and date, by staff); a copy of the document, even one the applicant marks recorded, is not enough."""
    permit = file_complete(lincoln, master)
    permit = services.permit_update_application(permit=permit, data={"recording_required": True})
    doc = services.permit_add_document(permit=permit, kind="recorded_documents", received_on=D(2026, 3, 3), recorded=True)
    assert [m["id"] for m in selectors.missing_items(permit)] == ["j_recorded"]
    with pytest.raises(PermitRefused) as exc:
        services.document_verify_recording(document=doc, recording_number=" ", recorded_on=D(2026, 3, 1))
    assert exc.value.field == "recording_number"
    services.document_verify_recording(document=doc, recording_number="DOC 1234567", recorded_on=D(2026, 3, 1),
                                       verified_on=D(2026, 3, 4))
    assert selectors.missing_items(permit) == []
    doc.refresh_from_db()
    assert doc.recording_number == "DOC 1234567" and doc.recorded_on == D(2026, 3, 1)
    assert AuditEvent.objects.filter(object_id=doc.pk, action__contains="recording of Recorded documents (easement, affidavit, deed restriction) verified").exists()
