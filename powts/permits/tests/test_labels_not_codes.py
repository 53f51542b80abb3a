""""Labels, never internal codes (`system_plans`, `before_backfill`, `failing-septic`)"."""
import re

from powts.permits.services import enforcement as enf
from powts.permits.tests.conftest import file_complete


def _visible(html: str) -> str:
    """The page's text, without tags (codes may stay in attribute values such as option values)."""
    return re.sub(r"<[^>]+>", " ", html)


def test_permit_page_names_documents_and_stages_in_words(client, staff, dane, master):
    permit = file_complete(dane, master)
    client.force_login(staff)
    text = _visible(client.get(f"/permits/{permit.pk}/").content.decode())
    assert "System plans and specifications" in text and "Soil and site evaluation report" in text
    for code in ("system_plans", "soil_report", "before_backfill"):
        assert code not in text, code


def test_site_page_names_complaints_in_words(client, staff, dane):
    enf.complaint_create(jurisdiction=dane, service_code="failing-septic", description="Wet ground", address="1 Main St")
    client.force_login(staff)
    text = _visible(client.get("/permits/site/").content.decode())
    assert "Failing septic system" in text and "failing-septic" not in text
