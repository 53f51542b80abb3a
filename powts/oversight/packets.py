"""The evidence packet sent with a referral (Wis. Stat. s. 145.20(5)(c) and the county's own rule, oversight.yaml referral): a PDF letter-size
summary and a CSV of every flagged report and its evidence. Renders only; services never render."""
from __future__ import annotations

import csv
import io

from powts.kernel.cited import for_the_public
from powts.core.spreadsheet import neutralise

CSV_HEADERS = ["referral", "licence", "licence kind", "holder", "record", "system or parcel", "date", "record kind",
               "flag", "reason", "evidence date", "evidence"]


def _flags(referral):
    return referral.flags.select_related("report", "permit__parcel").order_by("report__work_date", "permit__filed_on", "id")


def _record(flag) -> tuple:
    """(id, system or parcel, date, what it is): a maintenance report, or a permit application (where the county profile has the rule)."""
    if flag.report_id:
        r = flag.report
        return r.pk, r.system_ref, r.work_date.isoformat(), f"{r.get_kind_display()} report"
    p = flag.permit
    return p.number, f"parcel {p.parcel.parcel_number}", p.filed_on.isoformat() if p.filed_on else "", "Sanitary permit application"


def _rows(referral):
    for flag in _flags(referral):
        number, where, day, what = _record(flag)
        for item in flag.evidence or [{"what": ""}]:
            yield [referral.pk, referral.license.number, referral.license.get_kind_display(), referral.license.holder_name,
                   number, where, day, what, flag.get_kind_display(), flag.reason, item.get("on", ""), item.get("what", "")]


def packet_csv(referral) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(CSV_HEADERS)
    for row in _rows(referral):
        writer.writerow([neutralise(v) for v in row])
    return buf.getvalue()


def packet_pdf(referral) -> bytes:
    from reportlab.lib.pagesizes import letter
    from reportlab.lib.units import inch
    from reportlab.pdfgen import canvas

    from powts.maintenance.letters import wrap

    buf = io.BytesIO()
    width, height = letter
    pdf = canvas.Canvas(buf, pagesize=letter)
    pdf.setTitle(f"Referral {referral.pk}: evidence")
    y = height - inch

    def line(text, font="Helvetica", size=10, gap=14):
        nonlocal y
        for part in wrap(str(text), font, size, width - 2 * inch) or [""]:
            if y < inch:
                pdf.showPage()
                y = height - inch
            pdf.setFont(font, size)
            pdf.drawString(inch, y, part)
            y -= gap

    lic = referral.license
    line(f"{referral.jurisdiction.name}: referral to {referral.agency}", "Helvetica-Bold", 14, 20)
    line(f"Referred on {referral.referred_on.isoformat()} under {for_the_public(referral.citation)}")
    line(f"Licence holder: {lic.holder_name}{', ' + lic.business_name if lic.business_name else ''}")
    line(f"Licence: {lic.get_kind_display()} {lic.number}")
    if referral.note:
        line(f"Note: {referral.note}")
    y -= 8
    for flag in _flags(referral):
        number, where, day, what = _record(flag)
        line(f"{what} {number if not flag.report_id else ''}, {where if not flag.report_id else 'system ' + where}, "
             f"{'filed' if not flag.report_id else 'work of'} {day}".replace("  ", " ").replace(" ,", ","), "Helvetica-Bold", 11, 16)
        line(f"Why: {flag.reason}")
        for item in flag.evidence:
            line(f"- {item.get('on', '')} {item.get('what', '')}".replace("-  ", "- "))
        y -= 6
    pdf.showPage()
    pdf.save()
    return buf.getvalue()
