"""Every write of the maintenance program, each audited in its own transaction (powts.audit).

Side effects (staff e-mail about failure signs, letters) run after commit.
"""
from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from decimal import Decimal

from django.core.exceptions import PermissionDenied
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import timezone

from powts.accounts.choices import COUNTY_ROLES
from powts.accounts.conflicts import ConflictRefused, refuse_employee_work_nearby
from powts.accounts.models import License, User
from powts.accounts.policies import is_county_staff, is_county_staff_of
from powts.audit.services import audit_create, audit_update, build_event, snapshot, written_together
from powts.core import fields, prepared_writes
from powts.core.prepared import Prepared
from powts.core.refusals import refuse_invalid
from powts.inventory.choices import RETIRED_STATUSES
from powts.inventory.models import System
from powts.kernel.precision import display, period_start
from powts.maintenance import notice_flags, policies, rules, stages
from powts.core.news import publish
from powts.inventory.lifecycle import system_record_service
from powts.maintenance.choices import AbandonmentMethod, ReportKind, ReviewStatus
from powts.maintenance.errors import MaintenanceRefused
from powts.maintenance.models import (
    HoldingTankReport,
    Report,
    ReportFile,
    Schedule,
    ServicingContract,
)
from powts.maintenance.profile import maintenance_profile

log = logging.getLogger(__name__)
SCHEDULE_FIELDS = ("rule", "interval_months", "basis_on", "basis_kind", "due_on", "notice_on", "needs_data", "exempt",
                   "pumping_required")
TRUE, FALSE = {"1", "true", "yes", "y", "t", "on", "x"}, {"0", "false", "no", "n", "f", "off", ""}


def profile_for(jurisdiction):
    return maintenance_profile(jurisdiction.profile_slug)


# ---------------------------------------------------------------- schedules

def events_for(system_ids: list[int], holding: bool = True) -> dict[int, list[rules.Event]]:
    """Qualifying-event candidates per system: maintenance reports and holding-tank service dates."""
    out: dict[int, list[rules.Event]] = {}
    for sid, kind, on, frac in (Report.objects.filter(system_id__in=system_ids)
                                .exclude(review_status=ReviewStatus.REJECTED)
                                .values_list("system_id", "kind", "work_date", "sludge_scum_fraction")):
        out.setdefault(sid, []).append(rules.Event(on, kind, frac))
    for sid, services in (HoldingTankReport.objects.filter(system_id__in=system_ids).values_list("system_id", "services") if holding else ()):
        _add_servicings(out.setdefault(sid, []), services)
        if not out[sid]:
            del out[sid]
    return out


def _add_servicings(events: list, services) -> None:
    """A holding-tank report's servicings (e. date) as events; one without a readable date is skipped."""
    for item in services or []:
        try:
            events.append(rules.Event(dt.date.fromisoformat(item["date"]), rules.SERVICING, None, "holding"))
        except (KeyError, TypeError, ValueError):
            continue


# One system's reports (not rejected) as events: read on every report, so compiled once (powts.core.prepared).
_reports_of_one = Prepared(lambda pk, rejected: Report.objects.filter(system_id=pk).exclude(review_status=rejected)
                           .values_list("kind", "work_date", "sludge_scum_fraction"))


# A holding tank's servicings: read on each of its reports, so compiled once too.
_holding_services_of_one = Prepared(lambda pk: HoldingTankReport.objects.filter(system_id=pk).values_list("services"))


def _events_of_one(system: System) -> list[rules.Event]:
    """events_for([system.pk], holding=<a holding tank>).get(system.pk, []), through compiled queries."""
    events = [rules.Event(on, kind, frac) for kind, on, frac in _reports_of_one(system.pk, ReviewStatus.REJECTED.value)]
    if system.system_type == "holding_tank":
        for (services,) in _holding_services_of_one(system.pk):
            _add_servicings(events, services)
    return events


def retired(status: str) -> str:
    """The status word when a system is no longer in use (off the program), else ""."""
    return status if status in RETIRED_STATUSES else ""


def _computed(profile, *, pk, system_type, installed_on, last_serviced_on, municipality, events, status="") -> rules.Schedule:
    return rules.compute(profile, system_type=system_type, installed_on=installed_on, last_serviced_on=last_serviced_on,
                         events=events, key=pk, municipality=municipality or "", retired=retired(status))


