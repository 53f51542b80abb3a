"""powts inventory centroids load FILE --county SLUG      fill parcels' coordinates from a centroid file
powts inventory map-cells --county SLUG                   count the map's clusters again (daily, and after loads)"""
import json

from django.core.management.base import BaseCommand, CommandError

from powts.audit.choices import Channel
from powts.audit.context import acting
from powts.inventory.centroids import CentroidFileRefused, load_centroids
from powts.jurisdictions.services import ProfileError, jurisdiction_ensure


class Command(BaseCommand):
    help = "Inventory upkeep: parcel centroids for the map, and the map's cluster counts."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="what", required=True)
        centroids = sub.add_parser("centroids", help="Parcel centroid files.")
        centroids.add_argument("action", choices=["load"])
        centroids.add_argument("file", help="CSV or GeoJSON: parcel number, latitude, longitude.")
        centroids.add_argument("--county", required=True, help="County profile slug (its folder under the profiles).")
        centroids.add_argument("--json", action="store_true", help="Print one JSON object with the counts and rejects.")
        cells = sub.add_parser("map-cells", help="Count the map's clusters again.")
        cells.add_argument("--county", required=True, help="County profile slug (its folder under the profiles).")

    def handle(self, *args, what, county, **options):
        from pathlib import Path

        try:
            unit = jurisdiction_ensure(slug=county)
        except ProfileError as exc:
            raise CommandError(str(exc)) from None
        from powts.maps.services import cells_rebuild

        with acting(channel=Channel.CLI, actor_label="powts inventory"):
            if what == "map-cells":
                self.stdout.write(f"Map clusters counted: {cells_rebuild(jurisdiction=unit)}")
                return
            try:
                result = load_centroids(path=Path(options["file"]), jurisdiction=unit)
            except CentroidFileRefused as exc:
                raise CommandError(exc.message) from None
            if result.filled:
                cells_rebuild(jurisdiction=unit)
        if options["json"]:
            self.stdout.write(json.dumps({**result.counts(), "rejects": result.rejects}))
            return
        self.stdout.write(f"{result.rows:,} rows read: {result.filled:,} parcels placed, {result.already_placed:,} already "
                          f"had coordinates (kept), {result.rejected:,} rejected.")
        for r in result.rejects:
            self.stdout.write(f"  {r['line']}: {r['parcel_number'] or '(no parcel number)'}: {r['reason']}")
