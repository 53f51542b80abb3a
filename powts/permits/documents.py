"""Printed and calendar documents: the permit card (PDF) and an inspector's iCalendar feed.

The card is posted at the site, visible from the road, until final approval; it cites the county's own
rule for posting it (permits.yaml `steps.card_posting`).
"""
from __future__ import annotations

import datetime as dt
import io

from django.utils import timezone

from powts.permits import rules
from powts.permits.models import Inspection, Permit


def permit_card_pdf(permit: Permit) -> bytes:
    """A one-page, large-type card (US letter, landscape) for posting at the site."""
    from reportlab.lib.pagesizes import landscape, letter
    from reportlab.lib.units import inch
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    width, height = landscape(letter)
    pdf = canvas.Canvas(buf, pagesize=(width, height))
    pdf.setTitle(f"Sanitary permit {permit.number}")
    pdf.setLineWidth(4)
    pdf.rect(0.4 * inch, 0.4 * inch, width - 0.8 * inch, height - 0.8 * inch)
    pdf.setFont("Helvetica-Bold", 20)
    pdf.drawCentredString(width / 2, height - 1.0 * inch, f"{permit.jurisdiction.name.upper()} SANITARY PERMIT")
    pdf.setFont("Helvetica-Bold", 64)
    pdf.drawCentredString(width / 2, height - 2.0 * inch, permit.number)
    parcel = permit.parcel
    lines = [
        ("Site", parcel.site_address or "(no address)"),
        ("Parcel", parcel.parcel_number),
        ("Owner", permit.owner.name),
        ("Plumber", f"{permit.plumber.holder_name}, license {permit.plumber.number}"),
        ("System", f"{permit.get_system_type_display()} - {permit.get_kind_display()}"),
        ("Issued", permit.issued_on.isoformat() if permit.issued_on else "NOT ISSUED"),
        ("Expires", (permit.expires_on.isoformat() + " unless installed and approved") if permit.expires_on else "-"),
    ]
    y = height - 2.8 * inch
    for label, value in lines:
        pdf.setFont("Helvetica-Bold", 18)
        pdf.drawString(1.0 * inch, y, f"{label}:")
        pdf.setFont("Helvetica", 18)
        pdf.drawString(2.4 * inch, y, str(value)[:70])
        y -= 0.42 * inch
    pdf.setFont("Helvetica-Oblique", 11)
    pdf.drawCentredString(width / 2, 0.85 * inch, "Display this card so it is visible from the road fronting the lot "
                          "until the system has been installed, inspected and approved.")
    posting = rules.step_citation(permit.slug, "card_posting")
    if posting:
        pdf.drawCentredString(width / 2, 0.62 * inch, posting)
    pdf.showPage()
    pdf.save()
    return buf.getvalue()


def _escape(text: str) -> str:
    return (str(text).replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\r\n", "\\n").replace("\n", "\\n"))


def _fold(line: str) -> str:
    """RFC 5545 3.1: lines of at most 75 octets, continued with CRLF and a space."""
    out, current = [], b""
    for ch in line:
        b = ch.encode("utf-8")
        if len(current) + len(b) > 75:
            out.append(current.decode("utf-8"))
            current = b" "
        current += b
    out.append(current.decode("utf-8"))
    return "\r\n".join(out)


def inspections_ics(inspections, *, name: str, host: str = "powts") -> str:
    """An iCalendar (RFC 5545) feed: one all-day event per inspection on its requested day."""
    stamp = timezone.now().astimezone(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//powts//permits//EN", "CALSCALE:GREGORIAN",
             f"X-WR-CALNAME:{_escape(name)}", "X-WR-TIMEZONE:America/Chicago"]
    for insp in inspections:
        permit = insp.permit
        day = insp.requested_day
        desc = (f"Permit {permit.number}, {permit.get_system_type_display()}; stage {insp.stage}. Inspect by the end of "
                f"{insp.deadline_day.isoformat()} [{insp.deadline_citation}]. Plumber {permit.plumber.holder_name}. "
                f"Result: {insp.get_result_display()}.")
        lines += ["BEGIN:VEVENT", f"UID:inspection-{insp.pk}@{host}", f"DTSTAMP:{stamp}",
                  f"DTSTART;VALUE=DATE:{day:%Y%m%d}", f"DTEND;VALUE=DATE:{day + dt.timedelta(days=1):%Y%m%d}",
                  f"SUMMARY:{_escape(f'Inspect {permit.number} ({insp.stage})')}",
                  f"LOCATION:{_escape(permit.parcel.site_address or permit.parcel.parcel_number)}",
                  f"DESCRIPTION:{_escape(desc)}",
                  "STATUS:" + ("CANCELLED" if insp.result == "cancelled" else "CONFIRMED"), "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return "\r\n".join(_fold(x) for x in lines) + "\r\n"


def inspector_feed(user) -> str:
    qs = (Inspection.objects.filter(inspector=user).select_related("permit__parcel", "permit__plumber")
          .order_by("requested_day", "id"))
    return inspections_ics(qs, name=f"Inspections: {user.display_name}")