def _apply(row: Schedule, result: rules.Schedule) -> bool:
    """Copy a computed schedule onto its row; a new due date restarts the notice sequence (a due date that
    returns to one already noticed takes back its stage: the caller asks `stages` with the letters on file).

    A due date moved by a late first notice stays while the computation still gives the date it replaced:
    the owner was told the later date.
    """
    kept = (row.due_on, row.notice_on) if row.due_extended_from and row.due_extended_from == result.due_on else None
    due_changed = row.due_on != result.due_on and kept is None
    for name in SCHEDULE_FIELDS:
        setattr(row, name, getattr(result, name))
    if kept:
        row.due_on, row.notice_on = kept
    else:
        row.due_extended_from = None
    if due_changed:
        row.stage, row.stage_on, row.delinquent = "", None, False
    return due_changed


# A system's schedule row, locked (PostgreSQL): read on every report, so compiled once (powts.core.prepared),
# and written back by an UPDATE compiled once (powts.core.prepared_writes).
_ROW_FIELDS = tuple(f.name for f in Schedule._meta.local_concrete_fields
                    if not f.primary_key and f.name not in notice_flags.FIELDS)
_schedule_row_locked = Prepared(lambda pk: Schedule.objects.select_for_update().filter(pk=pk).order_by()[:1])


# No savepoint: every caller is in a transaction it lets fail as a whole (a report is a hot path, and a savepoint
# is two more statements).
@transaction.atomic(savepoint=False)
def schedule_refresh(*, system: System, action: str = "maintenance schedule recomputed", profile=None) -> Schedule:
    """Recompute one system's schedule. Its row is locked first (PostgreSQL), then the events read: a
    report stored meanwhile by another request is then seen (on SQLite the write lock serialises all)."""
    profile = profile or profile_for(system.jurisdiction)
    row = next(iter(_schedule_row_locked(system.pk)), None)
    events = _events_of_one(system)
    result = _computed(profile, pk=system.pk, system_type=system.system_type, installed_on=system.installed_on,
                       last_serviced_on=system.last_serviced_on, municipality=system.parcel.municipality if system.parcel_id else "",
                       events=events, status=system.status)
    created = row is None
    if created:
        row = Schedule(system=system, jurisdiction_id=system.jurisdiction_id, system_ref=system.system_id)
        before = None
    else:
        before = snapshot(row, [*SCHEDULE_FIELDS, "due_extended_from", "stage", "delinquent"])
    if _apply(row, result):
        stages.restore_one(row, profile.delinquent_kinds)
    row.src_system_type, row.src_installed_on, row.src_last_serviced_on = system.system_type, system.installed_on, system.last_serviced_on
    if created:
        row.failure_reported = Report.objects.filter(system=system, failure_flag=True, failure_reviewed_at__isnull=True).exists()
        row.save()
    else:
        prepared_writes.update(row, _ROW_FIELDS)
    if created:
        audit_create(row, action=action)
    else:
        audit_update(row, before=before, action=action)
    return row


