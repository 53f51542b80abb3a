"""Every county citation a permit shows comes from the county's own profile (finding: "Dane and Lincoln
section numbers are written into Python ... The Dane permit card PDF cites Lincoln's ordinance")."""
import datetime as dt
import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from powts.permits import documents, rules, selectors, services
from powts.permits.tests.conftest import file_complete, issue

D = dt.date
OTHER = {"dane": "Lincoln", "lincoln": "Dane"}
PERMITS = Path(__file__).resolve().parents[1]
COUNTY_IN_CODE = re.compile(r"Dane|Lincoln|\bdane\b|\blincoln\b|\b46\.\d\d|Ch\. 22")


def _card_text(permit) -> str:
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(documents.permit_card_pdf(permit))).pages)


@pytest.mark.parametrize("county", ["dane", "lincoln"], indirect=True)
def test_permit_card_cites_its_own_countys_posting_rule(county, master):
    """Dane s. 46.08(6)(g) / Lincoln Permit Cards (3): the card cites the county that issued it, not the other."""
    text = " ".join(_card_text(issue(county, master)).split())
    expected = rules.permit_rules(county.slug)["steps"]["card_posting"]["citation"]
    assert expected in text
    assert OTHER[county.slug] not in text


@pytest.mark.parametrize("county", ["dane", "lincoln"], indirect=True)
def test_hold_approval_and_final_approval_cite_the_countys_text(county, master):
    """Dane s. 46.08(6)(d), (6)(g); Lincoln Application Requirements (5), Permit Cards (4): each step's citation."""
    held = file_complete(county, master, pay=False)
    notice = services.permit_hold(permit=held, on=D(2026, 3, 3), reasons=["sign the plans"])
    assert notice.citation == rules.permit_rules(county.slug)["steps"]["hold"]["citation"]
    assert OTHER[county.slug] not in notice.citation
    permit = issue(county, master)
    stages = [s for s in selectors.stages_for(permit) if not s.optional]
    for i, stage in enumerate(stages):
        insp = services.inspection_request(permit=permit, stage=stage.id, notice_at=dt.datetime(2026, 5, 4 + 7 * i, 8, 0))
        services.inspection_record(inspection=insp, result="passed", on=insp.requested_day)
    services.permit_final_approve(permit=permit, on=D(2026, 7, 1))
    event = permit.events.get(step="completed")
    assert event.citation == rules.permit_rules(county.slug)["steps"]["final_approval"]["citation"]
    assert OTHER[county.slug] not in event.citation


def test_no_county_name_or_section_number_in_permits_python():
    """County differences are data in the profiles; none is written in permits' Python."""
    found = []
    for path in sorted(PERMITS.rglob("*.py")):
        if "tests" in path.relative_to(PERMITS).parts or "migrations" in path.relative_to(PERMITS).parts:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if COUNTY_IN_CODE.search(line):
                found.append(f"{path.relative_to(PERMITS)}:{number}: {line.strip()}")
    assert found == []
