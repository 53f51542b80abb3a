"""powts inventory centroids load FILE --jurisdiction SLUG   fill parcels' coordinates from a centroid file
powts inventory map-cells --jurisdiction SLUG                count the map's clusters again (daily, and after loads)

(`--county` is the old name of `--jurisdiction`: powts.cli still accepts it, with a notice.)"""
import json

from django.core.management.base import BaseCommand, CommandError

from powts.audit.choices import Channel
from powts.audit.context import acting
from powts.inventory.centroids import CentroidFileRefused, load_centroids
from powts.jurisdictions.services import ProfileError, jurisdiction_ensure


class Command(BaseCommand):
    help = "Inventory upkeep: parcel centroids for the map, and the map's cluster counts."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="what", required=True, metavar="{centroids,map-cells}")
        county = {"metavar": "SLUG", "required": True, "help": "the county (its profile slug)"}
        centroids = sub.add_parser("centroids", help="centroids load FILE: place parcels on the map from a centroid file",
                                   description="Parcel centroid files.")
        centroids_sub = centroids.add_subparsers(dest="action", required=True, metavar="{load}")
        load = centroids_sub.add_parser("load", help="place on the map the parcels that have no coordinates",
                                        description="Place on the map the systems whose parcels have no coordinates, "
                                                    "from a centroid file; every rejected row reported with its reason.")
        load.add_argument("file", metavar="FILE", help="CSV or GeoJSON: parcel number, latitude, longitude")
        load.add_argument("--jurisdiction", **county)
        load.add_argument("--json", action="store_true", help="print one JSON object with the counts and rejects")
        cells = sub.add_parser("map-cells", help="count the map's clusters again (daily, and after loads)",
                               description="Count the map's clusters again as of today (run daily: standings move "
                                           "with the date).")
        cells.add_argument("--jurisdiction", **county)

    def handle(self, *args, what, jurisdiction, **options):
        from pathlib import Path

        try:
            unit = jurisdiction_ensure(slug=jurisdiction)
        except ProfileError as exc:
            raise CommandError(str(exc)) from None
        from powts.core.progress import Progress
        from powts.maps.services import cells_rebuild

        with acting(channel=Channel.CLI, actor_label="powts inventory"), Progress(f"powts inventory {what}"):
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