def schedule_sync(*, jurisdiction, chunk: int = 5000) -> dict:
    """Bring every system's schedule in step with the inventory (after imports): rows for new systems,
    recomputed rows where type or dates changed. One audit event sums the run up (the rows are derived
    data; each row's own later changes are audited one by one). First the mailing address of each owner not
    checked since it was written (new owners of an import, addresses edited since): the notices page's flags."""
    notice_flags.recheck(jurisdiction_id=jurisdiction.pk)
    profile = profile_for(jurisdiction)
    qs = (System.objects.filter(jurisdiction=jurisdiction)
          .values_list("pk", "system_id", "system_type", "installed_on", "last_serviced_on", "municipality",
                       "maintenance_schedule__system_id", "maintenance_schedule__src_system_type",
                       "maintenance_schedule__src_installed_on", "maintenance_schedule__src_last_serviced_on",
                       "status", "maintenance_schedule__exempt")
          .order_by("pk"))
    todo_new, todo_stale = [], []
    for row in qs.iterator(chunk_size=chunk):
        if row[6] is None:
            todo_new.append(row)
        elif (row[7], row[8], row[9]) != (row[2], row[3], row[4]) or (retired(row[10]) and not row[11]):
            todo_stale.append(row)
    created = updated = 0
    from powts.core.progress import report

    report(0, len(todo_new) + len(todo_stale), "schedules")
    for start in range(0, len(todo_new), chunk):
        part = todo_new[start:start + chunk]
        events = events_for([r[0] for r in part])
        objs = []
        for pk, ref, stype, inst, serv, muni, _, _, _, _, status, _ in part:
            s = Schedule(system_id=pk, jurisdiction_id=jurisdiction.pk, system_ref=ref, src_system_type=stype,
                         src_installed_on=inst, src_last_serviced_on=serv)
            _apply(s, _computed(profile, pk=pk, system_type=stype, installed_on=inst, last_serviced_on=serv, municipality=muni,
                                events=events.get(pk, []), status=status))
            objs.append(s)
        stages.restore(objs, profile.delinquent_kinds)  # a schedule row deleted (the admin) and made again: its letters stay
        with transaction.atomic():
            Schedule.objects.bulk_create(objs, batch_size=1000, ignore_conflicts=True)
        created += len(objs)
        report(created, len(todo_new) + len(todo_stale), "schedules")
    for start in range(0, len(todo_stale), chunk):
        part = todo_stale[start:start + chunk]
        events = events_for([r[0] for r in part])
        with transaction.atomic():
            rows = Schedule.objects.select_for_update().in_bulk([r[0] for r in part])
            moved = []
            for pk, ref, stype, inst, serv, muni, _, _, _, _, status, _ in part:
                s = rows[pk]
                if _apply(s, _computed(profile, pk=pk, system_type=stype, installed_on=inst, last_serviced_on=serv, municipality=muni,
                                       events=events.get(pk, []), status=status)):
                    moved.append(s)
                s.src_system_type, s.src_installed_on, s.src_last_serviced_on, s.system_ref = stype, inst, serv, ref
            stages.restore(moved, profile.delinquent_kinds)
            Schedule.objects.bulk_update(list(rows.values()), [*SCHEDULE_FIELDS, "due_extended_from", "stage", "stage_on", "delinquent", "system_ref",
                                                               "src_system_type", "src_installed_on", "src_last_serviced_on"], batch_size=1000)
        updated += len(part)
        report(created + updated, len(todo_new) + len(todo_stale), "schedules")
    if created or updated:
        build_event(jurisdiction, action="maintenance schedules brought in step with the inventory", verb="update",
                    changes={"schedules_created": [None, created], "schedules_recomputed": [None, updated]}).save()
    return {"created": created, "updated": updated}


# ---------------------------------------------------------------- reports

@dataclass
class Submitted:
    report: Report
    created: bool

    @property
    def duplicate(self) -> bool:
        return not self.created


def _text(data, name, max_length=None, errors=None) -> str:
    """The field as bounded text; a bad value (too long, NUL, an object) is put in `errors` (or raised without them)."""
    try:
        return fields.text(name, data.get(name), max_length=max_length)
    except fields.FieldError as exc:
        if errors is None:
            raise MaintenanceRefused(exc.message, field=name) from None
        errors.setdefault(name, exc.message)
        return ""


def _parsed(errors, name, parse, raw, **kw):
    """parse(name, raw, **kw), or None with the reason in `errors` under the field's name."""
    try:
        return parse(name, raw, **kw)
    except fields.FieldError as exc:
        errors.setdefault(exc.field, exc.message)
        return None


def _bool(data, name, errors, default=None):
    value = data.get(name)
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower() if isinstance(value, (str, int)) else None
    if text in TRUE:
        return True
    if text in FALSE:
        return False
    errors[name] = f"{name} must be yes or no"
    return default


def _date(data, name, errors, latest=None):
    """A required date, not before 1900 (and not after `latest`)."""
    return _parsed(errors, name, fields.date, data.get(name), required=True, latest=latest)


# The system a report names, with its parcel: read on every report, so compiled once (unique together).
_system_with_parcel = Prepared(lambda unit_id, ref: System.objects.select_related("parcel")
                               .filter(jurisdiction_id=unit_id, system_id=ref).order_by()[:1])


# The licenses with a number, any case, with their holders' sign-ins: read on every report, so compiled once.
_licenses_numbered = Prepared(lambda number: License.objects.filter(number__same_text=number).select_related("user"))


