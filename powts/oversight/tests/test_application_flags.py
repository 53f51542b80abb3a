"""Dane County Code s. 46.12: "The department may make random inspections of all information reported on sanitary
permit applications and shall report errors found to the state agency in charge of licensing the person making the
error." Staff flag an application with its evidence against the licence of the person who made the error (the
plumber or the soil tester), and refer them with the evidence packet; Lincoln's text has no such rule."""
import csv
import datetime as dt
import io

import pytest

from powts.accounts.services import license_create
from powts.audit.models import AuditEvent
from powts.oversight import packets, services
from powts.oversight.errors import OversightRefused
from powts.oversight.models import ReportFlag
from powts.permits.tests.conftest import file_complete

D = dt.date
CITE = "Dane County Code s. 46.12"


def test_dane_46_12_flag_an_application_against_its_plumber_and_refer_with_the_packet(dane, master):
    permit = file_complete(dane, master)
    flag = services.application_flag(permit=permit, license=master, reason="bedrooms entered as 3; the house has 5",
                                     evidence=["assessor's record: 5 bedrooms"], on=D(2026, 4, 2))
    assert (flag.permit_id, flag.license_id, flag.report_id) == (permit.pk, master.pk, None)
    assert AuditEvent.objects.filter(content_type__model="reportflag", object_id=str(flag.pk), action__contains=CITE).exists()
    referral = services.referral_make(license=master, flags=[flag], on=D(2026, 4, 3))
    assert referral.agency == "Wisconsin Department of Safety and Professional Services"
    assert referral.citation.startswith(CITE)
    rows = list(csv.reader(io.StringIO(packets.packet_csv(referral))))
    assert rows[1][4:8] == [permit.number, f"parcel {permit.parcel.parcel_number}", "2026-03-02", "Sanitary permit application"]
    assert packets.packet_pdf(referral).startswith(b"%PDF")


def test_dane_46_12_the_soil_tester_or_the_plumber_but_nobody_else(dane, master, make_user):
    """"the person making the error": the application's plumber or soil tester; another licence is refused."""
    other = license_create(kind="master_plumber", number="MP-9", holder_name="Olga Other")
    permit = file_complete(dane, master)
    with pytest.raises(OversightRefused) as exc:
        services.application_flag(permit=permit, license=other, reason="x", evidence=["y"], on=D(2026, 4, 2))
    assert exc.value.field == "license" and not ReportFlag.objects.exists()


def test_dane_46_12_a_flag_without_evidence_is_refused(dane, master):
    permit = file_complete(dane, master)
    with pytest.raises(OversightRefused) as exc:
        services.application_flag(permit=permit, license=master, reason="wrong", evidence=[], on=D(2026, 4, 2))
    assert exc.value.field == "evidence" and not ReportFlag.objects.exists()


def test_lincoln_has_no_application_error_rule(lincoln, master):
    permit = file_complete(lincoln, master)
    with pytest.raises(OversightRefused) as exc:
        services.application_flag(permit=permit, license=master, reason="wrong", evidence=["y"], on=D(2026, 4, 2))
    assert exc.value.field == "permit" and not ReportFlag.objects.exists()


def test_staff_flag_an_application_on_the_flags_page_and_the_licence_page_lists_it(dane, master, staff, client):
    permit = file_complete(dane, master)
    client.force_login(staff)
    page = client.get("/oversight/flags/").content.decode()
    assert "Flag an error on a permit application" in page and CITE in page
    r = client.post("/oversight/flags/application/", {"permit": permit.number, "by": "plumber",
                                                      "reason": "lot size wrong", "evidence": "survey: 1.2 acres"})
    assert r.status_code == 302
    flag = ReportFlag.objects.get()
    assert flag.license_id == master.pk
    page = client.get("/oversight/flags/").content.decode()
    assert f"Sanitary permit application {permit.number}" in page
    assert f"Sanitary permit application {permit.number}: lot size wrong" in client.get(f"/oversight/licenses/{master.pk}/").content.decode()


def test_the_api_flags_an_application(dane, master, staff):
    from rest_framework.test import APIClient

    permit = file_complete(dane, master)
    api = APIClient()
    api.force_authenticate(staff)
    r = api.post(f"/api/oversight/permits/{permit.pk}/flag-application/", {"by": "plumber", "reason": "wrong flow",
                                                                            "evidence": ["meter readings"]}, format="json")
    assert r.status_code == 201, r.content
    assert r.json()["permit"] == permit.number and r.json()["license"] == master.number
    r = api.post(f"/api/oversight/permits/{permit.pk}/flag-application/", {"by": "plumber", "reason": "x"}, format="json")
    assert r.status_code == 400 and "evidence" in r.json()["errors"]
    assert ReportFlag.objects.count() == 1
