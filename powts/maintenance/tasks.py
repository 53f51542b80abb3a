"""Background tasks of the maintenance program, on the Huey queue (settings.HUEY; `powts serve` runs the
consumer). A task takes ids, never records: it reads the row when it runs."""
from huey.contrib.djhuey import db_task


@db_task(retries=0)
def send_notice_batch(batch_id: int) -> None:
    """A message queued before batches ran as jobs: runs the batch's job (once: the job's claim)."""
    from powts.jobs.tasks import execute
    from powts.maintenance.models import NoticeBatch

    job_id = NoticeBatch.objects.filter(pk=batch_id).values_list("job_id", flat=True).first()
    if job_id:
        execute(job_id)
