"""Documents the texts require recorded with the register of deeds are required where the text
requires them (county profile `recorded_documents`), carry their recording number and date, and are verified by
staff before the step that depends on them; a recording number for a document never required is refused.

Dane s. 46.025(2)(c) (notice of maintenance requirements, before issuance), s. 46.06(2) (common or off-parcel
systems, before approval); Lincoln Application Requirements (3)(a)-(e), Holding Tank Maintenance Agreement (1),
Reconnection (5), Privies and Portable Restrooms (4)."""
import datetime as dt

import pytest

from powts.audit.models import AuditEvent
from powts.permits import choices as c
from powts.permits import selectors, services
from powts.permits.errors import PermitRefused
from powts.permits.models import Permit, PermitDocument
from powts.permits.tests.conftest import file_complete

D = dt.date


def err(exc) -> str:
    return f"{exc.value.message} [{exc.value.citation}]"


def verify(permit, kind, number="DOC 1", on=D(2026, 3, 20)):
    doc = services.permit_add_document(permit=permit, kind=kind, received_on=on, recorded=True)
    return services.document_verify_recording(document=doc, recording_number=number, recorded_on=on, verified_on=on)


def test_dane_46_025_2_c_maintenance_notice_recorded_and_verified_before_issuance(dane, master):
    """A system serviced more than once every three years: the notice of maintenance requirements is recorded and
    verified before the permit issues; a copy on file but unverified is not enough."""
    permit = file_complete(dane, master, frequent_servicing=True)
    services.permit_approve(permit=permit, on=D(2026, 4, 1))  # needed before issuance only
    with pytest.raises(PermitRefused) as exc:
        services.permit_issue(permit=permit, on=D(2026, 4, 2))
    assert "Dane County Code s. 46.025(2)(c)" in err(exc) and "not on file" in err(exc)
    doc = services.permit_add_document(permit=permit, kind="maintenance_notice", received_on=D(2026, 4, 2), recorded=True)
    with pytest.raises(PermitRefused) as exc:
        services.permit_issue(permit=permit, on=D(2026, 4, 2))
    assert "not yet verified" in err(exc)
    assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.APPROVED  # the refusal changed nothing
    services.document_verify_recording(document=doc, recording_number="DANE 5550001", recorded_on=D(2026, 4, 2),
                                       verified_on=D(2026, 4, 3))
    services.permit_issue(permit=permit, on=D(2026, 4, 3))
    assert Permit.objects.get(pk=permit.pk).status == c.PermitStatus.ISSUED


def test_dane_46_025_2_c_not_required_for_a_system_serviced_every_three_years(dane, master):
    permit = file_complete(dane, master)
    assert selectors.recordings(permit) == []
    services.permit_approve(permit=permit, on=D(2026, 4, 1))
    services.permit_issue(permit=permit, on=D(2026, 4, 1))


def test_a_recording_number_for_a_document_never_required_is_refused_and_nothing_changes(dane, master):
    """Bad input: the maintenance notice is not required for this system, so no recording is stored."""
    permit = file_complete(dane, master)
    doc = services.permit_add_document(permit=permit, kind="maintenance_notice", received_on=D(2026, 3, 3))
    events = AuditEvent.objects.count()
    with pytest.raises(PermitRefused) as exc:
        services.document_verify_recording(document=doc, recording_number="DOC 9", recorded_on=D(2026, 3, 3),
                                           verified_on=D(2026, 3, 4))
    assert exc.value.field == "document" and "none is required" in exc.value.message
    doc.refresh_from_db()
    assert (doc.recording_number, doc.recorded_on, doc.recording_verified_on) == ("", None, None)
    assert AuditEvent.objects.count() == events


def test_dane_46_06_2_off_parcel_system_needs_recorded_easement_before_approval(dane, master):
    permit = file_complete(dane, master, off_lot=True)
    with pytest.raises(PermitRefused) as exc:
        services.permit_approve(permit=permit, on=D(2026, 4, 1))
    assert "Dane County Code s. 46.06(2)" in err(exc) and "before the application is approved" in err(exc)
    verify(permit, "recorded_documents")
    services.permit_approve(permit=permit, on=D(2026, 4, 1))


