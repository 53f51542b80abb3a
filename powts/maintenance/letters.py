"""Notice letters as PDF with ReportLab: one file per owner, one merged file per batch for the print shop.

The parts every letter shares (the county header, what to do, who may do it) are drawn once per
file as a form XObject and placed on each page, so a batch of thousands costs little more than the
text that differs.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.pagesizes import letter
from reportlab.pdfgen.canvas import Canvas

WIDTH, HEIGHT = letter
LEFT = 72

TITLES = {
    "first_notice": "Notice: septic system maintenance due",
    "reminder": "Reminder: septic system maintenance overdue",
    "delinquent": "Notice of delinquency: septic system maintenance",
    "violation": "Notice of violation: septic system maintenance",
    "enforcement_order": "Enforcement order: septic system maintenance",
}
WHAT = {
    "first_notice": "Please have your system inspected or pumped on or before the due date below.",
    "reminder": "Our records show no inspection or pumping report since the due date below. Please have the work done now.",
    "delinquent": "No report has reached us since the due date below. Your system is delinquent in the county's maintenance program.",
    "violation": "Failure to maintain your system as required is a violation of the county ordinance. Have the work done and reported at once.",
    "enforcement_order": "You are ordered to have your system inspected or pumped and the report filed. Further penalties may follow.",
}


@dataclass(frozen=True)
class Letter:
    kind: str
    to_name: str
    to_address: str
    system_ref: str
    site_address: str
    system_type: str
    due_on: dt.date
    mailed_on: dt.date
    citation: str


@dataclass(frozen=True)
class Sender:
    agency: str
    county: str
    who_may_do_it: str
    lead_citation: str
    report_citation: str


def _wrap(text: str, width: int = 95) -> list[str]:
    words, lines, line = text.split(), [], ""
    for w in words:
        if len(line) + len(w) + 1 > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    if line:
        lines.append(line)
    return lines


def _shared_form(c: Canvas, sender: Sender) -> None:
    c.beginForm("shared")
    c.setFont("Helvetica-Bold", 13)
    c.drawString(LEFT, HEIGHT - 60, sender.county)
    c.setFont("Helvetica", 9)
    c.drawString(LEFT, HEIGHT - 74, sender.agency)
    c.line(LEFT, HEIGHT - 80, WIDTH - LEFT, HEIGHT - 80)
    c.setFont("Helvetica-Bold", 10)
    c.drawString(LEFT, 300, "What to do")
    c.setFont("Helvetica", 9)
    y = 286
    for line in _wrap("Hire a licensed professional to inspect your septic tank (and pump it if sludge and scum fill 1/3 or more "
                      "of the tank). They file the report with the county within 30 days of the work (" + sender.report_citation + ")."):
        c.drawString(LEFT, y, line)
        y -= 12
    c.setFont("Helvetica-Bold", 10)
    c.drawString(LEFT, y - 6, "Who may do it")
    c.setFont("Helvetica", 9)
    y -= 20
    for line in _wrap(sender.who_may_do_it[:1].upper() + sender.who_may_do_it[1:] + "."):
        c.drawString(LEFT, y, line)
        y -= 12
    c.setFont("Helvetica", 8)
    c.drawString(LEFT, 60, f"Notice sent under {sender.lead_citation}. Keep this letter for your records.")
    c.endForm()


def _page(c: Canvas, item: Letter) -> None:
    c.doForm("shared")
    c.setFont("Helvetica", 10)
    c.drawString(LEFT, HEIGHT - 110, item.mailed_on.strftime("%B %-d, %Y"))
    y = HEIGHT - 140
    for line in [item.to_name, *[x.strip() for x in item.to_address.replace(",", "\n", 1).splitlines() if x.strip()]][:5]:
        c.drawString(LEFT, y, line)
        y -= 13
    c.setFont("Helvetica-Bold", 14)
    c.drawString(LEFT, HEIGHT - 250, TITLES.get(item.kind, item.kind))
    c.setFont("Helvetica", 10)
    y = HEIGHT - 275
    c.drawString(LEFT, y, f"System: {item.system_ref} ({item.system_type})")
    c.drawString(LEFT, y - 14, f"Location: {item.site_address or 'on file'}")
    c.setFont("Helvetica-Bold", 11)
    c.drawString(LEFT, y - 32, f"Due date: {item.due_on.strftime('%B %-d, %Y')}")
    c.setFont("Helvetica", 10)
    y -= 54
    for line in _wrap(WHAT.get(item.kind, ""), 90):
        c.drawString(LEFT, y, line)
        y -= 13
    c.setFont("Helvetica", 8)
    c.drawString(LEFT, y - 6, f"Authority: {item.citation}"[:130])
    c.showPage()


def render_owner(path: Path, sender: Sender, items: list[Letter]) -> None:
    c = Canvas(str(path), pagesize=letter, pageCompression=0)
    c.setTitle(f"{sender.county}: maintenance notice")
    _shared_form(c, sender)
    for item in items:
        _page(c, item)
    c.save()


def render_batch(path: Path, sender: Sender, items) -> int:
    """The print shop's merged file: every letter of the batch, in mailing order."""
    c = Canvas(str(path), pagesize=letter, pageCompression=0)
    c.setTitle(f"{sender.county}: maintenance notices")
    _shared_form(c, sender)
    n = 0
    for item in items:
        _page(c, item)
        n += 1
    c.save()
    return n
