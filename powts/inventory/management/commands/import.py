"""powts import inventory FILE --jurisdiction SLUG [--dry-run] [--rejects PATH] [--json]"""
import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from powts.audit.choices import Channel
from powts.core.progress import Progress
from powts.inventory.importing.service import InventoryFileRefused, import_inventory
from powts.jurisdictions.services import ProfileError, jurisdiction_ensure


class Command(BaseCommand):
    help = "Import a county's inventory of POWTS from CSV (UTF-8 or Latin-1) or XLSX."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="what", required=True, metavar="{inventory}")
        p = sub.add_parser("inventory", help="a county's inventory of systems (CSV or XLSX)",
                           description="Import a county's inventory of systems from CSV (UTF-8 or Windows-1252) or XLSX: "
                                       "every row created, updated, unchanged or rejected with its line and reason.")
        p.add_argument("file", type=Path, metavar="FILE", help="the .csv or .xlsx file")
        p.add_argument("--jurisdiction", required=True, metavar="SLUG", help="the county (its profile slug)")
        p.add_argument("--dry-run", action="store_true", help="check and report; store nothing")
        p.add_argument("--rejects", type=Path, metavar="PATH",
                       help="where rejected rows go (default: FILE.rejects.csv beside the input)")
        p.add_argument("--json", action="store_true", help="print one JSON object with the counts")
        p.add_argument("--skip-follow-up", action="store_true",
                       help="do not bring maintenance schedules up to date afterwards (run `powts maintenance sync` later)")

    def handle(self, *args, what, file, jurisdiction, dry_run, rejects, json: bool, skip_follow_up: bool, **options):
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
                                          follow_up=not skip_follow_up)
        except InventoryFileRefused as exc:
            raise CommandError(str(exc)) from None
        if json:
            self.stdout.write(_json(result.counts()))
            return
        verb = "would be" if dry_run else "were"
        self.stdout.write(
            f"{result.rows:,} rows read ({result.encoding}): {result.created:,} {verb} created, "
            f"{result.updated:,} updated, {result.unchanged:,} unchanged, {result.rejected:,} rejected."
        )
        if result.parcels_confirmed:
            self.stdout.write(f"{result.parcels_confirmed:,} parcel(s) entered for new construction and named in the file "
                              "were confirmed.")
        for label, summary in result.follow_up.items():
            self.stdout.write(f"Then {label}: {summary}")
        if result.rejects_path:
            self.stdout.write(f"Rejected rows, each with its line and reason: {result.rejects_path}")
        if dry_run:
            self.stdout.write("Dry run: nothing was stored.")


def _json(obj) -> str:
    return json.dumps(obj)
