"""The maintenance part of a county profile, checked: `maintenance_profile(slug)`.

No Django imports. A county's maintenance.yaml says `extends: state` and names only what differs
(powts.kernel.profiles.combine, the one rule of layers). Every parameter carries a citation or the profile does not load.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from fractions import Fraction

from powts.kernel.cited import line_of
from powts.kernel.profiles import ProfileError, resolve, profile_cached

RULES = {"septic_tank", "management_plan", "holding_tank", "annual_permit", "exempt"}
STEP_KINDS = ("reminder", "delinquent", "violation", "enforcement_order")
# A first notice more than a year ahead of the due date would be forgotten by then: a bound, not a rule of law.
MAX_LEAD_DAYS = 365


@dataclass(frozen=True)
class TypeRule:
    system_type: str
    rule: str
    interval_months: int | None
    citation: str
    not_in_texts: bool = False


@dataclass(frozen=True)
class Step:
    kind: str
    days_after_due: int
    days_after_previous: int
    citation: str
    marks_delinquent: bool = False
    not_in_texts: bool = False


@dataclass(frozen=True)
class MaintenanceProfile:
    slug: str
    raw: dict
    program_start_on: dt.date | None
    applies_installed_on_or_after: dt.date | None
    phase_in: dict | None
    types: dict[str, TypeRule]
    pump_at_fraction: Fraction
    pump_within_days: int
    late_after_days: int
    license_kinds: frozenset[str]
    # Licenses that may file a pumping report; None: any of license_kinds (the county sets no narrower rule).
    pumping_license_kinds: frozenset[str] | None
    lead_time_days: int
    # A first notice sent with less than the lead time left moves the due date (lead time after the notice).
    late_notice_moves_due: bool
    steps: tuple[Step, ...]
    spread_days: int
    # Staggered batches: first notices go out over this many weekly batches (notices.mailing.stagger_weeks).
    stagger_weeks: int
    winter_pause: tuple[tuple[int, int], tuple[int, int]] | None
    who_may_do_it: str
    water_meter_remedy: bool
    citations: dict[str, str] = field(default_factory=dict)
    # Who may report on which system, and what filing lets them read (reports.contractors).
    any_contractor_reports: bool = True
    filer_reads_system: bool = False
    # The fees.yaml code charged with a final report of abandonment; "" when the county charges none.
    abandonment_fee_code: str = ""
    # A contractor's report file: rows at most per file, and per filer per day in the county (reports.files).
    file_rows_per_file: int = 2000
    file_rows_per_day: int = 5000

    def type_rule(self, system_type: str) -> TypeRule:
        found = self.types.get(system_type)
        if found is None:
            raise ProfileError(f"{self.slug} maintenance.yaml: no schedule for system type {system_type!r}")
        return found

    @property
    def delinquent_kinds(self) -> frozenset[str]:
        """The letters whose sending marks the owner delinquent (SPS 383.255's follow-up of delinquent owners)."""
        return frozenset(s.kind for s in self.steps if s.marks_delinquent)

    def paused(self, day: dt.date) -> bool:
        """Whether letters are held on `day` (the county's winter pause, month-day inclusive)."""
        if not self.winter_pause:
            return False
        (fm, fd), (tm, td) = self.winter_pause
        md = (day.month, day.day)
        if (fm, fd) <= (tm, td):
            return (fm, fd) <= md <= (tm, td)
        return md >= (fm, fd) or md <= (tm, td)


def _date(value, where: str) -> dt.date | None:
    if value in (None, ""):
        return None
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise ProfileError(f"{where}: {value!r} is not a date (YYYY-MM-DD)") from None


def _need_cite(entry: dict, where: str, key: str = "citation") -> str:
    cite = (entry or {}).get(key)
    if not cite:
        line = line_of(entry)
        if line:  # name the line: "profiles/<slug>/maintenance.yaml:12 types.x"
            file, _, rest = where.partition(" ")
            where = f"{file}:{line} {rest}"
        raise ProfileError(f"{where}: no {key}; a parameter without a citation does not load")
    return str(cite)


def build(slug: str, raw: dict) -> MaintenanceProfile:
    where = f"profiles/{slug}/maintenance.yaml"
    program = raw.get("program") or {}
    _need_cite(program, f"{where} program")
    types = {}
    for system_type, entry in (raw.get("types") or {}).items():
        cite = _need_cite(entry, f"{where} types.{system_type}")
        rule = entry.get("rule")
        if rule not in RULES:
            raise ProfileError(f"{where} types.{system_type}: rule {rule!r} is not one of {sorted(RULES)}")
        months = entry.get("interval_months")
        if rule != "exempt" and (not isinstance(months, int) or months < 1):
            raise ProfileError(f"{where} types.{system_type}: interval_months must be a whole number of months")
        types[system_type] = TypeRule(system_type, rule, months if rule != "exempt" else None, cite, bool(entry.get("not_in_texts")))
    sludge = raw.get("sludge") or {}
    _need_cite(sludge, f"{where} sludge")
    _need_cite(sludge, f"{where} sludge", "pump_within_citation")
    reports = raw.get("reports") or {}
    _need_cite(reports, f"{where} reports")
    _need_cite(reports, f"{where} reports", "license_citation")
    if reports.get("pumping_license_kinds") is not None:
        _need_cite(reports, f"{where} reports", "pumping_license_citation")
    notices = raw.get("notices") or {}
    _need_cite(notices, f"{where} notices", "lead_time_citation")
    lead = notices.get("lead_time_days", 30)
    if not isinstance(lead, int) or isinstance(lead, bool) or not 1 <= lead <= MAX_LEAD_DAYS:
        raise ProfileError(f"{where} notices.lead_time_days: {lead!r} is not a whole number of days from 1 to {MAX_LEAD_DAYS}")
    steps = []
    for i, entry in enumerate(notices.get("steps") or []):
        cite = _need_cite(entry, f"{where} notices.steps[{i}]")
        if entry.get("kind") not in STEP_KINDS:
            raise ProfileError(f"{where} notices.steps[{i}]: kind {entry.get('kind')!r} is not one of {STEP_KINDS}")
        for key in ("days_after_due", "days_after_previous"):
            days = entry.get(key, 0)
            if not isinstance(days, int) or isinstance(days, bool) or days < 0:
                raise ProfileError(f"{where} notices.steps[{i}] ({entry['kind']}): {key} {days!r} is not a whole number of days")
        if steps and entry.get("days_after_due", 0) < steps[-1].days_after_due:
            raise ProfileError(f"{where} notices.steps[{i}] ({entry['kind']}): goes out {entry.get('days_after_due', 0)} days "
                               f"after the due date, before the step before it ({steps[-1].days_after_due} days); "
                               "the steps go out in order")
        steps.append(Step(entry["kind"], int(entry.get("days_after_due", 0)), int(entry.get("days_after_previous", 0)), cite,
                          bool(entry.get("marks_delinquent")), bool(entry.get("not_in_texts"))))
    late_notice = notices.get("late_first_notice") or {}
    _need_cite(late_notice, f"{where} notices.late_first_notice")
    mailing = notices.get("mailing") or {}
    _need_cite(mailing, f"{where} notices.mailing")
    pause = mailing.get("winter_pause")
    winter = None
    if pause:
        try:
            f_m, f_d = (int(x) for x in str(pause["from"]).split("-"))
            t_m, t_d = (int(x) for x in str(pause["to"]).split("-"))
            dt.date(2000, f_m, f_d), dt.date(2000, t_m, t_d)
        except (KeyError, ValueError):
            raise ProfileError(f"{where} notices.mailing.winter_pause: expected {{from: MM-DD, to: MM-DD}}") from None
        winter = ((f_m, f_d), (t_m, t_d))
    stagger = mailing.get("stagger_weeks", 1)
    if not isinstance(stagger, int) or isinstance(stagger, bool) or not 1 <= stagger <= 12:
        raise ProfileError(f"{where} notices.mailing.stagger_weeks: {stagger!r} is not a whole number of weeks from 1 to 12")
    holding = raw.get("holding_tanks") or {}
    _need_cite(holding, f"{where} holding_tanks", "contract_citation")
    contractors = reports.get("contractors") or {}
    _need_cite(contractors, f"{where} reports.contractors")
    abandonment = raw.get("abandonment") or {}
    _need_cite(abandonment, f"{where} abandonment")
    files = reports.get("files") or {}
    _need_cite(files, f"{where} reports.files")
    file_limits = {}
    for key in ("rows_per_file", "rows_per_day"):
        value = files.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ProfileError(f"{where} reports.files.{key}: {value!r} is not a whole number of rows (1 or more)")
        file_limits[key] = value
    if file_limits["rows_per_day"] < file_limits["rows_per_file"]:
        raise ProfileError(f"{where} reports.files: rows_per_day ({file_limits['rows_per_day']}) is less than rows_per_file "
                           f"({file_limits['rows_per_file']})")
    try:
        fraction = Fraction(str(sludge.get("pump_at_fraction", "1/3")))
    except (ValueError, ZeroDivisionError):
        raise ProfileError(f"{where} sludge.pump_at_fraction: not a fraction") from None
    return MaintenanceProfile(
        slug=slug, raw=raw,
        program_start_on=_date(program.get("start_on"), f"{where} program.start_on"),
        applies_installed_on_or_after=_date(program.get("applies_installed_on_or_after"), f"{where} program.applies_installed_on_or_after"),
        phase_in=program.get("phase_in"),
        types=types,
        pump_at_fraction=fraction,
        pump_within_days=int(sludge.get("pump_within_days", 30)),
        late_after_days=int(reports.get("late_after_days", 30)),
        license_kinds=frozenset(reports.get("license_kinds") or []),
        pumping_license_kinds=(frozenset(reports["pumping_license_kinds"]) if reports.get("pumping_license_kinds") is not None
                               else None),
        lead_time_days=int(notices.get("lead_time_days", 30)),
        late_notice_moves_due=bool(late_notice.get("moves_due_date")),
        steps=tuple(steps),
        spread_days=int(mailing.get("spread_days") or 0),
        stagger_weeks=stagger,
        winter_pause=winter,
        who_may_do_it=str(notices.get("who_may_do_it", "")),
        water_meter_remedy=bool(holding.get("water_meter_remedy")),
        any_contractor_reports=bool(contractors.get("any_system", True)),
        filer_reads_system=bool(contractors.get("filer_reads_system", False)),
        citations={
            "program": program["citation"], "sludge": sludge["citation"], "late": reports["citation"],
            "licenses": reports["license_citation"], "pumping_licenses": reports.get("pumping_license_citation", ""),
            "lead_time": notices["lead_time_citation"],
            "late_notice": late_notice["citation"],
            "pump_within": sludge["pump_within_citation"], "mailing": mailing["citation"],
            "unknown_systems": reports.get("unknown_citation", "SPS 383.255"),
            "holding_contract": holding["contract_citation"],
            "holding_report": holding.get("report_citation", ""),
            "water_meter": holding.get("water_meter_citation", ""),
            "contractors": contractors["citation"],
            "abandonment": abandonment["citation"],
            "report_files": files["citation"],
        },
        abandonment_fee_code=abandonment.get("fee_code") or "",
        file_rows_per_file=file_limits["rows_per_file"],
        file_rows_per_day=file_limits["rows_per_day"],
    )


@profile_cached
def maintenance_profile(slug: str) -> MaintenanceProfile:
    """The county's maintenance.yaml, resolved by the kernel's one rule of layers (a county file that says
    `extends: state` names only what differs)."""
    return build(slug, resolve(slug, "maintenance")[0])