def validate_report(*, jurisdiction, data: dict, filed_by=None, today: dt.date | None = None, known_systems_only: str = ""):
    """Check a report as filed. Returns (cleaned, system, license) or raises MaintenanceRefused naming each bad field.

    known_systems_only: a system not in the inventory is refused, "system <id> " followed by this reason (a report
    file's row), instead of being kept for review."""
    if filed_by is not None and is_county_staff(filed_by) and not is_county_staff_of(filed_by, jurisdiction.pk):
        raise PermissionDenied("County staff file reports in their own county only.")
    profile = profile_for(jurisdiction)
    today = today or timezone.localdate()
    errors: dict[str, str] = {}
    ref = _text(data, "system_id", 60, errors)
    if not ref and "system_id" not in errors:
        errors["system_id"] = "system_id is required"
    kind = _text(data, "kind", 20, errors).lower()
    if kind not in ReportKind.values and "kind" not in errors:
        errors["kind"] = f"kind {kind or '(blank)'!r} is not one of {', '.join(ReportKind.values)}"
    # A plausible work date: work already done, and not before 1900 (a year-1 date is a typing slip).
    work_date = _date(data, "work_date", errors, latest=today)
    number = _text(data, "license_number", 40, errors)
    lic = None
    if not number:
        errors.setdefault("license_number", "license_number is required (SPS 383.55)")
    else:
        found = _licenses_numbered(number)
        allowed = [x for x in found if x.kind in profile.license_kinds]
        pumpers = profile.pumping_license_kinds
        if kind == ReportKind.PUMPING and pumpers is not None:
            allowed = [x for x in allowed if x.kind in pumpers]
        if not found:
            errors["license_number"] = f"license_number {number!r} is not a known license"
        elif not allowed and kind == ReportKind.PUMPING and pumpers is not None:
            errors["license_number"] = (f"license {number} ({found[0].get_kind_display()}) may not pump a septic tank: pumping is done "
                                        f"by a certified septage servicing operator ({profile.citations['pumping_licenses']})")
        elif not allowed:
            errors["license_number"] = (f"license {number} ({found[0].get_kind_display()}) may not inspect or service a POWTS "
                                        f"({profile.citations['licenses']})")
        else:
            # The filer's own license first, when two kinds share a number.
            lic = min(allowed, key=lambda x: x.user_id != getattr(filed_by, "pk", None))
            if lic.expires_on and work_date and lic.expires_on < work_date:
                errors["license_number"] = f"license {number} expired on {lic.expires_on}, before the work date"
            elif refusal := policies.license_refusal(filed_by, lic):
                errors["license_number"] = refusal
    # Bounded parsing: sizes are checked before any conversion (powts.core.fields).
    fraction = _parsed(errors, "sludge_scum_fraction", fields.fraction, data.get("sludge_scum_fraction"))
    gallons = _parsed(errors, "gallons_pumped", fields.integer, data.get("gallons_pumped"), minimum=0, maximum=1_000_000,
                      above_message="gallons_pumped is more than any tank holds (at most 1,000,000)")
    meter = _parsed(errors, "water_meter_reading", fields.decimal, data.get("water_meter_reading"), minimum=0,
                    maximum=Decimal("9999999999.99"), places=2)
    ponding = _bool(data, "effluent_ponding", errors)
    failure = _bool(data, "failure_observed", errors, default=False)
    disposal_site = _text(data, "disposal_site", 200, errors)
    components = _text(data, "components_serviced", 300, errors)
    location = _text(data, "location", 200, errors)
    notes = _text(data, "notes", 4000, errors)
    method = _text(data, "abandonment_method", 20, errors)
    if kind == ReportKind.ABANDONMENT and method not in AbandonmentMethod.values:
        errors.setdefault("abandonment_method", f"abandonment_method: say how the tank was abandoned ({', '.join(AbandonmentMethod.values)}) "
                                                f"({profile.citations['abandonment']})")
    elif kind != ReportKind.ABANDONMENT and method:
        errors.setdefault("abandonment_method", "abandonment_method is only for a final report of abandonment")
    if kind == ReportKind.ABANDONMENT and gallons is None and "gallons_pumped" not in errors:
        errors["gallons_pumped"] = (f"gallons_pumped is required: a final report of abandonment verifies that the tank's contents were "
                                    f"removed ({profile.citations['abandonment']})")
    system = None
    if ref and "system_id" not in errors:
        system = next(iter(_system_with_parcel(jurisdiction.pk, ref)), None)
        if system is None and known_systems_only:
            errors["system_id"] = f"system {ref} {known_systems_only}"
        elif refusal := policies.system_refusal(filed_by, profile, system):
            errors["system_id"] = refusal
        # A year-only installation ("1987") is stored as the year's last day: a report within that year is not before it.
        installed = system and period_start(system.installed_on, system.installed_on_precision)
        if installed and work_date and work_date < installed:
            errors["work_date"] = (f"work_date {work_date} is before the system was installed "
                                   f"({display(system.installed_on, system.installed_on_precision, style='iso')})")
        if system and lic is not None and lic.user_id and lic.user.role in COUNTY_ROLES and "license_number" not in errors:
            # s. 145.20(6)(a)-(b): a county's reviewers and inspectors may not maintain systems in their county or a
            # neighbouring one (except their own property outside their county): their licence's report is refused.
            try:
                refuse_employee_work_nearby(license=lic, jurisdiction=jurisdiction, owner=system.parcel.owner,
                                            what=f"report {kind or 'work'} on system {ref}")
            except ConflictRefused as exc:
                errors["license_number"] = f"{exc.message} ({exc.citation})"
        if (system and kind == ReportKind.PUMPING and meter is None and system.system_type == "holding_tank" and profile.water_meter_remedy
                and work_date and ServicingContract.objects.filter(system=system, water_meter_required=True, starts_on__lte=work_date).exists()):
            errors["water_meter_reading"] = f"water_meter_reading is required at each pumping of this holding tank ({profile.citations['water_meter']})"
        if kind == ReportKind.ABANDONMENT and "system_id" not in errors and (system is None or system.status in RETIRED_STATUSES):
            errors["system_id"] = (f"system {ref} is not in the inventory: a final report of abandonment is for a system on record"
                                   if system is None else f"system {ref} is already {system.get_status_display().lower()}")
        if system and kind == ReportKind.INSPECTION and fraction is None and "sludge_scum_fraction" not in errors:
            rule = profile.types.get(system.system_type)
            if rule and rule.rule == "septic_tank":
                errors["sludge_scum_fraction"] = (f"sludge_scum_fraction is required for an inspection of a septic tank "
                                                  f"({profile.citations['sludge']})")
    if errors:
        raise MaintenanceRefused.several(errors)
    cleaned = {
        "system_ref": ref, "kind": kind, "work_date": work_date, "sludge_scum_fraction": fraction,
        "effluent_ponding": ponding, "gallons_pumped": gallons, "failure_observed": bool(failure),
        "water_meter_reading": meter, "disposal_site": disposal_site, "components_serviced": components,
        "location": location, "notes": notes, "abandonment_method": method,
    }
    return cleaned, system, lic


