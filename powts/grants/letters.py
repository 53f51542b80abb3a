"""The owner's letters on a grant decision (PDF, ReportLab like every letter of the project):

- denial: each failed test in the engine's words with its citation, and the appeal route (s. 145.246(4)(a):
  "notify the applicant in writing of a denial, including the reason for the denial");
- approval: the amount, the state share and category, and what happens next.

The county's return address and contact block are the maintenance letters' (profile.yaml `contact`,
maintenance.notices.sender_for); the appeal route and next steps are the county profile's
(grants.yaml), each with its citation.
"""
from __future__ import annotations

import io

from django.utils import timezone
from reportlab.pdfgen.canvas import Canvas

from powts.kernel.cited import for_the_public
from powts.grants.letter_rules import letter_rules
from powts.law.explain import money
from powts.maintenance.letters import (ADDRESS_LEADING, ADDRESS_SIZE, ADDRESS_TOP, ADDRESS_WIDTH, ADDRESS_X, HEIGHT,
                                       INCH, LEFT, WIDTH, draw_letterhead, fit, sentence, wrap)
from powts.maintenance.notices import sender_for


class _Page:
    """A letter page that flows onto a new page when the text reaches the bottom margin."""

    def __init__(self, c: Canvas):
        self.c, self.y = c, 0.0

    def need(self, height: float) -> None:
        if self.y - height < 0.9 * INCH:
            self.c.showPage()
            self.y = HEIGHT - INCH

    def text(self, body: str, font: str = "Helvetica", size: float = 10, gap: float = 6, indent: float = 0) -> None:
        lead = size * 1.3
        for line in wrap(body, font, size, WIDTH - 2 * LEFT - indent):
            self.need(lead)
            self.c.setFont(font, size)
            self.c.drawString(LEFT + indent, self.y, line)
            self.y -= lead
        self.y -= gap


def _head(c: Canvas, app, title: str) -> tuple[_Page, object]:
    sender = sender_for(app.jurisdiction, strict=False)
    draw_letterhead(c, sender)
    c.setFont("Helvetica", 10)
    c.drawRightString(WIDTH - LEFT, HEIGHT - 50, timezone.localdate().strftime("%B %-d, %Y"))
    owner = app.owner
    name = owner.name if owner else app.owner_name
    address = (owner.mailing_address if owner else "") or (app.parcel.site_address if app.parcel_id else "")
    y = ADDRESS_TOP
    c.setFont("Helvetica", ADDRESS_SIZE)
    for line in [name, *[x.strip() for x in address.replace(",", "\n", 1).splitlines() if x.strip()]][:5]:
        c.drawString(ADDRESS_X, y, fit(line, "Helvetica", ADDRESS_SIZE, ADDRESS_WIDTH))
        y -= ADDRESS_LEADING
    page = _Page(c)
    page.y = HEIGHT - 3.6 * INCH
    page.text(title, "Helvetica-Bold", 14, gap=4)
    where = app.parcel.site_address if app.parcel_id and app.parcel.site_address else ""
    system = f"system {app.system.system_id}" if app.system_id else "your system"
    page.text(f"Application {app.pk}{f' ({app.external_id})' if app.external_id else ''}, received "
              f"{app.applied_on.strftime('%B %-d, %Y')}, fiscal year {app.fiscal_year}, for {system}"
              f"{f' at {where}' if where else ''}.", gap=10)
    return page, sender


def _foot(page: _Page, sender) -> None:
    page.text("Questions", "Helvetica-Bold", 10, gap=2)
    contact = "; ".join(x for x in (sender.office, sender.phone, sender.email, sender.hours) if x)
    page.text(f"Contact {(contact or sender.county).rstrip('.')}.", size=9)


def denial_pdf(app, decision) -> bytes:
    rules = letter_rules(app.jurisdiction.slug)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(WIDTH, HEIGHT))
    c.setTitle(f"Wisconsin Fund grant application {app.pk}: denied")
    page, sender = _head(c, app, "Your Wisconsin Fund grant application is denied")
    page.text(f"The county decided on {timezone.localtime(decision.decided_at).strftime('%B %-d, %Y')} that the "
              "application does not meet the following requirement(s) of the law:", gap=8)
    for reason in decision.reasons:
        page.text(f"- {sentence(reason['text'])}", indent=10, gap=1)
        if reason.get("found"):
            page.text(f"Grant on record: {reason['found']}.", size=9, indent=22, gap=1)
        page.text(f"({for_the_public(reason['citation'])})", size=9, indent=22, gap=6)
    page.text(f"This notice of denial with its reasons is given under {for_the_public(rules.denial_citation)}.",
              size=9, gap=10)
    page.text("How to appeal", "Helvetica-Bold", 11, gap=2)
    page.text(f"{sentence(rules.appeal_text)} ({for_the_public(rules.appeal_citation)})", gap=10)
    _foot(page, sender)
    c.showPage()
    c.save()
    return buf.getvalue()


def approval_pdf(app, decision) -> bytes:
    rules = letter_rules(app.jurisdiction.slug)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(WIDTH, HEIGHT))
    c.setTitle(f"Wisconsin Fund grant application {app.pk}: approved")
    page, sender = _head(c, app, "Your Wisconsin Fund grant application is approved")
    page.text(f"Grant amount: {money(decision.amount)}", "Helvetica-Bold", 12, gap=4)
    category = f"category {decision.category} failing system, " if decision.category else ""
    page.text(f"The county decided on {timezone.localtime(decision.decided_at).strftime('%B %-d, %Y')} that the "
              f"application is eligible ({category}state share {money(decision.state_share)}, under "
              f"Wis. Stat. s. {decision.law_version}).", gap=10)
    page.text("What happens next", "Helvetica-Bold", 11, gap=2)
    page.text(f"{sentence(rules.next_steps)} ({for_the_public(rules.next_steps_citation)})", gap=10)
    _foot(page, sender)
    c.showPage()
    c.save()
    return buf.getvalue()


def letter_pdf(app, decision) -> tuple[str, bytes]:
    """(file name, PDF) of the letter for a decision."""
    if decision.eligible:
        return f"grant-{app.pk}-approval.pdf", approval_pdf(app, decision)
    return f"grant-{app.pk}-denial.pdf", denial_pdf(app, decision)
