"""Notice letters as PDF with ReportLab: one file per owner, one merged file per batch for the print shop.

The parts every letter shares (the county header, what to do, who may do it) are drawn once per
file as a form XObject and placed on each page, so a batch of thousands costs little more than the
text that differs.
"""
from __future__ import annotations

import datetime as dt
import os
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


def _draw_shared(c: Canvas, sender: Sender) -> None:
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


def _shared_form(c: Canvas, sender: Sender) -> None:
    c.beginForm("shared")
    _draw_shared(c, sender)
    c.endForm()


def _page(c: Canvas, item: Letter) -> None:
    c.doForm("shared")
    _draw_variable(c, item)
    c.showPage()


def _draw_variable(c: Canvas, item: Letter) -> None:
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


class Press:
    """Draws every letter of a batch once, with ReportLab, into the print shop's merged file, and
    writes each owner's file from the very same page operators (the shared part captured once), so
    a batch costs one ReportLab drawing per letter rather than a ReportLab document per owner.

    An owner's file is a plain PDF 1.4: catalog, pages, the two standard fonts (WinAnsi, as ReportLab
    encodes them), one content stream per page.
    """

    def __init__(self, merged_path: Path, sender: Sender):
        self.sender = sender
        self.canvas = c = Canvas(str(merged_path), pagesize=letter, pageCompression=0)
        c.setTitle(f"{sender.county}: maintenance notices")
        c.setAuthor(sender.agency)
        _draw_shared(c, sender)  # captured, then taken off the page: it goes in as a form
        self.shared_ops = list(c._code)
        del c._code[:]
        _shared_form(c, sender)
        self.pages = 0

    def add(self, item: Letter) -> list[str]:
        c = self.canvas
        c.doForm("shared")
        start = len(c._code)
        _draw_variable(c, item)
        ops = c._code[start:]
        c.showPage()
        self.pages += 1
        return ops

    def write_owner(self, path: Path, pages: list[list[str]]) -> None:
        fonts = self.canvas._doc.fontMapping  # {"Helvetica": "/F1", ...}, as the operators name them
        objects: list[bytes] = []

        def add(body: bytes) -> int:
            objects.append(body)
            return len(objects)

        catalog = add(b"")
        pages_obj = add(b"")
        font_refs = []
        for base, name in fonts.items():
            ref = add(f"<< /Type /Font /Subtype /Type1 /Name {name} /BaseFont /{base} /Encoding /WinAnsiEncoding >>".encode())
            font_refs.append(f"{name} {ref} 0 R")
        resources = f"<< /Font << {' '.join(font_refs)} >> /ProcSet [/PDF /Text] >>"
        shared = "\n".join(self.shared_ops)
        kids = []
        for ops in pages:
            stream = (shared + "\n" + "\n".join(ops)).encode("latin-1")
            content = add(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
            kids.append(add(f"<< /Type /Page /Parent {pages_obj} 0 R /MediaBox [0 0 {WIDTH:g} {HEIGHT:g}] "
                            f"/Resources {resources} /Contents {content} 0 R >>".encode()))
        info = add(b"<< /Title (" + _pdf_text(f"{self.sender.county}: maintenance notice") + b") /Producer (powts) >>")
        objects[catalog - 1] = f"<< /Type /Catalog /Pages {pages_obj} 0 R >>".encode()
        objects[pages_obj - 1] = f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>".encode()
        out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for i, body in enumerate(objects, 1):
            offsets.append(len(out))
            out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
        xref = len(out)
        out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
        out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
        out += b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, catalog, info, xref)
        # 0600 from the start: a letter names its owner and address
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as handle:
            handle.write(bytes(out))

    def close(self) -> None:
        self.canvas.save()


def _pdf_text(text: str) -> bytes:
    return text.encode("latin-1", "replace").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
