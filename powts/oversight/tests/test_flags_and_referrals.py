"""Wis. Stat. s. 145.20(5)(c) (the licensing agencies act on falsified inspection forms) and Dane County Code
s. 46.12 (errors are reported to the state agency licensing the person who made them): staff flag a report, powts
flags what the records show by themselves, the licence holder is referred with an evidence packet, and the
referral and its outcome are on the licence's page."""
import csv
import datetime as dt
import io
from decimal import Decimal

import pytest

from powts.accounts.services import license_create
from powts.core.refusals import Refused
from powts.oversight import packets, services
from powts.oversight.errors import OversightRefused
from powts.oversight.models import Referral, ReportFlag

D = dt.date


@pytest.fixture
def pumped(dane, make_system, pumper_license, file_report):
    make_system("DA-1")
    return file_report(dane, work_date=D(2026, 3, 2))


def test_staff_flag_a_report_with_evidence(dane, pumped, make_user, as_user):
    staff = make_user("sam", "county_staff", dane)
    with as_user(staff):
        flag = services.report_flag(report=pumped, reason="Owner says no truck came", evidence=["Owner's statement"], on=D(2026, 4, 1))
    assert flag.kind == "staff" and flag.flagged_by == staff and flag.evidence == [{"what": "Owner's statement"}]
    with pytest.raises(Refused, match="reason is required"):
        services.report_flag(report=pumped, reason=" ", evidence=[], on=D(2026, 4, 1))


@pytest.mark.parametrize("days,fraction,flagged", [
    (30, "0.33", True),   # the last day of the window, at the threshold
    (31, "0.33", False),  # a day later: a new accumulation, not a doubt
    (30, "0.32", False),  # below the one-third pumping threshold (SPS 383.54(4))
])
def test_a_later_inspection_that_finds_the_tank_full_flags_the_pumping(dane, pumped, file_report, make_user, days, fraction, flagged):
    from powts.accounts.services import license_create

    license_create(kind="powts_inspector", number="PI-1", holder_name="Ina Inspector")
    file_report(dane, kind="inspection", work_date=pumped.work_date + dt.timedelta(days=days), license="PI-1",
                sludge_scum_fraction=fraction)
    made = services.flags_detect(jurisdiction=dane, on=D(2026, 5, 1))
    assert [(f.report_id, f.kind) for f in made] == ([(pumped.pk, "never_pumped")] if flagged else [])
    if flagged:
        assert any("inspection report by" in e["what"] for e in made[0].evidence)
    assert services.flags_detect(jurisdiction=dane, on=D(2026, 5, 2)) == []  # never flagged twice


def _based(lic, lat, lon):
    lic.latitude, lic.longitude = Decimal(lat), Decimal(lon)
    lic.save()
    return lic


@pytest.mark.parametrize("second_base,flagged", [
    (("46.95", "-89.40"), True),    # Madison to near Tomahawk: about 130 miles
    (("43.20", "-89.40"), False),   # a dozen miles away
    (None, False),                  # where the second licence is based is unknown: not judged
])
def test_two_reports_on_one_day_by_licences_far_apart(dane, pumped, pumper_license, file_report, second_base, flagged):
    _based(pumper_license, "43.07", "-89.40")
    other = license_create(kind="septage_operator", number="SSO-2", holder_name="Far Pumper")
    if second_base:
        _based(other, *second_base)
    file_report(dane, work_date=pumped.work_date, license="SSO-2")
    made = services.flags_detect(jurisdiction=dane, on=D(2026, 5, 1))
    assert sorted(f.kind for f in made) == (["far_apart", "far_apart"] if flagged else [])


@pytest.mark.parametrize("issued,expires,flagged", [
    (D(2026, 3, 3), None, True),   # work the day before the licence was issued
    (D(2026, 3, 2), None, False),  # issued that very day
    (None, D(2026, 3, 1), True),   # expired the day before the work
])
def test_work_dated_outside_the_licences_validity(dane, pumped, pumper_license, issued, expires, flagged):
    pumper_license.issued_on, pumper_license.expires_on = issued, expires
    pumper_license.save()
    made = services.flags_detect(jurisdiction=dane, on=D(2026, 5, 1))
    assert [f.kind for f in made] == (["license_dates"] if flagged else [])


