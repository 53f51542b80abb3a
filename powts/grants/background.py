"""The department's allocation run as a background job: a state's caseload is decided and its
lines stored by a worker, the job page showing it until the run is stored. Keyed by the job: the run
records the job that made it, so a run again after a crash (between the commit and the job's "done")
finds the stored run instead of allocating twice."""
from __future__ import annotations

from django.db import transaction
from django.urls import reverse

from powts.core.refusals import Refused

KIND = "grants.allocation"


def allocate(job, progress) -> dict:
    from powts.grants import allocating
    from powts.grants.models import AllocationRun

    run = AllocationRun.objects.filter(parameters__job=job.pk).first()
    if run is None:
        progress(step="deciding the applications")
        try:
            with transaction.atomic():
                run = allocating.run_allocation(fiscal_year=job.params["fiscal_year"],
                                                funds_cents=job.params["funds_cents"], user=job.started_by)
                run.parameters = {**run.parameters, "job": job.pk}
                run.save(update_fields=["parameters"])
        except Refused as exc:
            from powts.grants.views_program import said

            raise Refused(said(exc)) from exc
    return {"run": run.pk, "counts": {"applications": run.parameters.get("applications", 0),
                                      "counties": len(run.parameters.get("counties", []))},
            "summary": f"Allocation for {run.fiscal_year} stored.",
            "download": reverse("grants_program:run", args=[run.pk]), "download_label": "Open the allocation"}


def register() -> None:
    from powts.jobs import kinds

    kinds.register(KIND, allocate)
