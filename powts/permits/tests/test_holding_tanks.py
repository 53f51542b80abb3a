"""Holding tanks. Dane s. 46.06(5)(a)-(d); Lincoln, Holding Tank Maintenance Agreement (1)-(3)
and Maintenance and Management (3)-(4). Both sides of 3,000 gpd, 10 business days and 12 months."""
import datetime as dt

import pytest

from powts.accounts.services import license_create
from powts.kernel.dates import add_months
from powts.permits import choices as c
from powts.permits import selectors, services
from powts.permits.errors import PermitRefused
from powts.permits.models import Permit, SoilEvaluation
from powts.permits.tests.conftest import file_complete

D = dt.date
DANE_HT_DOCS = ["servicing_contract"]
LINCOLN_HT_DOCS = ["holding_tank_agreement", "servicing_contract"]


def err(exc) -> str:
    return f"{exc.value.message} [{exc.value.citation}]"


def soil(permit, verification):
    tester = license_create(kind="soil_tester", number=f"CST-{SoilEvaluation.objects.count()}", holder_name="Sam Soil")
    ev = SoilEvaluation.objects.create(jurisdiction=permit.jurisdiction, parcel=permit.parcel, soil_tester=tester,
                                       fieldwork_completed_on=D(2026, 2, 20), filed_on=D(2026, 2, 25),
                                       verification=verification)
    return services.permit_update_application(permit=permit, data={"soil_evaluation": ev})


def record(permit, kind, on=D(2026, 4, 1)):
    doc = permit.documents.filter(kind=kind).first() or services.permit_add_document(permit=permit, kind=kind,
                                                                                     received_on=on, recorded=True)
    services.document_verify_recording(document=doc, recording_number=f"R-{doc.pk}", recorded_on=on, verified_on=on)


def dane_tank(dane, master, *, flow=450, docs=DANE_HT_DOCS, verification=c.SoilVerification.DENY, **kw):
    permit = file_complete(dane, master, holding_tank=True, design_flow_gpd=flow, extra_docs=docs, **kw)
    return soil(permit, verification) if verification else permit


def issue_dane_tank(permit, on=D(2026, 4, 1)):
    services.permit_approve(permit=permit, on=on)
    record(Permit.objects.get(pk=permit.pk), "maintenance_notice", on)
    services.permit_issue(permit=permit, on=on)
    return Permit.objects.get(pk=permit.pk)


# -- approval conditions (Dane s. 46.06(5)(a)2.) ------------------------------------------------------

@pytest.mark.parametrize("verification,ok", [(c.SoilVerification.PENDING, False), (c.SoilVerification.ISSUE, False),
                                             (c.SoilVerification.FILE, False), (c.SoilVerification.DENY, True)])
def test_dane_46_06_5_a_2_holding_tank_only_where_verification_found_no_suitable_soil(dane, master, verification, ok):
    permit = dane_tank(dane, master, verification=verification)
    if ok:
        services.permit_approve(permit=permit, on=D(2026, 4, 1))
        assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.APPROVED
    else:
        with pytest.raises(PermitRefused) as exc:
            services.permit_approve(permit=permit, on=D(2026, 4, 1))
        assert "Dane County Code s. 46.06(5)(a)2." in err(exc)
        assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.APPLIED


def test_lincoln_text_sets_no_soil_verification_for_holding_tanks(lincoln, master):
    permit = file_complete(lincoln, master, holding_tank=True, extra_docs=LINCOLN_HT_DOCS)
    services.permit_approve(permit=permit, on=D(2026, 4, 1))


# -- DNR approval above 3,000 gpd (Dane s. 46.06(5)(c)) -----------------------------------------------

def test_dane_46_06_5_c_3000_gpd_needs_no_dnr_approval(dane, master):
    services.permit_approve(permit=dane_tank(dane, master, flow=3000), on=D(2026, 4, 1))


