"""Notice letters as PDF with ReportLab: one file per owner, one merged file per batch for the print shop.

The page is laid out for a #10 single-window envelope (9-1/2 x 4-1/8 in.) with the window where most
commercial window envelopes have it: 4-1/2 x 1-1/8 in., 7/8 in. from the left edge and 1/2 in. from
the bottom. The letter is folded in three (3-2/3 in. panels); the owner's name and mailing address
sit in WINDOW, with 1/8 in. to spare on every side and room for the letter to shift 1/2 in. sideways
in the envelope (USPS Publication 28: name and delivery address, city, state and ZIP on the last
line). The county's return address heads the letter above the window and shows on the envelope only
if the county uses a double-window envelope.

The parts every letter in a language shares (the letterhead, what to do, who may do it, how to reach
the county) are drawn once per file as a form XObject and placed on each page, so a batch of
thousands costs little more than the text that differs. An owner who reads Spanish or Hmong gets
the letter in that language followed by the English letter, which is the legal notice.
"""
from __future__ import annotations

import datetime as dt
import functools
import os
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib.pagesizes import letter
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from powts.kernel.cited import for_the_public
from powts.maintenance import addresses
from powts.maintenance.letter_text import CODES, ENGLISH, long_date, texts

WIDTH, HEIGHT = letter
INCH = 72
LEFT = INCH
TEXT_WIDTH = WIDTH - 2 * LEFT
# The envelope window on the folded letter, in points from the page's bottom-left corner: (x0, y0, x1, y1).
# Horizontally the window (7/8 to 5-3/8 in. on a 9-1/2 in. envelope) over a letter that may sit anywhere
# from flush left to 1 in. right: 7/8 to 4-3/8 in. of the letter. Vertically the top panel (3-2/3 in.)
# resting on the envelope's bottom: the window spans 2-1/24 to 3-1/6 in. from the letter's top.
WINDOW = (0.875 * INCH, HEIGHT - 3.1667 * INCH, 4.375 * INCH, HEIGHT - 2.0417 * INCH)
ADDRESS_X = WINDOW[0] + INCH / 8  # 1 in.
ADDRESS_TOP = HEIGHT - 2.32 * INCH  # the first line's baseline
ADDRESS_LEADING = 11.5
ADDRESS_SIZE = 10
ADDRESS_WIDTH = WINDOW[2] - INCH / 8 - ADDRESS_X  # 3-1/4 in.
FOLDS = (HEIGHT - 11 * INCH / 3, HEIGHT - 22 * INCH / 3)
SHARED_TOP = 3.9 * INCH  # "What to do" and the rest every letter shares start here; the letter's own text ends above


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
    language: str = ENGLISH


@dataclass(frozen=True)
class Sender:
    county: str
    office: str
    address: tuple[str, ...]
    phone: str
    email: str
    hours: str
    who_may_do_it: str
    lead_citation: str
    report_citation: str
    agency: str = ""
    missing: tuple[str, ...] = field(default=())  # contact details the county's profile lacks


@functools.lru_cache(maxsize=4096)
def wrap(text: str, font: str = "Helvetica", size: float = 10, width: float = TEXT_WIDTH) -> tuple[str, ...]:
    """Lines of `text` that fit `width` points (cached: most text repeats letter after letter)."""
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if line and stringWidth(trial, font, size) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return tuple(lines)


def fit(text: str, font: str, size: float, width: float) -> str:
    """`text` cut to `width` points (an address line longer than the window)."""
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "...", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "..."


def one_stop(text: str) -> str:
    """A sentence ending in a citation that ends in its own period ("SPS 383.54(4)(a)1.") ends once."""
    return text[:-1] if text.endswith("..") else text


def sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith(".") else text + "."


def _section(c: Canvas, y: float, heading: str, body: str) -> float:
    c.setFont("Helvetica-Bold", 10)
    c.drawString(LEFT, y, heading)
    y -= 13
    c.setFont("Helvetica", 9)
    for line in wrap(body, "Helvetica", 9):
        c.drawString(LEFT, y, line)
        y -= 11.5
    return y - 8


def draw_letterhead(c: Canvas, sender: Sender) -> None:
    """The county's return address and how to reach it, above the window: every letter the county sends."""
    c.setFont("Helvetica-Bold", 13)
    c.drawString(LEFT, HEIGHT - 50, sender.county)
    c.setFont("Helvetica", 9)
    y = HEIGHT - 63
    for line in (sender.office, *sender.address, "   ".join(x for x in (sender.phone, sender.email) if x)):
        if line:
            c.drawString(LEFT, y, line)
            y -= 11


def shared_key(code: str, kind: str) -> str:
    """The shared part a letter of `kind` carries: the language's, or its own where the letter asks for other work
    (texts' `what_by_kind`, e.g. an overdue holding tank report is not a septic tank inspection)."""
    return f"{code}_{kind}" if kind in (texts(ENGLISH).get("what_by_kind") or {}) else code


def _draw_shared(c: Canvas, sender: Sender, code: str, kind: str = "") -> None:
    t = texts(code)
    draw_letterhead(c, sender)
    c.setLineWidth(0.5)
    for fold in FOLDS:  # fold marks in the margin, for the print shop's folder
        c.line(0, fold, 14, fold)
    y = SHARED_TOP
    what = (t.get("what_by_kind") or {}).get(kind) or t["what"]
    y = _section(c, y, t["what_heading"], what.format(report_citation=sender.report_citation))
    who = sentence(sender.who_may_do_it) if code == ENGLISH else t["who"]
    y = _section(c, y, t["who_heading"], who)
    _section(c, y, t["questions_heading"], one_stop(t["questions"].format(phone=sender.phone, email=sender.email, hours=sender.hours)))
    c.setFont("Helvetica", 8)
    c.drawString(LEFT, 0.6 * INCH, t["keep"])


