"""The annual summary for the state (SPS 383.255): systems by type, reports received, notices sent,
delinquencies, failures found; as CSV and as PDF."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from django.db.models import Count, Q

from powts.core import spreadsheet
from powts.inventory.models import System
from powts.maintenance.models import Notice, Report, Schedule

CITATION = "SPS 383.255 (annual summary report to the department); Wis. Stat. s. 145.20(5)"


def annual_summary(*, jurisdiction, year: int) -> list[tuple[str, str, int]]:
    """Rows of (section, item, count) for the year."""
    start, end = dt.date(year, 1, 1), dt.date(year, 12, 31)
    rows: list[tuple[str, str, int]] = []
    systems = System.objects.filter(jurisdiction=jurisdiction)
    for t, n in systems.values_list("system_type").annotate(n=Count("pk")).order_by("system_type"):
        rows.append(("systems in the inventory by type", t, n))
    rows.append(("systems in the inventory by type", "total", systems.count()))
    reports = Report.objects.filter(jurisdiction=jurisdiction, work_date__range=(start, end))
    agg = reports.aggregate(total=Count("pk"), inspection=Count("pk", filter=Q(kind="inspection")),
                            pumping=Count("pk", filter=Q(kind="pumping")), servicing=Count("pk", filter=Q(kind="servicing")),
                            late=Count("pk", filter=Q(late=True)), unknown=Count("pk", filter=Q(system__isnull=True)),
                            failures=Count("pk", filter=Q(failure_flag=True)), ponding=Count("pk", filter=Q(effluent_ponding=True)))
    for key in ("total", "inspection", "pumping", "servicing", "late", "unknown"):
        label = {"late": "filed late (more than 30 days after the work, SPS 383.55)",
                 "unknown": "for systems not in the inventory (SPS 383.255)"}.get(key, key)
        rows.append(("reports received", label, agg[key]))
    notices = Notice.objects.filter(jurisdiction=jurisdiction, as_of__range=(start, end))
    for kind, n in notices.values_list("kind").annotate(n=Count("pk")).order_by("kind"):
        rows.append(("notices sent", kind, n))
    rows.append(("notices sent", "total", notices.count()))
    delinquent_year = notices.filter(kind="delinquent").values("system_id").distinct().count()
    rows.append(("delinquencies", "systems found delinquent in the year", delinquent_year))
    rows.append(("delinquencies", "systems delinquent at year end",
                 Schedule.objects.filter(jurisdiction=jurisdiction, delinquent=True, due_on__lte=end).count()))
    rows.append(("failures found", "reports with a failure observed", agg["failures"]))
    rows.append(("failures found", "reports with effluent ponding", agg["ponding"]))
    rows.append(("failures found", "systems failing in the inventory", systems.filter(status="failing").count()))
    return rows


def write_csv(path: Path, jurisdiction, year: int, rows) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        w = spreadsheet.writer(handle)
        w.writerow(["jurisdiction", "year", "section", "item", "count"])
        for section, item, n in rows:
            w.writerow([jurisdiction.slug, year, section, item, n])


def write_pdf(path: Path, jurisdiction, year: int, rows) -> None:
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen.canvas import Canvas

    c = Canvas(str(path), pagesize=letter)
    width, height = letter
    c.setFont("Helvetica-Bold", 14)
    c.drawString(72, height - 72, f"{jurisdiction.name}: POWTS maintenance program, annual summary {year}")
    c.setFont("Helvetica", 8)
    c.drawString(72, height - 86, CITATION)
    y, section = height - 115, None
    for sec, item, n in rows:
        if y < 72:
            c.showPage()
            y = height - 72
        if sec != section:
            c.setFont("Helvetica-Bold", 11)
            c.drawString(72, y, sec[:1].upper() + sec[1:])
            y -= 16
            section = sec
        c.setFont("Helvetica", 10)
        c.drawString(90, y, item)
        c.drawRightString(width - 72, y, f"{n:,}")
        y -= 13
    c.save()
