"""Letters for each step (s. 281.75(5)(c), (5)(f), (7)), the demo's year of claims, and the API's refusals."""
from __future__ import annotations

import datetime as dt
import io

import pytest
from knox.models import AuthToken
from pypdf import PdfReader
from rest_framework.test import APIClient

from powts.wells import letters, services
from powts.wells.models import WellClaim, WellPaymentRun

pytestmark = pytest.mark.django_db


def _text(pdf: bytes) -> str:
    return " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


def _row(id_, supply, **kw):
    return {"id": id_, "supply_id": supply, "claimant_type": "landowner", "supply_use": "residential", "well_kind": "drilled",
            "dwelling_units": 1, "sample_dates": "2024-01-01;2024-01-15", "lab_certified": True, "annual_family_income": "30000",
            "eligible_costs": "8000", "claimed_on": "2024-02-01", "claimant_name": "Ruth Well", **kw}


def test_completeness_notice_lists_what_is_missing_5c():
    """(5)(c): "specify the additional information which is required": affidavit and tax returns named."""
    claim = services.claim_create(data=_row("A", "S1"))
    claim = services.claim_notice(claim=claim, on=dt.date(2024, 2, 3))
    text = _text(letters.letter_pdf(claim, "completeness", on=dt.date(2024, 2, 3)))
    assert "affidavit" in text and "tax returns" in text and "281.75(5)(c)" in text and claim.notice_on == dt.date(2024, 2, 3)
    assert letters.available(claim) == ["completeness"]  # no decision before the claim is complete
    with pytest.raises(letters.LetterRefused):
        letters.letter_pdf(claim, "decision", on=dt.date(2024, 2, 3))


def test_decision_conditional_and_payment_letters_5f():
    """(7) decision with its explanation; (5)(f) conditional approval, then payment."""
    services.claims_import(rows=[_row("A", "S1", completed_on="2024-02-10")])
    services.payment_run(funds=100, on=dt.date(2024, 3, 1))
    claim = WellClaim.objects.get(claim_id="A")
    assert letters.available(claim) == ["completeness", "decision", "conditional"]
    assert "$6,000.00" in _text(letters.letter_pdf(claim, "decision", on=dt.date(2024, 3, 1)))
    assert "condition of funds" in _text(letters.letter_pdf(claim, "conditional", on=dt.date(2024, 3, 1)))
    services.payment_run(funds=600000, on=dt.date(2024, 4, 1))
    claim.refresh_from_db()
    assert "paid $6,000.00" in _text(letters.letter_pdf(claim, "payment", on=dt.date(2024, 4, 1)))


def test_demo_has_a_year_of_claims_incomplete_consolidated_and_a_conditional(dane):
    """The demo's well claims: some incomplete, one consolidated supply, a run with a conditional."""
    from powts.wells import demo

    demo.load(dane)
    assert demo.load(dane) == "already loaded"
    claims = WellClaim.objects.all()
    days = [c.received_on for c in claims]
    assert (max(days) - min(days)).days >= 300
    statuses = {c.status for c in claims}
    assert {"incomplete", "consolidated", "conditional", "paid", "ineligible"} <= statuses
    run = WellPaymentRun.objects.get()
    assert run.lines.filter(status="conditional").exists() and run.lines.filter(status="paid").exists()


def test_api_dug_well_is_400_with_citation_and_nothing_stored(make_user):
    """(1)(h): the API refuses a dug well with the reason and the citation; nothing is stored."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=make_user('dnr1', 'dnr'))[1]}")
    r = client.post("/api/wells/claims/", _row("D", "S9", well_kind="dug"), format="json")
    assert r.status_code == 400 and "281.75(1)(h)" in str(r.json())
    assert not WellClaim.objects.exists()
    r = client.post("/api/wells/claims/", _row("A", "S1"), format="json")
    assert r.status_code == 201 and r.json()["missing"] == ["affidavit", "tax_returns"]
    pk = r.json()["id"]
    r = client.post(f"/api/wells/claims/{pk}/items/", {"affidavit": True, "tax_returns": True, "on": "2024-02-20"}, format="json")
    assert r.json()["status"] == "complete" and r.json()["completed_on"] == "2024-02-20"
    r = client.post("/api/wells/runs/", {"funds": "-1"}, format="json")
    assert r.status_code == 400 and not WellPaymentRun.objects.exists()
