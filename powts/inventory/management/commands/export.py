"""powts export inventory --jurisdiction SLUG --output FILE.csv"""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from powts.core.progress import Progress
from powts.inventory.exporting import export_inventory
from powts.jurisdictions.models import Jurisdiction


class Command(BaseCommand):
    help = "Export a county's inventory as CSV, in the columns `powts import inventory` reads."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="what", required=True, metavar="{inventory}")
        inventory = sub.add_parser("inventory", help="a county's inventory as CSV",
                                   description="A county's inventory as CSV, in the columns `powts import inventory` "
                                               "reads (importing it changes nothing).")
        inventory.add_argument("--jurisdiction", required=True, metavar="SLUG", help="the county (its profile slug)")
        inventory.add_argument("--output", required=True, type=Path, metavar="FILE.csv", help="the CSV file to write")

    def handle(self, *args, what, jurisdiction, output, **options):
        unit = Jurisdiction.objects.filter(slug=jurisdiction).first()
        if unit is None:
            raise CommandError(f"no jurisdiction {jurisdiction!r} in this database (import an inventory for it first)")
        if not output.parent.exists():
            raise CommandError(f"folder {output.parent} does not exist")
        with Progress("powts export inventory", unit="systems"):
            count = export_inventory(jurisdiction=unit, path=output)
        self.stdout.write(f"{count:,} systems written to {output}")
