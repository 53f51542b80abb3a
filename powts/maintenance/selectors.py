"""Reads of the maintenance program, scoped to what the user may see."""
from __future__ import annotations

import datetime as dt

from django.db.models import Count, Exists, OuterRef, Q

from powts.core.prepared import Prepared
from powts.inventory.choices import RETIRED_STATUSES
from powts.inventory.models import System
from powts.maintenance import rules
from powts.maintenance.choices import ReportKind, ReviewStatus
from powts.maintenance.models import HoldingTankReport, Notice, Report, Schedule
from powts.maintenance.profile import maintenance_profile


_DUE_SQL = """
SELECT s.system_ref, CAST(s.due_on AS TEXT), CASE WHEN s.due_on <= %s THEN 'overdue' ELSE 'first_notice' END
  FROM {table} s WHERE s.jurisdiction_id = %s AND s.notice_on <= %s
UNION ALL
SELECT s.system_ref, NULL, 'needs_data' FROM {table} s WHERE s.jurisdiction_id = %s AND s.needs_data
"""


def due_list(*, jurisdiction, as_of: dt.date) -> list[tuple[str, str | None, str]]:
    """Every system whose notice is due on `as_of` (read-only), as (system_id, due_on ISO, kind):
    first_notice when notice_on (due_on minus the lead time) <= as_of < due_on; overdue when
    as_of >= due_on (no qualifying report has moved it); needs_data when no date is known.

    One statement over the covering index (jurisdiction, notice_on, due_on, system_ref) plus the
    partial needs_data index, rows as the database driver returns them (the list over a million
    systems can hold half of them). Systems the schedule table does not yet cover (imported since
    the last sync; the counts the database keeps tell) are computed in memory, so the list is complete
    without writing anything.
    """
    from django.db import connection

    from powts.maintenance import standing_counts

    with connection.cursor() as cursor:
        cursor.execute(_DUE_SQL.format(table=Schedule._meta.db_table), [as_of, jurisdiction.pk, as_of, jurisdiction.pk])
        out = cursor.fetchall()
    # CAST(... AS TEXT): ISO text straight from the database on SQLite and PostgreSQL, no per-row conversion.
    systems, schedules = standing_counts.kept_totals(jurisdiction_id=jurisdiction.pk)  # kept by the database's triggers
    if systems != schedules:
        out.extend(_unsynced(jurisdiction, as_of))
    return out


def _unsynced(jurisdiction, as_of):
    from powts.maintenance.services import events_for

    missing = list(System.objects.filter(jurisdiction=jurisdiction, maintenance_schedule__isnull=True)
                   .exclude(status__in=RETIRED_STATUSES)
                   .values_list("pk", "system_id", "system_type", "installed_on", "last_serviced_on", "parcel__municipality")[:200000])
    if not missing:
        return []
    profile = maintenance_profile(jurisdiction.profile_slug)
    events = events_for([m[0] for m in missing])
    found = []
    for pk, ref, stype, inst, serv, muni in missing:
        s = rules.compute(profile, system_type=stype, installed_on=inst, last_serviced_on=serv, events=events.get(pk, []), key=pk,
                          municipality=muni or "")
        kind = rules.due_kind(due_on=s.due_on, notice_on=s.notice_on, needs_data=s.needs_data, as_of=as_of)
        if kind:
            found.append((ref, s.due_on.isoformat() if s.due_on else None, kind))
    return found


def standing_q(as_of: dt.date) -> dict[str, Q]:
    """Each standing on `as_of` as a filter on Schedule (the dashboard's buckets; they do not overlap)."""
    live = Q(exempt=False, needs_data=False)
    return {
        "current": live & Q(notice_on__gt=as_of),
        "due_soon": live & Q(notice_on__lte=as_of, due_on__gt=as_of),
        "overdue": live & Q(due_on__lte=as_of, delinquent=False),
        "delinquent": live & Q(due_on__lte=as_of, delinquent=True),
        "needs_data": Q(needs_data=True),
        "exempt": Q(exempt=True),
    }


FAILING_Q = Q(failure_reported=True) | Q(system__status="failing")


