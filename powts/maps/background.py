"""The map's daily sweep as a background job (powts.jobs; its time in settings.POWTS_SWEEPS): each county's
clusters counted again as of the day, since standings move with the date (a schedule due today turns
overdue tomorrow) and the map's counted clusters, alone or by facet, say the day they were counted."""
import datetime as dt

from django.utils import timezone

from powts.audit.choices import Channel
from powts.audit.context import acting


def map_cells(job, progress) -> dict:
    from powts.inventory.models import System
    from powts.jurisdictions.models import Jurisdiction
    from powts.maps.services import cells_rebuild

    as_of = dt.date.fromisoformat(job.params["today"]) if job.params.get("today") else timezone.localdate()
    counties = [u for u in Jurisdiction.objects.order_by("name") if System.objects.filter(jurisdiction=u).exists()]
    on_map = 0
    with acting(channel=Channel.JOB, actor_label="daily sweep: map clusters"):
        for n, unit in enumerate(counties, 1):
            on_map += cells_rebuild(jurisdiction=unit, as_of=as_of)["systems_on_map"]
            progress(done=n, total=len(counties), step=f"map clusters of {unit.name}")
    return {"counts": {"counties": len(counties), "systems on the map": on_map}}


def register() -> None:
    from powts.jobs import kinds

    kinds.register("sweep.map_cells", map_cells)
