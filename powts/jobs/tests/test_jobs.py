"""Background jobs: "the web import, notice batches and letters, allocation runs and large exports run as
jobs: the page shows progress and the result, a failed job says why and can be retried, a job that is run
twice does its work once" and "A worker killed in the middle of a job: the job is retried and its work
done once. Redis stopped while the web application runs: pages still serve, a job that cannot be queued
says so to the user, nothing is lost."""
import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from powts.audit.models import AuditEvent
from powts.inventory.models import System
from powts.jobs import services, tasks
from powts.jobs.models import Job, JobState

CSV = b"system_id,parcel_id,system_type,owner_name\nD-1,P-1,Mound,Ann\nD-2,P-2,Spaceship,Bob\nD-3,P-3,Mound,Cy\n"


@pytest.fixture
def held(monkeypatch):
    """Jobs recorded but not run (as if no worker were free): the ids a queue would carry."""
    queued = []
    monkeypatch.setattr(services, "enqueue", lambda job: queued.append(job.pk))
    return queued


@pytest.fixture
def uploaded(client, staff, dane, tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path
    client.force_login(staff)
    return client.post("/inventory/import/", {"file": SimpleUploadedFile("county.csv", CSV)}).context["token"]


def _confirm(client, token) -> Job:
    response = client.post(f"/inventory/import/{token}/confirm/")
    assert response.status_code == 302 and response["Location"].startswith("/jobs/")
    return Job.objects.get()


def test_the_import_is_a_job_and_its_page_shows_the_counts_and_rejections(client, uploaded, staff):
    job = _confirm(client, uploaded)
    assert (job.kind, job.state, job.started_by, job.total) == ("inventory.import", JobState.DONE, staff, 3)
    assert job.result["counts"] == {"rows": 3, "created": 2, "updated": 0, "unchanged": 0, "rejected": 1}
    page = client.get(f"/jobs/{job.pk}/").content.decode()
    assert "2 created" in page and "not a system type powts knows" in page and "Download them all" in page
    assert 'hx-trigger="every 1s"' not in page  # finished: the page stops asking


def test_a_job_run_twice_does_its_work_once(client, uploaded, held):
    job = _confirm(client, uploaded)
    assert job.state == JobState.QUEUED and held == [job.pk] and System.objects.count() == 0
    assert tasks.execute(job.pk) == "done"
    assert tasks.execute(job.pk) == "not claimed"  # the same id delivered again: nothing to claim
    assert System.objects.count() == 2
    assert AuditEvent.objects.filter(content_type__model="system", verb="create").count() == 2
    assert Job.objects.get().attempts == 1


def test_confirming_twice_finds_the_same_job(client, uploaded, held):
    first = _confirm(client, uploaded)
    client.post(f"/inventory/import/{uploaded}/confirm/")
    assert Job.objects.get() == first and held == [first.pk]


def test_while_running_the_page_polls_and_shows_progress(client, uploaded, held):
    job = _confirm(client, uploaded)
    job = services.claim(job.pk)
    services.beat(job, done=1, total=3, step="checking rows")
    page = client.get(f"/jobs/{job.pk}/", HTTP_HX_REQUEST="true").content.decode()
    assert 'hx-trigger="every 1s"' in page and "Checking rows: 1 of 3" in page and 'value="33"' in page


@pytest.mark.parametrize("silent_for, taken_back", [(119, False), (121, True)])
def test_a_worker_killed_mid_job_is_taken_back_after_the_stale_time(client, uploaded, held, silent_for, taken_back):
    """POWTS_JOB_STALE_SECONDS (120): one second under, the job is still its worker's; one over, queued again."""
    job = services.claim(_confirm(client, uploaded).pk)  # a worker took it ... and was killed
    Job.objects.filter(pk=job.pk).update(heard_at=timezone.now() - dt.timedelta(seconds=silent_for))
    assert services.requeue_stale() == (1 if taken_back else 0)
    assert Job.objects.get().state == (JobState.QUEUED if taken_back else JobState.RUNNING)
    if taken_back:
        assert held == [job.pk, job.pk]  # on the queue again
        assert tasks.execute(job.pk) == "done" and System.objects.count() == 2
        assert Job.objects.get().attempts == 2


def test_a_job_killed_after_its_work_was_saved_does_not_do_it_twice(client, uploaded, held):
    """Killed between the import's commit and the job's "done": the retry reports the saved outcome and
    imports nothing again (the work is keyed by the upload)."""
    job = _confirm(client, uploaded)
    from powts.inventory import background

    original = background.import_upload
    claimed = services.claim(job.pk)
    original(claimed, lambda **kw: None)  # the work, saved ... then the worker dies before finishing
    Job.objects.filter(pk=job.pk).update(heard_at=timezone.now() - dt.timedelta(hours=1))
    services.requeue_stale()
    assert tasks.execute(job.pk) == "done"
    job.refresh_from_db()
    assert job.result["counts"]["created"] == 2 and job.attempts == 2
    assert System.objects.count() == 2
    assert AuditEvent.objects.filter(content_type__model="system", verb="create").count() == 2


def test_a_job_left_behind_by_a_stopped_worker_running_a_stale_heartbeat_loses_its_finish(client, uploaded, held):
    """The first run, overtaken (taken back as stale), may not mark the job done over the second run's claim."""
    first = services.claim(_confirm(client, uploaded).pk)
    Job.objects.filter(pk=first.pk).update(heard_at=timezone.now() - dt.timedelta(hours=1))
    services.requeue_stale()
    second = services.claim(first.pk)
    assert services.finish(first, result={"counts": {"x": 1}}) is False
    assert services.finish(second, result={"counts": {"x": 2}}) is True
    assert Job.objects.get().result == {"counts": {"x": 2}}


def test_a_failed_job_says_why_and_a_colleague_retries_it(client, uploaded, dane, lincoln, make_user, monkeypatch):
    from powts.inventory.importing import lock

    def busy(jurisdiction):
        raise lock.ImportBusy(f"Another import of {jurisdiction.name} is running; try again when it has finished.")

    monkeypatch.setattr("powts.inventory.importing.service.county_import_lock", busy)
    job = _confirm(client, uploaded)
    assert job.state == JobState.FAILED and "Another import of Dane County" in job.error
    page = client.get(f"/jobs/{job.pk}/").content.decode()
    assert "The job stopped: Another import of Dane County" in page and ">Retry</button>" in page
    assert System.objects.count() == 0
    # Staff of another county: no such job; a colleague of the same county may retry it.
    other = Client()
    other.force_login(make_user("lou", "county_staff", lincoln))
    assert other.get(f"/jobs/{job.pk}/").status_code == 404
    assert other.post(f"/jobs/{job.pk}/retry/").status_code == 404
    assert Job.objects.get().state == JobState.FAILED
    monkeypatch.undo()
    colleague = Client()
    colleague.force_login(make_user("dee", "county_staff", dane))
    assert colleague.post(f"/jobs/{job.pk}/retry/").status_code == 302
    job.refresh_from_db()
    assert job.state == JobState.DONE and job.attempts == 2 and System.objects.count() == 2
    assert AuditEvent.objects.filter(content_type__model="job", action__startswith="job retried by dee").exists()


def test_an_unexpected_error_fails_the_job_in_plain_words(client, uploaded, monkeypatch):
    monkeypatch.setattr("powts.inventory.importing.service.clean_row", lambda raw, today: 1 / 0)
    job = _confirm(client, uploaded)
    assert job.state == JobState.FAILED
    assert job.error.startswith("The job stopped on an unexpected error") and "ZeroDivision" not in job.error
    assert System.objects.count() == 0


@pytest.mark.jobs
def test_queue_down_the_upload_is_kept_the_job_waits_and_pages_still_serve(client, uploaded, monkeypatch):
    """Redis stopped: a RedisHuey pointed at a port where nothing listens (a real connection refused)."""
    from huey.contrib.djhuey import HUEY
    from huey.storage import RedisStorage

    from powts.jobs.tests.ports import free_port

    monkeypatch.setattr(HUEY, "immediate", False)
    monkeypatch.setattr(HUEY, "storage", RedisStorage(name="powts", url=f"redis://127.0.0.1:{free_port()}/0"))
    response = client.post(f"/inventory/import/{uploaded}/confirm/", follow=True)
    page = response.content.decode()
    assert response.status_code == 200 and "Background jobs are unavailable right now. Nothing was lost" in page
    job = Job.objects.get()
    assert job.state == JobState.QUEUED and System.objects.count() == 0
    from powts.inventory import background

    assert (background.uploads() / f"{uploaded}.csv").exists()  # the file is kept for the worker
    assert client.get("/inventory/").status_code == 200 and client.get(f"/jobs/{job.pk}/").status_code == 200
    # The queue is back: the next worker start (or the minute sweep) queues the waiting job, and it runs once.
    monkeypatch.undo()
    Job.objects.filter(pk=job.pk).update(created_at=timezone.now() - dt.timedelta(hours=1))
    assert services.requeue_stale() == 1
    job.refresh_from_db()
    assert job.state == JobState.DONE and System.objects.count() == 2


def test_two_sweep_clocks_starting_the_same_job_at_once_find_one_job(dane, held, monkeypatch):
    """Two workers' clocks tick in the same minute: the second looked before the first's row was committed,
    so its insert meets the key's unique constraint; it gets the first's job, not an error."""
    first = services.job_start(kind="sweep.permits_expire", title="Daily sweep", key="sweep:permits_expire:2026-06-01")
    real = Job.objects.filter
    monkeypatch.setattr(Job.objects, "filter", lambda *a, **kw: Job.objects.none() if "key" in kw else real(*a, **kw))
    again = services.job_start(kind="sweep.permits_expire", title="Daily sweep", key="sweep:permits_expire:2026-06-01")
    monkeypatch.undo()
    assert again == first and Job.objects.count() == 1 and held == [first.pk]