def standing_systems(*, standing: str, as_of: dt.date):
    """The ids of the systems in one of the dashboard's buckets on `as_of` (a subquery for the inventory list)."""
    q = FAILING_Q if standing == "failing" else standing_q(as_of)[standing]
    return Schedule.objects.filter(q).values("system_id")


def dashboard_counts(*, jurisdiction, as_of: dt.date) -> dict:
    """The standing counts of the county's schedules on `as_of`: in all, by (rule, type), by town.

    Summed from the histogram the database keeps (powts.maintenance.standing_counts), not counted from
    the schedules: the same numbers as `dashboard_counts_counted`, in milliseconds at 1,000,000 systems."""
    from powts.maintenance import standing_counts

    rows = standing_counts.read(jurisdiction_id=jurisdiction.pk, as_of=as_of)
    names = standing_counts.STANDINGS
    totals = dict.fromkeys(names, 0)
    by_type: dict[tuple, dict] = {}
    by_town: dict[str, dict] = {}
    for row in rows:
        kind = by_type.setdefault((row["rule"], row["system_type"]),
                                  {"rule": row["rule"], "system__system_type": row["system_type"], **dict.fromkeys(names, 0)})
        town = by_town.setdefault(row["municipality"], {"system__parcel__municipality": row["municipality"], **dict.fromkeys(names, 0)})
        for name in names:
            totals[name] += row[name]
            kind[name] += row[name]
            town[name] += row[name]
    return {"totals": totals,
            "by_type": [by_type[k] for k in sorted(by_type, key=lambda k: (k[1], k[0]))],
            "by_municipality": [by_town[k] for k in sorted(by_town)]}


def dashboard_counts_counted(*, jurisdiction, as_of: dt.date) -> dict:
    """The same counts read from every schedule (the reference the histogram is tested and timed against)."""
    qs = Schedule.objects.filter(jurisdiction_id=jurisdiction.pk)
    buckets = standing_q(as_of)
    agg = {name: Count("pk", filter=q) for name, q in buckets.items()}
    agg["failing"] = Count("pk", filter=FAILING_Q)
    totals = qs.aggregate(**agg)
    by_type = list(qs.values("rule", "system__system_type").annotate(**agg).order_by("system__system_type", "rule"))
    by_municipality = list(qs.values("system__parcel__municipality").annotate(**agg).order_by("system__parcel__municipality"))
    return {"totals": totals, "by_type": by_type, "by_municipality": by_municipality}


def compliance_over_time(*, jurisdiction, as_of: dt.date, months: int = 12) -> list[dict]:
    """Reports received and notices sent per month, for the chart (the last `months` months): summed from the
    counts per day the database keeps (powts.maintenance.activity_counts), the same numbers as
    `compliance_over_time_counted` without reading a year of reports and notices."""
    from powts.maintenance import activity_counts

    return _by_month(as_of, months, lambda start: activity_counts.read(jurisdiction_id=jurisdiction.pk, start=start))


def compliance_over_time_counted(*, jurisdiction, as_of: dt.date, months: int = 12) -> list[dict]:
    """The same, counted from the reports and notices (the reference the kept counts are tested against)."""
    def rows(start):
        reports = (Report.objects.filter(jurisdiction_id=jurisdiction.pk, work_date__gte=start).order_by().values("work_date")
                   .annotate(n=Count("pk"), late=Count("pk", filter=Q(late=True))).values_list("work_date", "n", "late"))
        notices = (Notice.objects.filter(jurisdiction_id=jurisdiction.pk, as_of__gte=start).order_by().values("as_of")
                   .annotate(n=Count("pk")).values_list("as_of", "n"))
        return [(on, n, late, 0) for on, n, late in reports] + [(on, 0, 0, n) for on, n in notices]

    return _by_month(as_of, months, rows)