def report_submit(*, jurisdiction, data: dict, filed_by=None, channel: str = "web", now=None, known_systems_only: str = "") -> Submitted:
    """File a maintenance report. Raises MaintenanceRefused naming the field; nothing is stored then.

    The same system, work date and license again returns the stored report (created=False).
    A system not in the inventory goes to the review queue (SPS 383.255). Late when filed more than
    `late_after_days` after the work (SPS 383.55). Ponding or a failure observed flags it for staff.
    """
    now = now or timezone.now()
    today = timezone.localdate(now)
    cleaned, system, lic = validate_report(jurisdiction=jurisdiction, data=data, filed_by=filed_by, today=today,
                                           known_systems_only=known_systems_only)
    # No look-up first: the unique constraint (jurisdiction, system_ref, work_date, license) recognises
    # a report filed twice, below, at no cost to the usual case of a new one.
    profile = profile_for(jurisdiction)
    if system is not None:
        system.jurisdiction = jurisdiction
    report = Report(jurisdiction=jurisdiction, system=system, license=lic, filed_by=filed_by if getattr(filed_by, "pk", None) else None,
                    channel=channel, filed_at=now, **cleaned)
    report.late = (today - report.work_date).days > profile.late_after_days
    report.failure_flag = bool(report.effluent_ponding) or report.failure_observed
    report.review_status = ReviewStatus.NONE if system else ReviewStatus.PENDING
    if not report.location and system:
        report.location = system.parcel.site_address
    refuse_invalid(report, MaintenanceRefused, exclude=["license", "jurisdiction", "system", "filed_by"], validate_unique=False)
    try:
        # The report's audit rows (report, system, schedule) go in as one INSERT at the end of the block.
        with transaction.atomic(), written_together():
            prepared_writes.insert([report])  # report.save(), its INSERT compiled once
            audit_create(report, action=_report_action(report, profile))
            if system:
                _tell_the_inventory(report, system, profile)
                row = schedule_refresh(system=system, action=f"due date moved by {report}", profile=profile)
                if report.failure_flag and not row.failure_reported:
                    before = snapshot(row, ["failure_reported"])
                    row.failure_reported = True
                    prepared_writes.update(row, ("failure_reported",))
                    audit_update(row, before=before, action=f"signs of failure reported in {report}")
            if report.failure_flag:
                transaction.on_commit(lambda: _tell_staff_of_failure(report.pk))
    except IntegrityError:
        # Filed twice (now or earlier): the stored report answers.
        existing = Report.objects.filter(jurisdiction=jurisdiction, system_ref=cleaned["system_ref"], work_date=cleaned["work_date"], license=lic).first()
        if existing is None:
            raise
        existing.license = lic  # the one the filer named, already read
        return Submitted(existing, False)
    return Submitted(report, True)