@pytest.mark.parametrize("fact,kind,citation", [
    ({"off_lot": True}, "recorded_documents", "Application Requirements (3)(b)"),
    ({"shared": True}, "ownership_document", "Application Requirements (3)(c)"),
    ({"owned_by_other": True}, "ownership_document", "Application Requirements (3)(d)"),
    ({"flow_not_by_bedrooms": True}, "occupancy_deed_restriction", "Application Requirements (3)(e)"),
    ({"frequent_servicing": True}, "maintenance_agreement", "Application Requirements (3)(a)"),
    ({"flow_rated_reconnection": True, "kind": "reconnection"}, "flow_affidavit", "Reconnection (5)"),
    ({"kind": "nonplumbing", "nonplumbing_kind": "privy"}, "nonplumbing_agreement", "Privies and Portable Restrooms (4)"),
])
def test_lincoln_recorded_documents_before_issuance(lincoln, master, fact, kind, citation):
    """Lincoln Application Requirements (3): recorded with the Register of Deeds "prior to sanitary permit issuance"."""
    permit = file_complete(lincoln, master, **fact)
    services.permit_approve(permit=permit, on=D(2026, 4, 1))
    with pytest.raises(PermitRefused) as exc:
        services.permit_issue(permit=permit, on=D(2026, 4, 1))
    assert citation in err(exc)
    if kind == "maintenance_agreement":  # filed with the application (1)(h): only its recording is missing
        doc = permit.documents.get(kind=kind)
        services.document_verify_recording(document=doc, recording_number="L-1", recorded_on=D(2026, 4, 1),
                                           verified_on=D(2026, 4, 1))
    else:
        verify(permit, kind, on=D(2026, 4, 1))
    services.permit_issue(permit=permit, on=D(2026, 4, 1))


def test_privy_agreement_is_lincolns_rule_not_danes(dane, lincoln, master):
    """Lincoln Privies (4) requires a recorded Nonplumbing Sanitary Agreement; Dane s. 46.06(6) requires a permit only."""
    dane_privy = file_complete(dane, master, kind="nonplumbing", nonplumbing_kind="privy")
    lincoln_privy = file_complete(lincoln, master, kind="nonplumbing", nonplumbing_kind="privy")
    assert selectors.recordings(dane_privy) == []
    assert [r["kind"] for r in selectors.recordings(lincoln_privy)] == ["nonplumbing_agreement"]


def test_recording_date_after_verification_is_refused(lincoln, master):
    permit = file_complete(lincoln, master, off_lot=True)
    doc = services.permit_add_document(permit=permit, kind="recorded_documents", received_on=D(2026, 3, 3))
    with pytest.raises(PermitRefused) as exc:
        services.document_verify_recording(document=doc, recording_number="X", recorded_on=D(2026, 3, 5),
                                           verified_on=D(2026, 3, 4))
    assert exc.value.field == "recorded_on"


def test_recorded_documents_may_be_added_after_approval_but_plans_may_not(lincoln, master):
    permit = file_complete(lincoln, master, holding_tank=True,
                           extra_docs=["holding_tank_agreement", "servicing_contract"])
    services.permit_approve(permit=permit, on=D(2026, 4, 1))
    doc = services.permit_add_document(permit=Permit.objects.get(pk=permit.pk), kind="holding_tank_agreement",
                                       received_on=D(2026, 4, 2), recorded=True)
    assert doc.pk
    with pytest.raises(PermitRefused) as exc:
        services.permit_add_document(permit=Permit.objects.get(pk=permit.pk), kind="system_plans", received_on=D(2026, 4, 2))
    assert exc.value.field == "kind"


def test_api_verify_recording_of_an_unrequired_document_is_a_400_naming_the_document(dane, master, make_user):
    from powts.permits.tests.test_api import client_for

    permit = file_complete(dane, master)
    doc = services.permit_add_document(permit=permit, kind="maintenance_notice", received_on=D(2026, 3, 3))
    staff = client_for(make_user("sally", "county_staff", dane))
    r = staff.post(f"/api/permits/{permit.pk}/actions/verify-recording/",
                        {"document": doc.pk, "recording_number": "DOC 1", "recorded_on": "2026-03-03"}, format="json")
    assert r.status_code == 400 and "document" in r.json()["errors"]
    assert PermitDocument.objects.get(pk=doc.pk).recording_number == ""


def test_api_detail_lists_recordings_and_appeals(dane, master, make_user):
    from powts.permits.tests.test_api import client_for

    permit = file_complete(dane, master, frequent_servicing=True)
    staff = client_for(make_user("sally", "county_staff", dane))
    body = staff.get(f"/api/permits/{permit.pk}/").json()
    assert body["frequent_servicing"] is True
    assert [(r["kind"], r["before"], r["verified"]) for r in body["recordings"]] == [("maintenance_notice", "issue", False)]
    r = staff.post(f"/api/permits/{permit.pk}/actions/appeal/", {"appellant": "Pat Owner", "decision": "the hold",
                                                                 "filed_on": "2026-03-10"}, format="json")
    assert r.status_code == 200, r.content
    assert staff.get(f"/api/permits/{permit.pk}/").json()["appeals"][0]["body"] == "Board of Health for Madison and Dane County"
