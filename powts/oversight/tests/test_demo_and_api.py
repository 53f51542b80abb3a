"""`powts demo` loads oversight's records (registry demo_loader); the API answers refusals as 400 naming the field
with the citation and changes nothing (bad input)."""
import datetime as dt

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from powts.oversight.models import Assessment, ProgramAudit, Referral
from powts.permits.tests.conftest import issue

D = dt.date


@pytest.mark.parametrize("slug", ["dane", "lincoln"])
def test_powts_demo_loads_an_audit_a_referral_and_is_idempotent(db, slug):
    from powts.jurisdictions.models import Jurisdiction
    from powts.oversight import demo

    call_command("demo", jurisdiction=slug, systems=12, stdout=open("/dev/null", "w"))
    unit = Jurisdiction.objects.get(slug=slug)
    audit = ProgramAudit.objects.get(jurisdiction=unit)
    assert audit.samples.exists() and audit.status == "requested" and audit.reviewer.role == "dsps"
    assert Referral.objects.filter(jurisdiction=unit).exists()
    from powts.oversight.models import ApprovalCategory, ReportFlag

    # Dane s. 46.12's flagged application; Lincoln's text has none. The department's category is statewide.
    assert ReportFlag.objects.filter(jurisdiction=unit, permit__isnull=False).exists() == (slug == "dane")
    assert ApprovalCategory.objects.count() == 1
    assert demo.load(unit) == 0
    assert Assessment.objects.filter(jurisdiction=unit).count() <= 1


def _api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_api_draws_a_sample_and_refuses_an_empty_period(dane, master, dsps, make_user):
    issue(dane, master, issued_on=D(2026, 4, 1))
    api = _api(dsps)
    empty = api.post("/api/oversight/audits/", {"jurisdiction": "dane", "period_start": "2026-05-01", "period_end": "2026-05-31"},
                     format="json")
    assert empty.status_code == 400 and empty.json()["citation"] == "Wis. Stat. s. 145.20(3)(b)"
    assert "nothing to sample" in empty.json()["errors"]["period_start"][0]
    assert not ProgramAudit.objects.exists()
    made = api.post("/api/oversight/audits/", {"jurisdiction": "dane", "period_start": "2026-04-01", "period_end": "2026-04-30",
                                               "seed": 99}, format="json")
    assert made.status_code == 201 and made.json()["seed"] == "99" and len(made.json()["samples"]) == 1
    staff = _api(make_user("sam", "county_staff", dane))
    assert staff.post("/api/oversight/audits/", {"jurisdiction": "dane"}, format="json").status_code == 403
    sample = made.json()["samples"][0]["id"]
    verified = api.post(f"/api/oversight/samples/{sample}/verify/", {"outcome": "deficient", "findings": "No port"}, format="json")
    assert verified.status_code == 201 and verified.json()["samples"][0]["outcome"] == "deficient"
    assert api.post(f"/api/oversight/samples/{sample}/explode/", {}, format="json").status_code == 404
    programs = api.get("/api/oversight/programs/?year=2026").json()["counties"]
    assert [c["audit_findings_deficient"] for c in programs if c["jurisdiction"] == "dane"] == [1]


def test_api_refuses_a_referral_without_evidence_and_an_assessment_off_the_county(dane, lincoln, make_user, make_system):
    from powts.accounts.services import license_create
    from powts.permits.services import enforcement as enf

    staff = _api(make_user("sam", "county_staff", dane))
    lic = license_create(kind="septage_operator", number="SSO-7", holder_name="Sid Septic")
    refused = staff.post(f"/api/oversight/licenses/{lic.pk}/refer/", {"flags": []}, format="json")
    assert refused.status_code == 400 and "flags" in refused.json()["errors"]
    system = make_system("DA-1")
    order = enf.correction_order_issue(system=system, on=D(2026, 3, 1), correct_by=D(2026, 4, 1), requirement="Pump")
    make_system("LI-1", jurisdiction=lincoln)
    off = staff.post(f"/api/oversight/counties/{dane.pk}/assess/", {
        "order": order.pk, "parcel_number": "P-LI-1", "cost": "300", "work_done_on": "2026-04-05", "work": "Pumped",
        "authority_kind": "county", "on": "2026-04-10"}, format="json")
    assert off.status_code == 400 and "not in Dane County" in off.json()["errors"]["parcel_number"][0]
    town = staff.post(f"/api/oversight/counties/{dane.pk}/assess/", {
        "order": order.pk, "parcel_number": "P-DA-1", "cost": "300", "work_done_on": "2026-04-05", "work": "Pumped",
        "authority_kind": "town", "authority_name": "Town of Dunn", "on": "2026-04-10"}, format="json")
    assert town.status_code == 400 and "authority_kind" in town.json()["errors"]  # s. 145.20(4): not a Dane town
    ok = staff.post(f"/api/oversight/counties/{dane.pk}/assess/", {
        "order": order.pk, "parcel_number": "P-DA-1", "cost": "300", "work_done_on": "2026-04-05", "work": "Pumped",
        "authority_kind": "county", "on": "2026-04-10"}, format="json")
    assert ok.status_code == 201 and ok.json()["authority"] == "Dane County"
    roll = staff.get("/api/oversight/special-charges/?tax_year=2026").json()
    assert roll == [{"id": ok.json()["id"], "parcel_number": "P-DA-1", "amount": "300.00", "authority": "Dane County",
                     "tax_year": 2026, "citation": "Wis. Stat. s. 145.20(4)"}]
    assert _api(make_user("lee", "county_staff", lincoln)).post(
        f"/api/oversight/counties/{dane.pk}/assess/", {}, format="json").status_code == 403