def _by_month(as_of: dt.date, months: int, rows) -> list[dict]:
    """`rows(start)`: (day, reports, late, notices) from `start` on, summed here into the chart's months."""
    start = rules.add_months(as_of.replace(day=1), -(months - 1))
    labels = [rules.add_months(start, i) for i in range(months)]
    sums = {(d.year, d.month): [0, 0, 0] for d in labels}
    for on, n_reports, n_late, n_notices in rows(start):
        if isinstance(on, str):  # a raw cursor on SQLite gives the ISO text
            on = dt.date.fromisoformat(on)
        key = (on.year, on.month)
        if key in sums:
            sums[key][0] += n_reports
            sums[key][1] += n_late
            sums[key][2] += n_notices
    return [{"month": d.strftime("%Y-%m"), "reports": sums[(d.year, d.month)][0], "late": sums[(d.year, d.month)][1],
             "notices": sums[(d.year, d.month)][2]} for d in labels]


LIST_LENGTH = 25  # the morning's lists show the first 25 of each


def _reports(unit_id):
    return Report.objects.filter(jurisdiction_id=unit_id).select_related("license", "system")


# The morning's lists, each compiled once (powts.core.prepared): compiling them was most of their cost (about
# 1 ms of CPU a list, the database's part a fraction of it). The same rows, in the same order, as the ORM reads.
_review_queue = Prepared(lambda unit_id, pending: _reports(unit_id).filter(review_status=pending).order_by("filed_at")[:LIST_LENGTH])
_failures = Prepared(lambda unit_id: _reports(unit_id).filter(failure_flag=True, failure_reviewed_at__isnull=True)
                     .order_by("filed_at")[:LIST_LENGTH])
_late_reports = Prepared(lambda unit_id: _reports(unit_id).filter(late=True).order_by("-filed_at")[:LIST_LENGTH])
# the schedule alone: its list shows the system's link from the schedule's key (system, parcel and owner were
# read for each row and not shown)
_delinquent = Prepared(lambda unit_id, as_of: Schedule.objects.filter(jurisdiction_id=unit_id)  # its values in this order
                       .filter(delinquent=True, due_on__lte=as_of).order_by("due_on")[:LIST_LENGTH])
_pumping_required = Prepared(lambda unit_id: Schedule.objects.filter(jurisdiction_id=unit_id, pumping_required=True)
                             .order_by("due_on")[:LIST_LENGTH])


def morning_lists(*, jurisdiction, as_of: dt.date) -> dict:
    unit_id = jurisdiction.pk
    return {
        "review_queue": _review_queue(unit_id, ReviewStatus.PENDING.value),
        "failures": _failures(unit_id),
        "delinquent": _delinquent(unit_id, as_of),
        "pumping_required": _pumping_required(unit_id),
        "late_reports": _late_reports(unit_id),
    }


def holding_tanks_without_contract(*, jurisdiction, as_of: dt.date, limit: int = 25):
    from powts.maintenance.models import ServicingContract

    covered = ServicingContract.objects.filter(starts_on__lte=as_of).exclude(ends_on__lt=as_of).values("system_id")
    return (System.objects.filter(jurisdiction=jurisdiction, system_type="holding_tank", status="active")
            .exclude(pk__in=covered).select_related("parcel")[:limit])


def holding_reports_overdue(*, jurisdiction, as_of: dt.date, limit: int = 200):
    """The county's semiannual holding tank servicing reports overdue (holding_tanks.report_periods): the last
    period whose due day has passed, and the active holding tanks installed by its end with no report covering it.
    One query (no per-system reading): (None, []) where the county's ordinance has no such periods."""
    period = _last_overdue_period(jurisdiction, as_of)
    if period is None:
        return None, []
    return period, list(holding_overdue_rows(jurisdiction=jurisdiction, period=period)[:limit])


def holding_overdue_lines(*, jurisdiction, as_of: dt.date, limit: int = 200):
    """The same list as the dashboard shows it: (pk, POWTS id, site address, owner's name or None) a tank. Only
    those columns: three model objects a tank (system, parcel, owner) were a tenth of the page's CPU."""
    period = _last_overdue_period(jurisdiction, as_of)
    if period is None:
        return None, []
    rows = holding_overdue_rows(jurisdiction=jurisdiction, period=period)
    return period, list(rows.values_list("pk", "system_id", "parcel__site_address", "parcel__owner__name")[:limit])


def _last_overdue_period(jurisdiction, as_of: dt.date):
    from powts.maintenance import holding_periods

    r = holding_periods.rule(maintenance_profile(jurisdiction.profile_slug).raw)
    return None if r is None else holding_periods.last_overdue(r, as_of)


