"""A notice batch's state, progress and error move to its job (powts.jobs), which owns the claim, heartbeat
and retry: one state machine instead of two. Each existing batch is linked to the job that ran it (created
from the batch's own fields when it has none), keeping its state, progress, times and error."""
import django.db.models.deletion
from django.db import migrations, models

REMOVED = ["done", "error", "finished_at", "heard_at", "started_at", "status", "step"]


def link_jobs(apps, schema_editor):
    NoticeBatch = apps.get_model("maintenance", "NoticeBatch")
    Job = apps.get_model("jobs", "Job")
    for batch in NoticeBatch.objects.all().iterator():
        job = (Job.objects.filter(kind="maintenance.notice_batch", key__startswith=f"notice-batch:{batch.pk}:")
               .order_by("-id").first())
        if job is None:
            job = Job.objects.create(
                kind="maintenance.notice_batch", title=f"Notice batch for {batch.as_of:%B %-d, %Y}",
                jurisdiction_id=batch.jurisdiction_id, started_by_id=batch.requested_by_id, state=batch.status,
                params={"batch_id": batch.pk}, step=batch.step[:80], done=batch.done, total=batch.total,
                error=batch.error, attempts=1 if batch.started_at else 0, key=f"notice-batch:{batch.pk}",
                started_at=batch.started_at, finished_at=batch.finished_at, heard_at=batch.heard_at)
            Job.objects.filter(pk=job.pk).update(created_at=batch.requested_at)
        elif batch.status == "failed" and batch.error and job.state == "failed":
            job.error = batch.error  # the batch's own reason, in its words, not the job's "see the batch"
            job.save(update_fields=["error"])
        batch.job_id = job.pk
        batch.save(update_fields=["job"])


def unlink_jobs(apps, schema_editor):
    NoticeBatch = apps.get_model("maintenance", "NoticeBatch")
    for batch in NoticeBatch.objects.select_related("job").exclude(job=None).iterator():
        job = batch.job
        batch.status, batch.step, batch.done, batch.error = job.state, job.step[:60], job.done, job.error[:300]
        batch.started_at, batch.finished_at, batch.heard_at = job.started_at, job.finished_at, job.heard_at
        batch.save()


class Migration(migrations.Migration):

    dependencies = [
        ("jobs", "0001_jobs"),
        ("maintenance", "0011_notice_page_stage_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="noticebatch",
            name="job",
            field=models.ForeignKey(blank=True, help_text="The background job that sends the batch: its state, progress and error.",
                                    null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to="jobs.job"),
        ),
        migrations.RunPython(link_jobs, unlink_jobs),
        *[migrations.RemoveField(model_name="noticebatch", name=name) for name in REMOVED],
        migrations.AlterField(
            model_name="noticebatch",
            name="total",
            field=models.PositiveIntegerField(default=0, help_text="Letters printed."),
        ),
    ]
