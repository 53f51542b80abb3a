"""One state per notice batch: a batch had two state machines (its own and its job's). Migration 0012
moves the batch's state to its job; existing batches keep their state, progress, times and reason."""
import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("maintenance", "0011_notice_page_stage_index")]
AFTER = [("maintenance", "0012_notice_batch_state_on_its_job")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state([*targets, ("jobs", "0001_jobs")]).apps


@pytest.mark.django_db(transaction=True)
def test_each_existing_batch_is_linked_to_a_job_that_keeps_its_state_and_reason(dane, staff):
    apps = _migrate(BEFORE)
    try:
        Batch, Job = apps.get_model("maintenance", "NoticeBatch"), apps.get_model("jobs", "Job")
        now = timezone.now()
        failed = Batch.objects.create(jurisdiction_id=dane.pk, as_of=dt.date(2026, 6, 1), status="failed", requested_at=now,
                                      requested_by_id=staff.pk, error="the letters could not be written (disk full)",
                                      started_at=now, finished_at=now)
        its_job = Job.objects.create(kind="maintenance.notice_batch", title="Notice batch", jurisdiction_id=dane.pk, state="failed",
                                     key=f"notice-batch:{failed.pk}:{now.isoformat()}", params={"batch_id": failed.pk},
                                     error="The notice batch stopped; its page says why.", attempts=1)
        older = Batch.objects.create(jurisdiction_id=dane.pk, as_of=dt.date(2026, 5, 1), status="done", requested_at=now,
                                     requested_by_id=staff.pk, total=7, done=7, step="", started_at=now, finished_at=now)
        apps = _migrate(AFTER)
        Batch, Job = apps.get_model("maintenance", "NoticeBatch"), apps.get_model("jobs", "Job")
        assert Batch.objects.get(pk=failed.pk).job_id == its_job.pk  # the job that ran it, not a second one
        assert Job.objects.get(pk=its_job.pk).error == "the letters could not be written (disk full)"  # the batch's words
        made = Job.objects.get(pk=Batch.objects.get(pk=older.pk).job_id)  # before batches ran as jobs: one is made
        assert (made.state, made.done, made.total, made.started_by_id, made.params) == ("done", 7, 7, staff.pk, {"batch_id": older.pk})
        assert made.finished_at == now and Batch.objects.get(pk=older.pk).total == 7
        assert Job.objects.count() == 2
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
