"""DNR enters one well compensation claim on a web form, with the same checks as the import
(s. 281.75); a refusal is shown on its field with the citation and saves nothing; documents are attached when the
water supply's county is known."""
import pytest
from django.test import Client
from django.urls import reverse

from powts.attachments.models import Attachment
from powts.attachments.tests import samples
from powts.wells.models import WaterSupply, WellClaim

pytestmark = pytest.mark.django_db


def client_for(user):
    c = Client()
    c.force_login(user)
    return c


def form(**kw):
    data = {"id": "W-100", "supply_id": "S-100", "county": "", "location": "N1234 County Rd K",
            "claimant_name": "Wanda Wells", "claimant_address": "N1234 County Rd K, Verona", "claimant_type": "landowner",
            "supply_use": "residential", "well_kind": "drilled", "dwelling_units": "1", "annual_family_income": "30,000",
            "eligible_costs": "8000", "claimed_on": "2024-02-01", "affidavit_on": "2024-02-01",
            "tax_returns_on": "2024-02-05", "completed_on": "2024-02-10", "sample_date": ["2024-01-01", "2024-01-15"],
            "lab_certified": "on"}
    data.update(kw)
    return data


@pytest.fixture
def dnr(make_user):
    return make_user("dana", "dnr")


def test_dnr_enters_a_complete_claim_decided_by_the_law_engine(dnr):
    """(5)(c), (7)(a): complete on entry, so decided: 75% of $8,000 = $6,000."""
    page = client_for(dnr).post(reverse("wells:claim-new"), form())
    claim = WellClaim.objects.get(claim_id="W-100")
    assert page.status_code == 302 and page["Location"] == reverse("wells:claim-detail", args=[claim.pk])
    assert (claim.status, claim.eligible, claim.award, claim.claimant_name) == ("complete", True, 600_000, "Wanda Wells")
    assert claim.supply.supply_id == "S-100" and claim.sample_dates == ["2024-01-01", "2024-01-15"]


def test_an_incomplete_claim_lists_what_is_missing(dnr):
    """(5)(c): without the tax returns and not complete, the claim waits with the item missing."""
    client_for(dnr).post(reverse("wells:claim-new"), form(tax_returns_on="", completed_on=""))
    claim = WellClaim.objects.get()
    assert claim.status == "incomplete" and claim.missing == ["tax_returns"]


def test_a_dug_well_is_refused_on_its_field_with_the_citation_nothing_saved(dnr):
    """(1)(h), (3)(a): a dug well is not a "well"; no claim may be submitted for it."""
    page = client_for(dnr).post(reverse("wells:claim-new"), form(well_kind="dug"))
    assert page.status_code == 400
    errs = page.context["errors"]["well_kind"]
    assert "dug" in errs[0] and "281.75" in errs[0]
    assert not WellClaim.objects.exists() and not WaterSupply.objects.exists()


@pytest.mark.parametrize("field, value", [("annual_family_income", "lots"), ("claimed_on", "2024-13-01"),
                                          ("completed_on", "2024-01-31")])
def test_bad_values_are_refused_on_their_field(dnr, field, value):
    page = client_for(dnr).post(reverse("wells:claim-new"), form(**{field: value}))
    assert page.status_code == 400 and field in page.context["errors"] and not WellClaim.objects.exists()


def test_evidence_is_attached_when_the_county_is_known(dnr, dane):
    upload = samples.upload(samples.pdf(), "affidavit.pdf", "application/pdf")
    client_for(dnr).post(reverse("wells:claim-new"), {**form(county="dane"), "evidence": [upload]})
    claim = WellClaim.objects.get()
    assert claim.supply.jurisdiction == dane
    assert list(claim.attachments.values_list("original_name", flat=True)) == ["affidavit.pdf"]


def test_evidence_without_the_county_is_refused_nothing_saved(dnr):
    upload = samples.upload(samples.pdf(), "affidavit.pdf", "application/pdf")
    page = client_for(dnr).post(reverse("wells:claim-new"), {**form(), "evidence": [upload]})
    assert page.status_code == 400 and "county" in page.context["errors"]["evidence"][0]
    assert not WellClaim.objects.exists() and not Attachment.objects.exists()


@pytest.mark.parametrize("role", ["county_staff", "dsps", "owner"])
def test_only_dnr_enters_claims(make_user, dane, role):
    user = make_user(f"u-{role}", role, dane if role == "county_staff" else None)
    assert client_for(user).post(reverse("wells:claim-new"), form()).status_code == 403
    assert client_for(user).get(reverse("wells:claim-new")).status_code == 403
    assert not WellClaim.objects.exists()
