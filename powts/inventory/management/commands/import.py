"""powts import inventory FILE --jurisdiction SLUG [--map FILE | --columns "A=b,..."] [--strict] [--dry-run]
[--rejects PATH] [--json]"""
import argparse
import csv
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from powts.audit.choices import Channel
from powts.core.progress import Progress
from powts.inventory.importing import guide
from powts.inventory.importing.service import InventoryFileRefused, import_inventory
from powts.jurisdictions.services import ProfileError, jurisdiction_ensure

SHOWN_WARNINGS = 20  # warnings printed in the summary; the rejects file has every one


class Command(BaseCommand):
    help = "Import a county's inventory of POWTS from CSV (UTF-8 or Windows-1252) or XLSX."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="what", required=True, metavar="{inventory}")
        p = sub.add_parser("inventory", help="a county's inventory of systems (CSV or XLSX)",
                           description="Import a county's inventory of systems from CSV (UTF-8 or Windows-1252) or XLSX: "
                                       "every row created, updated, unchanged or rejected with its line and reason.",
                           formatter_class=argparse.RawDescriptionHelpFormatter, epilog=guide.as_text())
        p.add_argument("file", type=Path, metavar="FILE", help="the .csv or .xlsx file")
        p.add_argument("--jurisdiction", required=True, metavar="SLUG",
                       help="the county's slug: a county set up with `powts county add`, or a shipped example profile")
        p.add_argument("--map", type=Path, metavar="FILE", dest="map_file",
                       help="the file's own headers mapped to the import's columns: a CSV of two columns (file header, "
                            "column) or a YAML mapping ('Permit #': system_id; in YAML a header with # is quoted)")
        p.add_argument("--columns", metavar='"HEADER=column,..."',
                       help='the same mapping inline, e.g. "Permit #=system_id,PIN=parcel_id,Sys Type=system_type,'
                            'Owner=owner_name" (added to --map\'s)')
        p.add_argument("--strict", action="store_true",
                       help="reject a row with any cell that cannot be read, instead of leaving the cell empty with a warning")
        p.add_argument("--dry-run", action="store_true", help="check and report; store nothing")
        p.add_argument("--rejects", type=Path, metavar="PATH",
                       help="where rejected rows and warnings go (default: FILE.rejects.csv beside the input)")
        p.add_argument("--json", action="store_true",
                       help="print one JSON object: the counts, the warnings and the rejects file's path")
        p.add_argument("--skip-follow-up", action="store_true",
                       help="do not bring maintenance schedules up to date afterwards (run `powts maintenance sync` later)")

    def handle(self, *args, what, file, jurisdiction, dry_run, rejects, json: bool, skip_follow_up: bool,
               map_file=None, columns=None, strict=False, **options):
        mapping = {**(_read_map(map_file) if map_file else {}), **(_parse_columns(columns) if columns else {})}
        try:
            unit = jurisdiction_ensure(slug=jurisdiction)
        except ProfileError as exc:
            raise CommandError(str(exc)) from None
        # On stderr: a bar on a terminal, a line every few seconds otherwise (stdout stays the result, --json pure JSON).
        bar = Progress(f"powts import inventory {file.name}", unit="rows")
        try:
            with bar:
                result = import_inventory(path=file, jurisdiction=unit, dry_run=dry_run, rejects_path=rejects,
                                          channel=Channel.CLI, progress=lambda rows: bar.step(rows, None, "rows"),
                                          follow_up=not skip_follow_up, columns=mapping or None, strict=strict)
        except InventoryFileRefused as exc:
            raise CommandError(str(exc)) from None
        if json:
            self.stdout.write(_json(result.summary()))
            return
        verb = "would be" if dry_run else "were"
        self.stdout.write(
            f"{result.rows:,} rows read ({result.encoding}): {result.created:,} {verb} created, "
            f"{result.updated:,} updated, {result.unchanged:,} unchanged, {result.rejected:,} rejected; "
            f"{result.warnings:,} warning(s)."
        )
        for w in result.warnings_preview[:SHOWN_WARNINGS]:
            self.stdout.write(f"  warning, line {w['line']}: {w['warning']}")
        if result.warnings > SHOWN_WARNINGS:
            self.stdout.write(f"  ... and {result.warnings - SHOWN_WARNINGS:,} more warning(s), all in the rejects file.")
        if result.parcels_confirmed:
            self.stdout.write(f"{result.parcels_confirmed:,} parcel(s) entered for new construction and named in the file "
                              "were confirmed.")
        for label, summary in result.follow_up.items():
            self.stdout.write(f"Then {label}: {summary}")
        if result.rejects_path:
            self.stdout.write(f"Rejected rows and warnings, each with its line and reason: {result.rejects_path}")
        if dry_run:
            self.stdout.write("Dry run: nothing was stored.")


def _parse_columns(text: str) -> dict:
    """"Permit #=system_id,PIN=parcel_id" -> {"Permit #": "system_id", "PIN": "parcel_id"}."""
    out = {}
    for part in text.split(","):
        if not part.strip():
            continue
        header, sep, column = part.rpartition("=")
        if not sep or not header.strip() or not column.strip():
            raise CommandError(f"--columns: {part.strip()!r} is not HEADER=column (e.g. \"Permit #=system_id\")")
        out[header.strip()] = column.strip()
    return out


def _read_map(path: Path) -> dict:
    """A YAML mapping (header: column) or a CSV of two columns (file header, column; a first row
    `header,column` or `file header,field` is a title)."""
    if not path.is_file():
        raise CommandError(f"--map: {path} does not exist")
    text = path.read_text(encoding="utf-8-sig")
    if path.suffix.lower() in (".yml", ".yaml"):
        import yaml

        try:
            data = yaml.safe_load(text) or {}
        except yaml.YAMLError as exc:
            raise CommandError(f"--map: {path.name} is not readable YAML ({exc})") from None
        if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
            raise CommandError(f"--map: {path.name} must map each file header to a column (Permit #: system_id)")
        return {str(k): v for k, v in data.items()}
    out = {}
    for number, row in enumerate(csv.reader(text.splitlines()), start=1):
        cells = [c.strip() for c in row]
        if not any(cells):
            continue
        if len(cells) != 2 or not all(cells):
            raise CommandError(f"--map: {path.name} line {number} is not two cells (file header, column): {row!r}")
        if number == 1 and cells[1].lower() in ("column", "field", "powts column", "powts field"):
            continue
        out[cells[0]] = cells[1]
    return out


def _json(obj) -> str:
    return json.dumps(obj)
