"""Background tasks of the maintenance program, on the Huey queue (settings.HUEY; `powts serve` runs the
consumer). A task takes ids, never records: it reads the row when it runs."""
from huey.contrib.djhuey import db_task


@db_task(retries=0)
def send_notice_batch(batch_id: int) -> None:
    from powts.maintenance.batches import batch_run

    batch_run(batch_id)
