"""powts import inventory FILE --jurisdiction SLUG [--dry-run] [--rejects PATH] [--json]"""
import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from powts.audit.choices import Channel
from powts.inventory.importing.service import InventoryFileRefused, import_inventory
from powts.jurisdictions.services import ProfileError, jurisdiction_ensure


class Command(BaseCommand):
    help = "Import a county's inventory of POWTS from CSV (UTF-8 or Latin-1) or XLSX."

    def add_arguments(self, parser):
        parser.add_argument("what", choices=["inventory"], help="What the file holds.")
        parser.add_argument("file", type=Path)
        parser.add_argument("--jurisdiction", required=True, help="The county's slug: a county set up with `powts county add`, or a shipped example profile.")
        parser.add_argument("--dry-run", action="store_true", help="Check and report; store nothing.")
        parser.add_argument("--rejects", type=Path, help="Where rejected rows go (default: FILE.rejects.csv beside the input).")
        parser.add_argument("--json", action="store_true", help="Print one JSON object with the counts.")
        parser.add_argument("--skip-follow-up", action="store_true",
                            help="Do not bring maintenance schedules up to date afterwards (run `powts maintenance sync` later).")

    def handle(self, *args, what, file, jurisdiction, dry_run, rejects, json: bool, skip_follow_up: bool, **options):
        try:
            unit = jurisdiction_ensure(slug=jurisdiction)
        except ProfileError as exc:
            raise CommandError(str(exc)) from None
        bar = None
        if not json and sys.stderr.isatty():
            from tqdm import tqdm

            bar = tqdm(unit=" rows", desc=f"importing {file.name}", file=sys.stderr)
        last = [0]

        def progress(rows):
            if bar is not None:
                bar.update(rows - last[0])
                last[0] = rows

        try:
            result = import_inventory(path=file, jurisdiction=unit, dry_run=dry_run, rejects_path=rejects,
                                      channel=Channel.CLI, progress=progress, follow_up=not skip_follow_up)
        except InventoryFileRefused as exc:
            raise CommandError(str(exc)) from None
        finally:
            if bar is not None:
                bar.close()
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
