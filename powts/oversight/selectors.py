"""Reads for oversight: the state's view of every county program, a county's audits, flags and charges."""
from __future__ import annotations

import datetime as dt

from django.db.models import Count, Q

from powts.oversight import choices as c
from powts.oversight.models import Assessment, IssuanceHold, ProgramAudit, Referral, ReportFlag, SampledPermit


# The state view's rows, kept in this process while nothing they are computed from has changed: the department
# and state auditors open the view again and again between the counties' writes.
_KEPT: dict[tuple, list[dict]] = {}


def programs_fingerprint() -> tuple:
    """What the state view's figures depend on, read afresh on every load in one statement of index-only reads: the
    newest audited write and its time (every write is audited; ids are used again after a rollback or a restore,
    times are not), and the newest report and notice (a notice send marks schedules delinquent in bulk, and a
    report clears them, with those rows)."""
    from django.db import connection

    from powts.audit.models import AuditEvent
    from powts.maintenance.models import Notice, Report

    q, t = connection.ops.quote_name, lambda model: connection.ops.quote_name(model._meta.db_table)
    sql = (f"SELECT (SELECT MAX({q('id')}) FROM {t(AuditEvent)}), (SELECT MAX({q('at')}) FROM {t(AuditEvent)}), "
           f"(SELECT MAX({q('id')}) FROM {t(Report)}), (SELECT MAX({q('id')}) FROM {t(Notice)})")
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return (connection.settings_dict["NAME"], *cursor.fetchone())


def county_programs(*, year: int, today: dt.date) -> list[dict]:
    """county_programs_fresh, from this process's memory when nothing it is computed from has changed since."""
    key = (year, today, programs_fingerprint())
    rows = _KEPT.get(key)
    if rows is None:
        rows = county_programs_fresh(year=year, today=today)
        _KEPT.clear()  # one year's view kept
        _KEPT[key] = rows
    return rows


def county_programs_fresh(*, year: int, today: dt.date) -> list[dict]:
    """One row per county: inventory completeness (SPS 383.255: legal description, parcel number, owner's name
    and address), the SPS 383.255 annual summary, late reports, open orders, audit findings, any hold.

    Each figure is one query grouped by county (about a dozen in all), never a query per county."""
    from powts.inventory.models import System
    from powts.jurisdictions.models import Jurisdiction
    from powts.maintenance.annual import annual_summaries
    from powts.permits.choices import OrderStatus
    from powts.permits.models import CorrectionOrder

    def grouped(qs, key="jurisdiction_id", **counts):
        return {row.pop(key): row for row in qs.values(key).order_by(key).annotate(**counts)}

    units = list(Jurisdiction.objects.order_by("name"))
    summaries = annual_summaries(year=year, jurisdiction_ids=[u.pk for u in units])
    complete = grouped(System.objects.exclude(parcel__legal_description="").exclude(parcel__owner__isnull=True)
                       .exclude(parcel__owner__mailing_address=""), n=Count("pk"))
    orders = grouped(CorrectionOrder.objects.exclude(status=OrderStatus.CORRECTED), n=Count("pk"),
                     overdue=Count("pk", filter=Q(correct_by__lt=today)))
    samples = grouped(SampledPermit.objects.all(), key="audit__jurisdiction_id",
                      deficient=Count("pk", filter=Q(outcome=c.SampleOutcome.DEFICIENT)),
                      verified=Count("pk", filter=~Q(outcome=c.SampleOutcome.PENDING)))
    audits = grouped(ProgramAudit.objects.exclude(status=c.AuditStatus.CLOSED), n=Count("pk"))
    holds = {h.jurisdiction_id: h for h in IssuanceHold.objects.filter(lifted_on__isnull=True)}
    rows = []
    for unit in units:
        summary = {(section, item): n for section, item, n in summaries[unit.pk]}
        total = summary[("systems in the inventory by type", "total")]
        done = complete.get(unit.pk, {}).get("n", 0)
        order, sample = orders.get(unit.pk, {}), samples.get(unit.pk, {})
        rows.append({
            "unit": unit, "systems": total, "complete": done,
            "complete_pct": round(100 * done / total) if total else None,
            "summary": summary,
            "reports": summary.get(("reports received", "total"), 0),
            "late_reports": summary.get(("reports received", "filed late (more than 30 days after the work, SPS 383.55)"), 0),
            "notices": summary.get(("notices sent", "total"), 0),
            "delinquent": summary.get(("delinquencies", "systems delinquent at year end"), 0),
            "open_orders": order.get("n", 0), "overdue_orders": order.get("overdue", 0),
            "deficient": sample.get("deficient", 0), "verified": sample.get("verified", 0),
            "open_audits": audits.get(unit.pk, {}).get("n", 0),
            "hold": holds.get(unit.pk),
        })
    return rows


def audits_for(user):
    from powts.oversight.policies import reads_state_view

    audits = ProgramAudit.objects.select_related("jurisdiction").annotate(
        n=Count("samples"), deficient=Count("samples", filter=Q(samples__outcome=c.SampleOutcome.DEFICIENT)))
    if reads_state_view(user):
        return audits
    return audits.filter(jurisdiction_id=user.jurisdiction_id) if user.jurisdiction_id else audits.none()


def flags_of(jurisdiction_id):
    return ReportFlag.objects.filter(jurisdiction_id=jurisdiction_id).select_related("report", "report__license", "permit", "license")


def referrals_of_license(license):
    return Referral.objects.filter(license=license).prefetch_related("flags__report")


def roll(*, jurisdiction_id, tax_year: int):
    """The special charges for the treasurer's tax roll of `tax_year`."""
    return (Assessment.objects.filter(jurisdiction_id=jurisdiction_id, tax_year=tax_year, status=c.AssessmentStatus.ASSESSED)
            .select_related("parcel").order_by("parcel__parcel_number", "id"))


def application_samples_visible(user):
    """The random inspections of applications `user` may read: a county's staff their own county's; the department
    and state auditors every county's. Another county's sample is simply not there (a 404, not a 403)."""
    from powts.oversight.models import ApplicationSample
    from powts.oversight.policies import reads_state_view

    samples = ApplicationSample.objects.select_related("jurisdiction").annotate(
        inspected=Count("items", filter=~Q(items__outcome=c.ApplicationCheck.PENDING)),
        errors=Count("items", filter=Q(items__outcome=c.ApplicationCheck.ERRORS)))
    if reads_state_view(user):
        return samples
    return samples.filter(jurisdiction_id=user.jurisdiction_id) if user.jurisdiction_id else samples.none()


def sampled_applications_writable(user):
    """The drawn applications `user` may record an inspection of: their own county's (county staff)."""
    from powts.oversight.models import SampledApplication

    if not getattr(user, "jurisdiction_id", None):
        return SampledApplication.objects.none()
    return SampledApplication.objects.filter(sample__jurisdiction_id=user.jurisdiction_id).select_related("sample")