# ---------------------------------------------------------------- report files

def _day_start(now) -> dt.datetime:
    """The start of `now`'s day where the county is (America/Chicago), as an aware datetime."""
    return timezone.make_aware(dt.datetime.combine(timezone.localdate(now), dt.time.min))


def report_file_rows_today(*, jurisdiction, filed_by=None, now=None) -> int:
    """Rows of report files this filer (None: the command line) sent the county since the start of today."""
    now = now or timezone.now()
    files = ReportFile.objects.filter(jurisdiction=jurisdiction, filed_at__gte=_day_start(now), filed_at__lte=now)
    files = files.filter(filed_by=filed_by) if getattr(filed_by, "pk", None) else files.filter(filed_by__isnull=True)
    return sum(files.values_list("rows", flat=True))


def report_file_accept(*, jurisdiction, rows: int, filed_by=None, channel: str = "web", now=None) -> ReportFile:
    """Record a report file of `rows` rows before any of them is read, or raise MaintenanceRefused (field "file") when the
    filer's rows today in the county would pass the county's daily limit (reports.files.rows_per_day, county policy)."""
    now = now or timezone.now()
    profile = profile_for(jurisdiction)
    limit = profile.file_rows_per_day
    filer = filed_by if getattr(filed_by, "pk", None) else None
    with transaction.atomic():
        # One filer's files are counted one at a time (PostgreSQL: their user row, or the county's for the command line,
        # is locked without blocking the reports that name it; SQLite writes one transaction at a time anyway).
        if filer is not None:
            User.objects.select_for_update(no_key=True).filter(pk=filer.pk).first()
        else:
            type(jurisdiction).objects.select_for_update(no_key=True).filter(pk=jurisdiction.pk).first()
        done = report_file_rows_today(jurisdiction=jurisdiction, filed_by=filer, now=now)
        if done + rows > limit:
            left = max(limit - done, 0)
            raise MaintenanceRefused(
                f"{jurisdiction.name} takes at most {limit:,} report rows a day from one filer ({profile.citations['report_files']}); "
                f"{done:,} already filed today and this file has {rows:,}: {left:,} more may be filed today. Nothing was stored.",
                field="file")
        record = ReportFile.objects.create(jurisdiction=jurisdiction, filed_by=filer, channel=channel, filed_at=now, rows=rows)
        build_event(record, action=f"report file of {rows:,} rows received", verb="create",
                    changes={"rows": [None, rows], "channel": [None, channel]}).save()
    return record


def report_file_done(*, record: ReportFile, stored: int, rejected: int) -> ReportFile:
    """The file's outcome, once its rows are read (rows = stored + duplicates + rejected)."""
    with transaction.atomic():
        before = snapshot(record, ["stored", "rejected"])
        record.stored, record.rejected = stored, rejected
        record.save(update_fields=["stored", "rejected"])
        audit_update(record, before=before, action="report file read")
    return record