def test_a_referral_without_evidence_is_refused_and_nothing_is_saved(dane, pumped, pumper_license):
    """Bad input: a referral without evidence."""
    with pytest.raises(OversightRefused, match="at least one flagged report"):
        services.referral_make(license=pumper_license, flags=[], on=D(2026, 4, 2))
    bare = ReportFlag.objects.create(jurisdiction=dane, report=pumped, kind="staff", reason="suspicious", evidence=[],
                                     flagged_on=D(2026, 4, 1))
    with pytest.raises(OversightRefused, match="records no evidence"):
        services.referral_make(license=pumper_license, flags=[bare], on=D(2026, 4, 2))
    assert not Referral.objects.exists() and ReportFlag.objects.get().status == "open"


@pytest.mark.parametrize("slug,citation", [
    ("dane", "Dane County Code s. 46.12; Wis. Stat. s. 145.20(5)(c)"),
    ("lincoln", "Wis. Stat. s. 145.20(5)(c)"),
])
def test_referral_goes_to_the_licensing_agency_with_the_countys_citation(request, slug, citation, make_system, pumper_license, file_report):
    """The septage operator is DNR's licensee (s. 145.20(5)(c)); Dane adds s. 46.12's duty to report errors."""
    unit = request.getfixturevalue(slug)
    make_system("X-1", jurisdiction=unit)
    report = file_report(unit, system_id="X-1")
    flag = services.report_flag(report=report, reason="never pumped", evidence=["Inspection photo"], on=D(2026, 4, 1))
    referral = services.referral_make(license=pumper_license, flags=[flag], on=D(2026, 4, 2), note="Please review")
    assert referral.agency == "Wisconsin Department of Natural Resources" and referral.citation == citation
    assert ReportFlag.objects.get(pk=flag.pk).status == "referred"
    rows = list(csv.reader(io.StringIO(packets.packet_csv(referral))))
    assert rows[0][:3] == ["referral", "licence", "licence kind"] and rows[1][1] == "SSO-1" and rows[1][-1] == "Inspection photo"
    pdf = packets.packet_pdf(referral)
    assert pdf.startswith(b"%PDF")
    with pytest.raises(OversightRefused, match="is not one of"):
        services.referral_outcome(referral=referral, outcome="pending", on=D(2026, 5, 1))
    with pytest.raises(OversightRefused, match="before the referral"):
        services.referral_outcome(referral=referral, outcome="suspended", on=D(2026, 4, 1))
    assert services.referral_outcome(referral=referral, outcome="suspended", on=D(2026, 5, 1), note="30 days").outcome == "suspended"


def test_a_plumbers_referral_goes_to_dsps(dane, make_system, file_report, make_user):
    lic = license_create(kind="master_plumber", number="MP-9", holder_name="Pat Plumber")
    make_system("DA-9")
    report = file_report(dane, system_id="DA-9", kind="inspection", license="MP-9", sludge_scum_fraction="0.2")
    flag = services.report_flag(report=report, reason="x", evidence=["y"], on=D(2026, 4, 1))
    assert services.referral_make(license=lic, flags=[flag], on=D(2026, 4, 2)).agency == \
        "Wisconsin Department of Safety and Professional Services"


def test_the_referral_and_its_outcome_are_on_the_licences_page(client, dane, pumped, pumper_license, make_user):
    flag = services.report_flag(report=pumped, reason="never pumped", evidence=["photo"], on=D(2026, 4, 1))
    referral = services.referral_make(license=pumper_license, flags=[flag], on=D(2026, 4, 2))
    services.referral_outcome(referral=referral, outcome="revoked", on=D(2026, 6, 1))
    client.force_login(make_user("sam", "county_staff", dane))
    page = client.get(f"/oversight/licenses/{pumper_license.pk}/").content.decode()
    assert "Wisconsin Department of Natural Resources" in page and "License revoked (2026-06-01)" in page
    pdf = client.get(f"/oversight/referrals/{referral.pk}/evidence.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert client.get(f"/oversight/referrals/{referral.pk}/evidence.txt").status_code == 404


@pytest.mark.parametrize("slug,told", [("dane", True), ("lincoln", False)])
def test_dane_staff_are_told_errors_must_be_reported(client, request, make_user, slug, told):
    """Dane County Code s. 46.12 'shall report errors found'; Lincoln's text has no such duty (the statute's
    s. 145.20(5)(c) lets the agencies act, it does not oblige the county)."""
    unit = request.getfixturevalue(slug)
    client.force_login(make_user("sam", "county_staff", unit))
    page = client.get("/oversight/flags/").content.decode()
    assert ('id="must-report"' in page) is told
    if told:
        assert "Dane County Code s. 46.12" in page
