"""Notice batches and their letters run as background jobs (powts.jobs): a Job row beside
the batch, taken back when its worker is killed, and waiting (not lost) when the queue is down."""
import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from powts.jobs import services
from powts.jobs.models import Job, JobState
from powts.maintenance.models import BatchStatus, Notice, NoticeBatch
from powts.maintenance.services import schedule_sync

D = dt.date
AS_OF = D(2026, 6, 1)


@pytest.fixture
def county(dane, make_system, settings, tmp_path):
    settings.POWTS_LETTERS_DIR = tmp_path / "letters"
    make_system(system_id="DA-1", installed_on=D(2023, 7, 1))
    make_system(system_id="DA-2", installed_on=D(2020, 1, 1), owner="Lee Late", address="7 Oak St\nVerona, WI 53593")
    schedule_sync(jurisdiction=dane)
    return dane


@pytest.fixture
def staff_client(staff):
    c = Client()
    c.force_login(staff)
    return c


@pytest.mark.django_db(transaction=True)
def test_a_batch_asked_for_is_a_job_with_the_batchs_counts(county, staff_client, staff):
    staff_client.post("/maintenance/notices/send/", {"as_of": AS_OF.isoformat()})
    batch, job = NoticeBatch.objects.get(), Job.objects.get()
    assert (job.kind, job.state, job.started_by, job.jurisdiction) == ("maintenance.notice_batch", JobState.DONE, staff, county)
    assert job.params == {"batch_id": batch.pk} and batch.status == BatchStatus.DONE
    assert job.result["counts"]["letters printed"] == 2 == Notice.objects.count()
    assert "Open the batch" in staff_client.get(f"/jobs/{job.pk}/").content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.jobs
def test_queue_down_the_batch_waits_says_so_and_is_sent_once_when_the_queue_is_back(county, staff_client, monkeypatch):
    from huey.contrib.djhuey import HUEY
    from huey.storage import RedisStorage

    from powts.jobs.tests.ports import free_port

    monkeypatch.setattr(HUEY, "immediate", False)
    monkeypatch.setattr(HUEY, "storage", RedisStorage(name="powts", url=f"redis://127.0.0.1:{free_port()}/0"))
    r = staff_client.post("/maintenance/notices/send/", {"as_of": AS_OF.isoformat()}, follow=True)
    assert r.status_code == 200 and "Background jobs are unavailable right now. Nothing was lost" in r.content.decode()
    assert NoticeBatch.objects.get().status == BatchStatus.QUEUED and Job.objects.get().state == JobState.QUEUED
    assert not Notice.objects.exists()
    assert staff_client.get(f"/maintenance/notices/?as_of={AS_OF}").status_code == 200  # pages still serve
    monkeypatch.undo()
    Job.objects.update(created_at=timezone.now() - dt.timedelta(hours=1))
    assert services.requeue_stale() == 1
    assert NoticeBatch.objects.get().status == BatchStatus.DONE and Notice.objects.count() == 2
    staff_client.post("/maintenance/notices/send/", {"as_of": AS_OF.isoformat()})
    assert Notice.objects.count() == 2 and Job.objects.count() == 1  # asked again: nothing twice


@pytest.mark.django_db(transaction=True)
def test_a_batch_whose_worker_was_killed_is_taken_back_by_its_job_and_sent_once(county, staff, monkeypatch):
    """Killed two minutes in: the job's heartbeat (120 s) takes the batch back; the batch has no state of its own."""
    from powts.maintenance import batches

    monkeypatch.setattr(services, "enqueue", lambda job: None)  # asked for; no worker has it yet
    batch, _ = batches.batch_request(jurisdiction=county, as_of=AS_OF, user=staff)
    job = services.claim(Job.objects.get().pk)  # a worker takes it ... and dies
    Job.objects.filter(pk=job.pk).update(heard_at=timezone.now() - dt.timedelta(seconds=121))
    monkeypatch.undo()
    assert services.requeue_stale() == 1
    batch.refresh_from_db()
    job.refresh_from_db()
    assert (batch.status, job.state, job.attempts) == (BatchStatus.DONE, JobState.DONE, 2)
    assert Notice.objects.count() == 2 and batch.total == 2
