"""The job page: progress while it runs (htmx polls the part that changes), the result when done, why
when it failed, and Retry."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST, require_safe

from powts.core.refusals import Refused, refused_text
from powts.jobs import kinds, policies, services
from powts.jobs.models import Job


def _job(request, pk: int) -> Job:
    job = get_object_or_404(Job.objects.select_related("jurisdiction", "started_by"), pk=pk)
    if not policies.can_view(request.user, job):
        raise Http404  # someone else's job: as if there were none
    return job


def _context(request, job: Job) -> dict:
    try:
        result_template = kinds.get(job.kind).result_template
    except KeyError:
        result_template = "jobs/_result_counts.html"
    return {"job": job, "running": not job.finished, "can_retry": policies.can_retry(request.user, job),
            "result_template": result_template}


@login_required
@require_safe
def job_detail(request, pk: int):
    job = _job(request, pk)
    template = "jobs/_job_progress.html" if request.htmx else "jobs/job_detail.html"
    return render(request, template, _context(request, job))


@login_required
@require_POST
def job_retry(request, pk: int):
    job = _job(request, pk)
    if not policies.can_retry(request.user, job):
        messages.info(request, "This job has not failed; there is nothing to retry.")
        return redirect("jobs:job", pk=job.pk)
    try:
        services.job_retry(job=job, user=request.user)
    except Refused as exc:
        messages.warning(request, refused_text(exc))
    else:
        messages.success(request, "The job is queued again.")
    return redirect("jobs:job", pk=job.pk)


@login_required
@require_safe
def job_download(request, pk: int):
    """A finished export's file, for the person who asked for it."""
    from django.http import FileResponse

    from powts.jobs.exports import file_for

    job = _job(request, pk)
    path = file_for(job) if job.state == "done" else None
    if path is None:
        raise Http404("This job has no file to download.")
    name = f"{job.params.get('name', 'export')}-{job.finished_at:%Y-%m-%d}{path.suffix}"
    return FileResponse(open(path, "rb"), as_attachment=True, filename=name)
