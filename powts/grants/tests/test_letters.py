"""Letters on a decision: the denial names each failed test with its citation and the appeal route
(s. 145.246(4)(a)); the approval gives the amount and what happens next."""
import io

import pytest
from pypdf import PdfReader

from powts.grants import letters, services


def text_of(pdf: bytes) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)


@pytest.mark.django_db
def test_denial_letter_lists_each_failed_test_with_citation_and_appeal(apply, determination):
    app = apply(determination, annual_family_income=4_500_001, sewer_available=True)
    decision = services.application_decide(application=app, by=app.created_by)
    assert {r["test"] for r in decision.reasons} == {"income_limit", "not_sewered"}
    name, pdf = letters.letter_pdf(app, decision)
    text = text_of(pdf)
    assert name.endswith("denial.pdf") and "is denied" in text
    assert "$45,000.01 exceeds the $45,000.00 limit" in text and "145.246(3)(c)1." in text
    assert "served by a sewer" in text
    assert "How to appeal" in text and "68.08" in text and "within 30 days" in text
    assert "145.246(4)(a)" in text
    assert "outside the texts" not in text.lower()


@pytest.mark.django_db
def test_approval_letter_gives_amount_and_next_steps(apply, determination):
    """s. 145.246(6)(c)-(d): $7,000 cap, table $5,200, income $38,000: 5,200 - 30% x 6,000 = $3,400."""
    app = apply(determination, annual_family_income=3_800_000)
    decision = services.application_decide(application=app, by=app.created_by)
    name, pdf = letters.letter_pdf(app, decision)
    text = text_of(pdf)
    assert name.endswith("approval.pdf") and "is approved" in text
    assert "Grant amount: $3,400.00" in text
    assert "What happens next" in text and "after the work is completed" in text and "(8)(g)" in text
    assert "Olive Owner" in text and "Dane County" in text


def test_every_profile_has_cited_letter_words():
    from powts.grants.letter_rules import letter_rules
    from powts.kernel.profiles import available

    for slug in available():
        rules = letter_rules(slug)
        assert rules.appeal_citation and rules.next_steps_citation and rules.denial_citation