def _tell_the_inventory(report: Report, system: System, profile) -> None:
    """The system record says what the report says: the last qualifying inspection or pumping (the date
    the cycle runs from, shown on the system page), or, for a final report, that it is abandoned."""
    if report.kind == ReportKind.ABANDONMENT:
        publish("abandonment.reported", report=report)
        system.refresh_from_db(fields=["status"])
        return
    rule = profile.type_rule(system.system_type).rule
    if rules.qualifies(rule, rules.Event(report.work_date, report.kind, report.sludge_scum_fraction), profile):
        system_record_service(system=system, on=report.work_date,
                              cause=f"{report.get_kind_display().lower()} report of {report.work_date.isoformat()} "
                                    f"by license {report.license.number}")


def _report_action(report: Report, profile=None) -> str:
    if report.kind == ReportKind.ABANDONMENT:
        return f"final report of abandonment filed ({profile.citations['abandonment'] if profile else ''})"
    bits = [f"{report.get_kind_display().lower()} report filed"]
    if report.late:
        bits.append("late (SPS 383.55)")
    if report.review_status == ReviewStatus.PENDING:
        bits.append("system not in the inventory: to review (SPS 383.255)")
    if report.failure_flag:
        bits.append("signs of failure")
    return "; ".join(bits)


def _tell_staff_of_failure(report_id: int) -> None:
    report = Report.objects.select_related("jurisdiction").get(pk=report_id)
    emails = list(User.objects.filter(role__in=COUNTY_ROLES, jurisdiction=report.jurisdiction, is_active=True)
                  .exclude(email="").values_list("email", flat=True))
    if not emails:
        return
    signs = ", ".join(s for s, on in (("effluent ponding on the surface", report.effluent_ponding), ("failure observed", report.failure_observed)) if on)
    try:
        send_mail(f"POWTS {report.system_ref}: signs of failure reported", f"{report} reports {signs}. Notes: {report.notes or '-'}",
                  None, emails, fail_silently=False)
    except Exception as exc:  # mail is a side effect: the report is stored either way
        log.warning("could not e-mail staff about report %s: %s", report_id, exc)


@transaction.atomic
def report_match(*, report: Report, system: System) -> Report:
    """Staff attach a queued report (system not in the inventory) to a system, which moves its due date."""
    if system.jurisdiction_id != report.jurisdiction_id:
        raise MaintenanceRefused("that system is in another county", field="system")
    from powts.accounts.conflicts import refuse_if_conflicted

    owner = system.parcel.owner if system.parcel.owner_id else None
    refuse_if_conflicted(parties=[("pumper or inspector", report.license), ("owner", owner)],
                         what=f"accept {report}")
    before = snapshot(report, ["system_id", "review_status"])
    report.system, report.review_status = system, ReviewStatus.MATCHED
    report.save(update_fields=["system", "review_status"])
    audit_update(report, before=before, action=f"queued report matched to {system}")
    _tell_the_inventory(report, system, profile_for(system.jurisdiction))
    schedule_refresh(system=system, action=f"due date moved by {report}")
    return report


@transaction.atomic
def failure_reviewed(*, report: Report, note: str = "") -> Report:
    before = snapshot(report, ["failure_reviewed_at"])
    report.failure_reviewed_at = timezone.now()
    report.save(update_fields=["failure_reviewed_at"])
    audit_update(report, before=before, action=f"failure signs reviewed{': ' + note if note else ''}")
    if report.system_id and not Report.objects.filter(system_id=report.system_id, failure_flag=True, failure_reviewed_at__isnull=True).exists():
        row = Schedule.objects.filter(pk=report.system_id).first()
        if row:
            b = snapshot(row, ["failure_reported"])
            row.failure_reported = False
            row.save(update_fields=["failure_reported"])
            audit_update(row, before=b, action="failure signs reviewed")
    return report


# ---------------------------------------------------------------- holding tanks

