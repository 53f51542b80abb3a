"""The annual summary for the state (SPS 383.255): systems by type, reports received, notices sent,
delinquencies, failures found; as CSV and as PDF."""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from django.db.models import Count, Q

from powts.core import spreadsheet
from powts.inventory.models import System
from powts.jurisdictions.models import Jurisdiction
from powts.maintenance.models import Notice, Report, Schedule

CITATION = "SPS 383.255 (annual summary report to the department); Wis. Stat. s. 145.20(5)"


def annual_summary(*, jurisdiction, year: int) -> list[tuple[str, str, int]]:
    """Rows of (section, item, count) for the year."""
    return annual_summaries(year=year, jurisdiction_ids=[jurisdiction.pk])[jurisdiction.pk]


REPORT_LABELS = {"late": "filed late (more than 30 days after the work, SPS 383.55)",
                 "unknown": "for systems not in the inventory (SPS 383.255)"}


def annual_summaries(*, year: int, jurisdiction_ids=None) -> dict[int, list[tuple[str, str, int]]]:
    """annual_summary of every county (or of `jurisdiction_ids`), each figure one query grouped by county: the
    state's view reads all of them at once (72 counties: 6 queries, not 72 x 8)."""
    start, end = dt.date(year, 1, 1), dt.date(year, 12, 31)

    def of(qs):
        return qs if jurisdiction_ids is None else qs.filter(jurisdiction_id__in=jurisdiction_ids)

    by_type: dict[int, list] = {}
    failing: dict[int, int] = {}
    for jid, t, n, f in (of(System.objects.all()).values_list("jurisdiction_id", "system_type")
                         .annotate(n=Count("pk"), failing=Count("pk", filter=Q(status="failing")))
                         .order_by("jurisdiction_id", "system_type")):
        by_type.setdefault(jid, []).append((t, n))
        failing[jid] = failing.get(jid, 0) + f
    reports = {row.pop("jurisdiction_id"): row for row in of(Report.objects.filter(work_date__range=(start, end)))
               .values("jurisdiction_id").order_by("jurisdiction_id").annotate(
                   total=Count("pk"), inspection=Count("pk", filter=Q(kind="inspection")),
                   pumping=Count("pk", filter=Q(kind="pumping")), servicing=Count("pk", filter=Q(kind="servicing")),
                   late=Count("pk", filter=Q(late=True)), unknown=Count("pk", filter=Q(system__isnull=True)),
                   failures=Count("pk", filter=Q(failure_flag=True)), ponding=Count("pk", filter=Q(effluent_ponding=True)))}
    notices: dict[int, list] = {}
    for jid, kind, n in (of(Notice.objects.filter(as_of__range=(start, end))).values_list("jurisdiction_id", "kind")
                         .annotate(n=Count("pk")).order_by("jurisdiction_id", "kind")):
        notices.setdefault(jid, []).append((kind, n))
    found_delinquent = dict(of(Notice.objects.filter(as_of__range=(start, end), kind="delinquent"))
                            .values_list("jurisdiction_id").annotate(n=Count("system_id", distinct=True)).order_by())
    delinquent_at_end = dict(of(Schedule.objects.filter(delinquent=True, due_on__lte=end)).values_list("jurisdiction_id")
                             .annotate(n=Count("pk")).order_by())
    ids = jurisdiction_ids if jurisdiction_ids is not None else \
        list(Jurisdiction.objects.order_by("pk").values_list("pk", flat=True))
    out = {}
    for jid in ids:
        rows: list[tuple[str, str, int]] = []
        types = by_type.get(jid, [])
        rows += [("systems in the inventory by type", t, n) for t, n in types]
        rows.append(("systems in the inventory by type", "total", sum(n for _, n in types)))
        agg = reports.get(jid) or dict.fromkeys(("total", "inspection", "pumping", "servicing", "late", "unknown",
                                                 "failures", "ponding"), 0)
        for key in ("total", "inspection", "pumping", "servicing", "late", "unknown"):
            rows.append(("reports received", REPORT_LABELS.get(key, key), agg[key]))
        kinds = notices.get(jid, [])
        rows += [("notices sent", kind, n) for kind, n in kinds]
        rows.append(("notices sent", "total", sum(n for _, n in kinds)))
        rows.append(("delinquencies", "systems found delinquent in the year", found_delinquent.get(jid, 0)))
        rows.append(("delinquencies", "systems delinquent at year end", delinquent_at_end.get(jid, 0)))
        rows.append(("failures found", "reports with a failure observed", agg["failures"]))
        rows.append(("failures found", "reports with effluent ponding", agg["ponding"]))
        rows.append(("failures found", "systems failing in the inventory", failing.get(jid, 0)))
        out[jid] = rows
    return out


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
