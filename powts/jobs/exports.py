"""Large list exports as background jobs: a list's ?export=csv|xlsx over settings.POWTS_EXPORT_JOB_ROWS rows
is not streamed from the request but written by a worker, which asks the same list page for it as the
person who asked (so it holds exactly what they may read), into the data directory; the job page links
to the file. Only the person who asked sees the job and its file (the job has no county)."""
from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect

KIND = "export"


def exports_dir() -> Path:
    folder = Path(settings.DATA_DIR) / "exports"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def file_for(job) -> Path | None:
    name = job.result.get("file") if job.result else None
    path = exports_dir() / name if name else None
    return path if path is not None and path.is_file() else None


def export_as_job(request, *, name: str, fmt: str):
    from powts.jobs.errors import QueueUnavailable
    from powts.jobs.models import Job
    from powts.jobs.services import job_start

    try:
        job = job_start(kind=KIND, title=f"Export of {name.replace('-', ' ')} ({fmt.upper()})", user=request.user,
                        params={"path": request.path, "query": request.GET.urlencode(), "name": name, "format": fmt})
    except QueueUnavailable as exc:
        messages.warning(request, exc.message)
        job = Job.objects.filter(kind=KIND, started_by=request.user).order_by("-pk").first()
    return redirect("jobs:job", pk=job.pk)


def run_export(job, progress) -> dict:
    """The list page, asked again by the worker as the person who asked, its export written to a file."""
    from django.http import QueryDict
    from django.test import RequestFactory
    from django.urls import resolve, reverse

    from powts.core.refusals import Refused

    if job.started_by is None or not job.started_by.is_active:
        raise Refused("The person who asked for this export can no longer sign in.")
    params = job.params
    request = RequestFactory().get(params["path"], data=QueryDict(params["query"]))
    request.user, request.htmx, request.export_inline = job.started_by, False, True
    match = resolve(params["path"])
    progress(step="writing the file")
    response = match.func(request, *match.args, **match.kwargs)
    if response.status_code != 200:
        raise Refused("The list could not be exported; ask for it again from the list page.")
    suffix = "xlsx" if params["format"] == "xlsx" else "csv"
    target = exports_dir() / f"job-{job.pk}.{suffix}"
    partial = target.with_suffix(".part")
    with open(partial, "wb") as out:
        if response.streaming:
            for chunk in response.streaming_content:
                out.write(chunk if isinstance(chunk, bytes) else chunk.encode())
        else:
            out.write(response.content)
    partial.replace(target)  # whole or not there: a killed worker leaves no half file behind the link
    size = target.stat().st_size
    return {"file": target.name, "counts": {"size in kilobytes": round(size / 1024)},
            "download": reverse("jobs:job-download", args=[job.pk]), "download_label": f"Download the {suffix.upper()} file"}
