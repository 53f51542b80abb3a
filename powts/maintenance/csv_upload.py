"""A large pumper's CSV of reports: each bad row comes back with its line and reason, the rest are stored.

Rows in = stored + duplicates + rejected (nothing lost). Each row is its own transaction, so a bad
row never undoes a good one. Columns: system_id, kind, work_date, license_number and the optional
report fields (see services.validate_report); header names are matched case-insensitively.

A file is refused whole, before any row is read as a report, when it has more rows than the county's
reports.files.rows_per_file, or would take the filer past rows_per_day in the county today (county policy,
maintenance.yaml). A row for a system the county does not have is that row's error: a report for a system
not yet in the inventory is filed on its own (the report form or API), where the county reviews it (SPS 383.255).
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from powts.core.refusals import Refused
from powts.maintenance.services import profile_for, report_file_accept, report_file_done, report_submit

COLUMNS = ["system_id", "kind", "work_date", "license_number", "sludge_scum_fraction", "effluent_ponding", "gallons_pumped",
           "disposal_site", "components_serviced", "failure_observed", "water_meter_reading", "abandonment_method", "location", "notes"]
REQUIRED = ["system_id", "kind", "work_date", "license_number"]


@dataclass
class UploadResult:
    rows: int = 0
    stored: int = 0
    duplicates: int = 0
    queued: int = 0
    late: int = 0
    rejected: list[tuple[int, str]] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"rows": self.rows, "stored": self.stored, "duplicates": self.duplicates, "queued_for_review": self.queued,
                "late": self.late, "rejected": [{"line": line, "reason": reason} for line, reason in self.rejected]}


class ReportFileRefused(Refused):
    """A report upload that cannot be read as a whole; nothing is stored."""


def _decode(data: bytes) -> str:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ReportFileRefused("the file is neither UTF-8 nor Windows-1252 text")


def upload_reports(*, jurisdiction, data: bytes, filed_by=None, channel: str = "web", now=None) -> UploadResult:
    profile = profile_for(jurisdiction)
    per_file = profile.file_rows_per_file
    text = _decode(data)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise ReportFileRefused("the file is empty") from None
    except csv.Error as exc:
        raise ReportFileRefused(f"line 1 cannot be read as CSV: {exc}") from None
    names = [h.strip().lower().replace(" ", "_") for h in header]
    missing = [c for c in REQUIRED if c not in names]
    if missing:
        raise ReportFileRefused(f"the header lacks {', '.join(missing)} (line 1)")
    # Read every row before storing any: a file the CSV reader cannot read (a cell over the reader's
    # 128 KB limit, a broken quote) is refused whole, with its line, and nothing is stored. Reading stops at
    # the first row over the county's limit per file: such a file is refused at once.
    rows = []
    try:
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            if len(rows) == per_file:
                raise ReportFileRefused(
                    f"the file has more than {per_file:,} rows (line {reader.line_num} is row {per_file + 1:,}): {jurisdiction.name} takes "
                    f"at most {per_file:,} reports in one file and {profile.file_rows_per_day:,} a day from one filer "
                    f"({profile.citations['report_files']}). Nothing was stored.")
            rows.append((reader.line_num, row))
    except csv.Error as exc:
        raise ReportFileRefused(f"line {reader.line_num} cannot be read as CSV: {exc}") from None
    try:
        record = report_file_accept(jurisdiction=jurisdiction, rows=len(rows), filed_by=filed_by, channel=channel, now=now)
    except Refused as exc:
        raise ReportFileRefused(exc.message) from None
    result = UploadResult()
    unknown = (f"is not in {jurisdiction.name}'s inventory: a report file carries reports for systems on record; file a report "
               f"for a system not yet in the inventory on its own, for the county to review ({profile.citations['unknown_systems']})")
    for line, row in rows:
        result.rows += 1
        if len(row) > len(names):
            result.rejected.append((line, f"{len(row)} cells, the header has {len(names)}"))
            continue
        record_data = dict(zip(names, row))
        try:
            done = report_submit(jurisdiction=jurisdiction, data=record_data, filed_by=filed_by, channel=channel, known_systems_only=unknown)
        except Refused as exc:  # the row's refusal names each bad field; the batch goes on
            reasons = "; ".join(m for msgs in exc.errors.values() for m in msgs)
            result.rejected.append((line, reasons))
            continue
        if done.created:
            result.stored += 1
            result.queued += int(done.report.system_id is None)
            result.late += int(done.report.late)
        else:
            result.duplicates += 1
    report_file_done(record=record, stored=result.stored, rejected=len(result.rejected))
    return result