@transaction.atomic
def contract_file(*, system: System, provider_name: str, starts_on: dt.date, ends_on: dt.date | None = None,
                  provider_address: str = "", license_number: str = "", filed_on: dt.date | None = None,
                  water_meter_required: bool = False) -> ServicingContract:
    """A holding tank's servicing contract on file (the county's rule: its profile's holding_tanks.contract_citation)."""
    errors = {}
    lic = None
    if license_number:
        lic = License.objects.filter(number__iexact=license_number).first()
        if lic is None:
            errors["license_number"] = f"license_number {license_number!r} is not a known license"
    if ends_on and ends_on < starts_on:
        errors["ends_on"] = f"ends_on {ends_on} is before starts_on {starts_on}"
    if water_meter_required and not profile_for(system.jurisdiction).water_meter_remedy:
        errors["water_meter_required"] = "this county's ordinance has no water meter remedy"
    if errors:
        raise MaintenanceRefused.several(errors)
    contract = ServicingContract(system=system, provider_name=provider_name, provider_address=provider_address, license=lic,
                                 starts_on=starts_on, ends_on=ends_on, filed_on=filed_on or timezone.localdate(),
                                 water_meter_required=water_meter_required)
    refuse_invalid(contract, MaintenanceRefused)
    contract.save()
    audit_create(contract, action="holding tank servicing contract filed")
    return contract


def contract_on_file(*, system: System, on: dt.date) -> ServicingContract | None:
    return (ServicingContract.objects.filter(system=system, starts_on__lte=on)
            .exclude(ends_on__lt=on).order_by("-starts_on").first())


HOLDING_ITEMS = ("servicer_name", "servicer_address", "owner_name", "location", "sanitary_permit_number")


@transaction.atomic
def holding_report_file(*, system: System, data: dict, filed_by=None, today: dt.date | None = None) -> HoldingTankReport:
    """The holding tank servicing report with the items its county's ordinance lists (cited in the profile's
    holding_tanks.report_citation); it moves the due date."""
    today = today or timezone.localdate()
    cite = profile_for(system.jurisdiction).citations["holding_report"]
    errors = {}
    for name in HOLDING_ITEMS:
        if not _text(data, name):
            errors[name] = f"{name} is required ({cite})"
    start = _date(data, "period_start", errors)
    end = _date(data, "period_end", errors)
    if start and end and end < start:
        errors["period_end"] = f"period_end {end} is before period_start {start}"
    services = []
    items = data.get("services") or []
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise MaintenanceRefused("services must be a list of servicings (date, gallons, disposal_site)", field="services")
    if not items:
        errors["services"] = "services: at least one servicing (e. date, f. gallons, g. disposal site) is required"
    for i, item in enumerate(items):
        sub = {}
        on = _date(item, "date", sub)
        if on and on > today:
            sub["date"] = f"date {on} is in the future"
        if on and start and end and not (start <= on <= end):
            sub["date"] = f"date {on} is outside the period {start} to {end}"
        gallons = _parsed(sub, "gallons", fields.integer, item.get("gallons"), required=True, minimum=0, maximum=1_000_000)
        if not _text(item, "disposal_site"):
            sub["disposal_site"] = f"disposal_site is required ({cite})"
        for k, v in sub.items():
            errors[f"services[{i}].{k}"] = v
        if not sub:
            entry = {"date": on.isoformat(), "gallons": gallons, "disposal_site": _text(item, "disposal_site")}
            if item.get("meter_reading") not in (None, ""):
                entry["meter_reading"] = str(item["meter_reading"])
            services.append(entry)
    if errors:
        raise MaintenanceRefused.several(errors)
    report = HoldingTankReport(system=system, period_start=start, period_end=end, services=services, filed_by=filed_by,
                               filed_at=timezone.now(), license=License.objects.filter(number__iexact=_text(data, "license_number")).first()
                               if _text(data, "license_number") else None,
                               **{k: _text(data, k) for k in HOLDING_ITEMS})
    refuse_invalid(report, MaintenanceRefused, exclude=["filed_by", "license"])
    report.save()
    audit_create(report, action=f"holding tank servicing report filed ({cite})")
    last = max(dt.date.fromisoformat(item["date"]) for item in services)
    system_record_service(system=system, on=last, cause=f"holding tank report {start.isoformat()} to {end.isoformat()}")
    schedule_refresh(system=system, action=f"due date moved by {report}")
    return report