def test_dane_46_06_5_c_3001_gpd_needs_disposal_statement_and_dnr_approval(dane, master):
    permit = dane_tank(dane, master, flow=3001)
    with pytest.raises(PermitRefused) as exc:
        services.permit_approve(permit=permit, on=D(2026, 4, 1))
    assert "Dane County Code s. 46.06(5)(c)" in err(exc) and "3,001 gallons" in err(exc)
    assert "department of natural resources" in err(exc).lower()
    services.permit_add_document(permit=permit, kind="septage_disposal_statement", received_on=D(2026, 3, 20))
    with pytest.raises(PermitRefused):  # the statement alone is not enough
        services.permit_approve(permit=permit, on=D(2026, 4, 1))
    services.permit_add_document(permit=permit, kind="dnr_approval", received_on=D(2026, 3, 25))
    services.permit_approve(permit=permit, on=D(2026, 4, 1))


def test_lincoln_text_has_no_dnr_threshold(lincoln, master):
    permit = file_complete(lincoln, master, holding_tank=True, design_flow_gpd=3001, extra_docs=LINCOLN_HT_DOCS)
    services.permit_approve(permit=permit, on=D(2026, 4, 1))


# -- servicing contract before issuance (Dane s. 46.06(5)(b)1.; Lincoln Holding Tank Agreement (3)) -----

def test_dane_46_06_5_b_1_servicing_contract_before_issuance(dane, master):
    permit = dane_tank(dane, master, docs=[])
    services.permit_approve(permit=permit, on=D(2026, 4, 1))
    record(Permit.objects.get(pk=permit.pk), "maintenance_notice")
    with pytest.raises(PermitRefused) as exc:
        services.permit_issue(permit=permit, on=D(2026, 4, 1))
    assert "Dane County Code s. 46.06(5)(b)1." in err(exc)
    services.permit_add_document(permit=Permit.objects.get(pk=permit.pk), kind="servicing_contract", received_on=D(2026, 4, 1))
    services.permit_issue(permit=permit, on=D(2026, 4, 1))


def test_lincoln_holding_tank_agreement_with_plans_recorded_and_servicing_contract_before_issuance(lincoln, master):
    """Lincoln Holding Tank Maintenance Agreement (2): submitted with the plans; (1): recorded; (3): servicing contract."""
    permit = file_complete(lincoln, master, holding_tank=True)
    assert {m["id"] for m in selectors.missing_items(permit)} == {"ht_agreement"}
    services.permit_add_document(permit=permit, kind="holding_tank_agreement", received_on=D(2026, 3, 3))
    services.permit_approve(permit=permit, on=D(2026, 4, 1))
    with pytest.raises(PermitRefused) as exc:
        services.permit_issue(permit=permit, on=D(2026, 4, 1))
    assert "Holding Tank Maintenance Agreement (1)" in err(exc)
    record(Permit.objects.get(pk=permit.pk), "holding_tank_agreement")
    with pytest.raises(PermitRefused) as exc:
        services.permit_issue(permit=permit, on=D(2026, 4, 1))
    assert "Holding Tank Maintenance Agreement (3)" in err(exc)
    services.permit_add_document(permit=Permit.objects.get(pk=permit.pk), kind="servicing_contract", received_on=D(2026, 4, 1))
    services.permit_issue(permit=permit, on=D(2026, 4, 1))


# -- changes of contract within 10 business days (Dane s. 46.06(5)(b)1.) ----------------------------------

def test_dane_46_06_5_b_1_contract_change_on_the_tenth_business_day_is_on_time_the_next_day_late(dane, master):
    permit = issue_dane_tank(dane_tank(dane, master))
    changed = D(2026, 6, 1)  # Monday; ten business days later is Monday June 15
    on_time = services.servicing_contract_change_file(permit=permit, changed_on=changed, received_on=D(2026, 6, 15))
    assert (on_time.due_on, on_time.late_days) == (D(2026, 6, 15), 0)
    late = services.servicing_contract_change_file(permit=permit, changed_on=changed, received_on=D(2026, 6, 16))
    assert late.late_days == 1
    assert list(selectors.late_contract_changes(jurisdiction=dane)) == [late]
    assert permit.events.filter(step="contract_change", summary__contains="1 day(s) late").exists()