def address_lines(item: Letter) -> list[str]:
    return [item.to_name, *addresses.lines(item.to_address)][: addresses.MAX_LINES]


def _draw_variable(c: Canvas, item: Letter, code: str) -> float:
    """Draws what is this letter's own; returns how far down its text went (the baseline below the last line)."""
    t = texts(code)
    c.setFont("Helvetica", 10)
    c.drawRightString(WIDTH - LEFT, HEIGHT - 50, long_date(code, item.mailed_on))
    y = ADDRESS_TOP
    c.setFont("Helvetica", ADDRESS_SIZE)
    for line in address_lines(item):
        c.drawString(ADDRESS_X, y, fit(line, "Helvetica", ADDRESS_SIZE, ADDRESS_WIDTH))
        y -= ADDRESS_LEADING
    y = HEIGHT - 4.1 * INCH
    c.setFont("Helvetica-Bold", 14)
    for line in wrap(t["titles"].get(item.kind, item.kind), "Helvetica-Bold", 14):
        c.drawString(LEFT, y, line)
        y -= 17
    y -= 6
    c.setFont("Helvetica-Bold", 12)
    c.drawString(LEFT, y, f"{t['due_label']}: {long_date(code, item.due_on)}")  # the one place the due date is printed
    c.setFont("Helvetica", 10)
    c.drawString(LEFT, y - 15, f"{t['system_label']}: {item.system_ref} ({item.system_type})")
    if item.site_address:
        c.drawString(LEFT, y - 28, f"{t['property_label']}: {item.site_address}")
    y -= 50
    for line in wrap(t["body"].get(item.kind, ""), "Helvetica", 10):
        c.drawString(LEFT, y, line)
        y -= 13
    if t.get("legal_text"):
        c.setFont("Helvetica-Bold", 9)
        for line in wrap(t["legal_text"], "Helvetica-Bold", 9):
            y -= 3
            c.drawString(LEFT, y, line)
            y -= 11
    end = y
    c.setFont("Helvetica", 8)
    c.drawString(LEFT, 0.6 * INCH + 11, one_stop(t["authority"].format(citation=for_the_public(item.citation))))
    return end


def languages_of(item: Letter) -> tuple[str, ...]:
    """The pages of a letter: the owner's language, then English (the legal notice) if that was not English."""
    code = item.language if item.language in CODES else ENGLISH
    return (code,) if code == ENGLISH else (code, ENGLISH)


class Press:
    """Draws every letter of a batch once, with ReportLab, into the print shop's merged file, and
    writes each owner's file from the very same page operators (the shared part captured once per
    language), so a batch costs one ReportLab drawing per page rather than a ReportLab document per owner.

    An owner's file is a plain PDF 1.4: catalog, pages, the standard fonts (WinAnsi, as ReportLab
    encodes them), one content stream per page.
    """

    def __init__(self, merged, sender: Sender):
        self.sender = sender
        self.canvas = c = Canvas(merged if hasattr(merged, "write") else str(merged), pagesize=letter, pageCompression=0)
        c.setTitle(f"{sender.county}: maintenance notices")
        c.setAuthor(sender.office or sender.county)
        self.shared_ops: dict[str, str] = {}
        for code in CODES:
            for kind in ("", *(texts(ENGLISH).get("what_by_kind") or {})):
                key = shared_key(code, kind) if kind else code
                _draw_shared(c, sender, code, kind)  # captured, then taken off the page: it goes in as a form
                self.shared_ops[key] = "\n".join(c._code)
                del c._code[:]
                c.beginForm(f"shared_{key}")
                _draw_shared(c, sender, code, kind)
                c.endForm()
        self.pages = 0

    def add(self, item: Letter) -> list[tuple[str, list[str]]]:
        """Draws the letter's pages into the merged file; returns them as (shared part's key, operators) for write_owner."""
        c = self.canvas
        out = []
        for code in languages_of(item):
            key = shared_key(code, item.kind)
            c.doForm(f"shared_{key}")
            start = len(c._code)
            _draw_variable(c, item, code)
            out.append((key, c._code[start:]))
            c.showPage()
            self.pages += 1
        return out

    def owner_pdf(self, pages: list[tuple[str, list[str]]]) -> bytes:
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
        kids = []
        for key, ops in pages:
            stream = (self.shared_ops[key] + "\n" + "\n".join(ops)).encode("latin-1")
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
        return bytes(out)

    def write_owner(self, path: Path, pages: list[tuple[str, list[str]]]) -> None:
        data = self.owner_pdf(pages)
        # 0600 from the start: a letter names its owner and address
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as handle:
            handle.write(data)

    def close(self) -> None:
        self.canvas.save()


def one_letter_pdf(item: Letter, sender: Sender) -> bytes:
    """One letter (all its pages) as a PDF, for the preview before anything is sent and for a reprint."""
    import io

    press = Press(io.BytesIO(), sender)
    return press.owner_pdf(press.add(item))


def _pdf_text(text: str) -> bytes:
    return text.encode("latin-1", "replace").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