def holding_overdue_rows(*, jurisdiction, period):
    """The county's active holding tanks with no report covering `period`, in system id order. A report is
    looked up per tank (NOT EXISTS on the report's (system, period) index) while the county's tanks are read in
    order up to the page's limit: a subquery of the county's reports joined to its systems read every system
    of the county first (80 ms at 1,000,000)."""
    covering = HoldingTankReport.objects.filter(system_id=OuterRef("pk"), period_start__lte=period.end, period_end__gte=period.start)
    return (System.objects.filter(jurisdiction=jurisdiction, system_type="holding_tank", status="active")
            .exclude(installed_on__gt=period.end).exclude(Exists(covering))
            .select_related("parcel__owner").order_by("system_id"))


def holding_letters_sent(*, jurisdiction, period) -> int:
    """How many owners' letters are recorded for the holding tank reports of `period` (None: no periods)."""
    if period is None:
        return 0
    from powts.maintenance.models import Notice

    return Notice.objects.filter(jurisdiction=jurisdiction, kind="holding_overdue", due_on=period.due_on).count()


def system_maintenance(*, system: System) -> dict:
    """What the system page and the owner see: the schedule, reports, notices, contracts."""
    schedule = Schedule.objects.filter(pk=system.pk).first()
    profile = maintenance_profile(system.jurisdiction.profile_slug)
    from powts.maintenance.services import events_for

    explanation = rules.compute(profile, system_type=system.system_type, installed_on=system.installed_on,
                                last_serviced_on=system.last_serviced_on, events=events_for([system.pk]).get(system.pk, []),
                                key=system.pk, municipality=system.parcel.municipality,
                                retired=system.status if system.status in RETIRED_STATUSES else "").explanation
    return {
        "maintenance_schedule": schedule,
        "maintenance_explanation": explanation,
        "maintenance_reports": list(system.maintenance_reports.select_related("license").order_by("-work_date")[:50]),
        "maintenance_notices": list(system.maintenance_notices.order_by("-sent_at")[:50]),
        "maintenance_contracts": list(system.servicing_contracts.all()[:10]),
        "maintenance_holding_reports": list(HoldingTankReport.objects.filter(system=system)[:10]),
        "maintenance_lead_days": profile.lead_time_days,
        "maintenance_last_measure": last_measure(system=system, profile=profile),
    }


def last_measure(*, system: System, profile) -> dict | None:
    """The latest sludge and scum measure reported, in words the page shows beside the last service date."""
    r = (system.maintenance_reports.exclude(review_status=ReviewStatus.REJECTED).filter(sludge_scum_fraction__isnull=False)
         .order_by("-work_date", "-id").first())
    if r is None:
        return None
    return {"percent": f"{r.sludge_scum_fraction * 100:.0f}%", "on": r.work_date, "kind": r.get_kind_display().lower(),
            "pump": r.kind == ReportKind.INSPECTION and rules.needs_pumping(profile, r.sludge_scum_fraction),
            "citation": profile.citations["sludge"]}


def reports_visible(*, user):
    """Reports a user may see: staff their county's, auditors all, contractors their own, owners their systems'."""
    return Report.objects.restrict(user, "view").select_related("license", "system", "jurisdiction")


def systems_by_address(*, user, query: str, limit: int = 10, county: str = "") -> list[dict]:
    """Systems whose address (or id, or parcel number) matches, for a filer to pick the system id: the id,
    site address, municipality and county only. Staff search their own county; contractors the county
    chosen on the form (`county`, a slug), or every county that takes reports when none is chosen."""
    from powts.accounts.policies import staff_jurisdiction
    from powts.inventory.search import search

    systems = System.objects.all()
    own = staff_jurisdiction(user)
    if own is not None:
        systems = systems.filter(jurisdiction=own)
    elif county:
        systems = systems.filter(jurisdiction__slug=county)
    # In the search index's order (see powts.inventory.search): the first `limit` matches, never all sorted.
    return list(search(systems, query)
                .values("system_id", "parcel__site_address", "parcel__municipality", "jurisdiction__name")[:limit])