def test_lincoln_contract_change_has_no_period_and_is_never_late(lincoln, master):
    """Lincoln Maintenance and Management (4): "whenever there is a change": no period, so nothing is late."""
    permit = file_complete(lincoln, master, holding_tank=True, extra_docs=LINCOLN_HT_DOCS)
    services.permit_approve(permit=permit, on=D(2026, 4, 1))
    doc = services.servicing_contract_change_file(permit=permit, changed_on=D(2026, 6, 1), received_on=D(2027, 6, 1))
    assert (doc.due_on, doc.late_days) == (None, 0)


def test_contract_change_refused_for_other_systems_and_received_before_the_change(dane, master):
    permit = issue_dane_tank(dane_tank(dane, master))
    with pytest.raises(PermitRefused) as exc:
        services.servicing_contract_change_file(permit=permit, changed_on=D(2026, 6, 2), received_on=D(2026, 6, 1))
    assert exc.value.field == "changed_on"
    other = file_complete(dane, master)
    with pytest.raises(PermitRefused) as exc:
        services.servicing_contract_change_file(permit=other, changed_on=D(2026, 6, 1), received_on=D(2026, 6, 1))
    assert "not for a holding tank" in exc.value.message


# -- temporary holding tanks (Dane s. 46.06(5)(d)) ------------------------------------------------------

def test_dane_46_06_5_d_temporary_tank_for_sewer_within_12_months_needs_the_sewer_agreement(dane, master):
    on = D(2026, 4, 1)
    last = add_months(on, 12)
    too_late = dane_tank(dane, master, temporary_until=last + dt.timedelta(days=1), temporary_reason="sewer_coming",
                         docs=[*DANE_HT_DOCS, "sewer_connection_agreement"])
    with pytest.raises(PermitRefused) as exc:
        issue_dane_tank(too_late, on)
    assert "Dane County Code s. 46.06(5)(d)" in err(exc) and "12 months" in err(exc)
    no_agreement = dane_tank(dane, master, temporary_until=last, temporary_reason="sewer_coming")
    with pytest.raises(PermitRefused) as exc:
        issue_dane_tank(no_agreement, on)
    assert "sanitary district" in err(exc)
    ok = dane_tank(dane, master, temporary_until=last, temporary_reason="sewer_coming",
                   docs=[*DANE_HT_DOCS, "sewer_connection_agreement"])
    assert issue_dane_tank(ok, on).status == c.PermitStatus.ISSUED


def test_dane_temporary_tank_is_flagged_the_day_after_its_end(dane, master):
    permit = issue_dane_tank(dane_tank(dane, master, temporary_until=D(2026, 10, 1), temporary_reason="weather_or_soil",
                                       verification=None))
    assert list(selectors.temporary_holding_tanks_ended(jurisdiction=dane, today=D(2026, 10, 1))) == []
    assert list(selectors.temporary_holding_tanks_ended(jurisdiction=dane, today=D(2026, 10, 2))) == [permit]


def test_lincoln_ordinance_provides_no_temporary_holding_tank(lincoln, master):
    permit = file_complete(lincoln, master, holding_tank=True, extra_docs=LINCOLN_HT_DOCS,
                           temporary_until=D(2026, 10, 1), temporary_reason="weather_or_soil")
    services.permit_approve(permit=permit, on=D(2026, 4, 1))
    record(Permit.objects.get(pk=permit.pk), "holding_tank_agreement")
    with pytest.raises(PermitRefused) as exc:
        services.permit_issue(permit=permit, on=D(2026, 4, 1))
    assert exc.value.field == "temporary_until" and "no temporary holding tank" in exc.value.message
