"""The department's letters to a claimant, as PDF (ReportLab, with the maintenance letters' page layout:
the address in the #10 window, text wrapped by the same `wrap`): the completeness notice ((5)(c)), the
decision ((7)), the conditional approval and the payment ((5)(f))."""
from __future__ import annotations

import datetime as dt
import io

from reportlab.pdfgen.canvas import Canvas

from powts.core.refusals import Refused
from powts.law.explain import money
from powts.maintenance.letters import ADDRESS_LEADING, ADDRESS_SIZE, ADDRESS_TOP, ADDRESS_WIDTH, ADDRESS_X, HEIGHT, LEFT, WIDTH, fit, wrap
from powts.wells.choices import ClaimStatus, Missing
from powts.wells.models import WellClaim

AGENCY = "Wisconsin Department of Natural Resources"
PROGRAM = "Well Compensation Program"
KINDS = ("completeness", "decision", "conditional", "payment")
TITLES = {"completeness": "Your well compensation claim: completeness", "decision": "Decision on your well compensation claim",
          "conditional": "Your claim is approved on condition of funds", "payment": "Payment of your well compensation claim"}


class LetterRefused(Refused):
    """No such letter for the claim in its present state."""


def available(claim: WellClaim) -> list[str]:
    """The letters this claim's state allows."""
    out = ["completeness"] if claim.status != ClaimStatus.CONSOLIDATED else []
    if claim.eligible is not None:
        out.append("decision")
    if claim.status == ClaimStatus.CONDITIONAL or claim.payment_lines.filter(status="conditional").exists():
        out.append("conditional")
    if claim.status == ClaimStatus.PAID:
        out.append("payment")
    return out


def _body(claim: WellClaim, kind: str) -> list[str]:
    if kind == "completeness":
        if claim.completed_on:
            return [f"Your claim {claim.claim_id} for water supply {claim.supply.supply_id} was complete on "
                    f"{claim.completed_on:%B %d, %Y}. The department will decide it and pay completed claims in the "
                    "order they were received complete (Wis. Stat. s. 281.75(5)(f)).",
                    "Authority: Wis. Stat. s. 281.75(5)(c)."]
        items = [Missing(m).label for m in (claim.missing or [])] or ["the department's review of the claim"]
        return [f"Your claim {claim.claim_id} for water supply {claim.supply.supply_id}, received on "
                f"{claim.received_on:%B %d, %Y}, is not complete. Please send:",
                *(f"  - {i}" for i in items),
                "The department cannot proceed with the claim until it receives a complete claim. Your claim "
                "becomes complete on the day the last item arrives.", "Authority: Wis. Stat. s. 281.75(5)(c)."]
    if kind == "decision":
        head = (f"Your claim {claim.claim_id} is eligible. The award is {money(claim.award or 0)}." if claim.eligible else
                f"Your claim {claim.claim_id} is not eligible, so no award is paid.")
        return [head, claim.explanation, f"Decided under {claim.law_version}.",
                "You may ask the department to review this decision; write to the program at the address above."]
    if kind == "conditional":
        return [f"Your claim {claim.claim_id} is complete and eligible for an award of {money(claim.award or 0)}. The "
                "appropriation is not enough to pay it now, so the department approves it on condition of funds and "
                "will pay it as soon as funds become available, before claims not yet approved.",
                "Authority: Wis. Stat. s. 281.75(5)(f)."]
    return [f"The department has paid {money(claim.paid)} on your claim {claim.claim_id} for water supply "
            f"{claim.supply.supply_id}.", "Authority: Wis. Stat. s. 281.75(5)(f), (7)."]


def letter_pdf(claim: WellClaim, kind: str, *, on: dt.date) -> bytes:
    if kind not in available(claim):
        raise LetterRefused(f"no {kind} letter for this claim in its present state")
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(WIDTH, HEIGHT))
    c.setTitle(TITLES[kind])
    c.setFont("Helvetica-Bold", 13)
    c.drawString(LEFT, HEIGHT - 50, AGENCY)
    c.setFont("Helvetica", 9)
    c.drawString(LEFT, HEIGHT - 63, PROGRAM)
    c.setFont("Helvetica", 10)
    c.drawRightString(WIDTH - LEFT, HEIGHT - 50, f"{on:%B %d, %Y}")
    y = ADDRESS_TOP
    c.setFont("Helvetica", ADDRESS_SIZE)
    for line in [claim.claimant_name or "Claimant", *claim.claimant_address.splitlines()][:6]:
        c.drawString(ADDRESS_X, y, fit(line, "Helvetica", ADDRESS_SIZE, ADDRESS_WIDTH))
        y -= ADDRESS_LEADING
    y = HEIGHT - 4.1 * 72
    c.setFont("Helvetica-Bold", 14)
    c.drawString(LEFT, y, TITLES[kind])
    y -= 24
    c.setFont("Helvetica", 10)
    for para in _body(claim, kind):
        for line in wrap(para, "Helvetica", 10):
            if y < 72:
                c.showPage()
                c.setFont("Helvetica", 10)
                y = HEIGHT - 72
            c.drawString(LEFT, y, line)
            y -= 13
        y -= 6
    c.showPage()
    c.save()
    return buf.getvalue()
