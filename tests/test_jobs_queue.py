"""Jobs taken off a real queue by a real consumer (the one `powts serve` and `powts
worker` start), not Huey's immediate mode: the embedded SQLite queue here, Redis when .ci/run runs the
`jobs` tests again with POWTS_QUEUE_URL=redis://..."""
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

pytestmark = pytest.mark.jobs
CSV = b"system_id,parcel_id,system_type,owner_name\nQ-1,P-1,Mound,Ann\nQ-2,P-2,Spaceship,Bob\nQ-3,P-3,Holding tank,Cy\n"


@pytest.mark.django_db(transaction=True)
def test_an_import_job_runs_end_to_end_on_the_configured_queue(dane, staff, settings, tmp_path):
    from django.test import Client
    from huey.contrib.djhuey import HUEY

    from powts.core.queue import start_consumer
    from powts.inventory.models import System
    from powts.jobs.models import Job, JobState

    settings.MEDIA_ROOT = tmp_path
    HUEY.immediate = False  # the queue as configured
    HUEY.storage.flush_queue()
    c = Client()
    c.force_login(staff)
    token = c.post("/inventory/import/", {"file": SimpleUploadedFile("county.csv", CSV)}).context["token"]
    c.post(f"/inventory/import/{token}/confirm/")
    job = Job.objects.get()
    assert job.state == JobState.QUEUED and HUEY.pending_count() == 1 and System.objects.count() == 0
    consumer = start_consumer(workers=1, periodic=False)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            job.refresh_from_db()
            if job.finished:
                break
            time.sleep(0.2)
    finally:
        consumer.stop(graceful=True)
    assert job.state == JobState.DONE, job.error
    assert job.result["counts"] == {"rows": 3, "created": 2, "updated": 0, "unchanged": 0, "rejected": 1}
    assert sorted(System.objects.values_list("system_id", flat=True)) == ["Q-1", "Q-3"]
    assert "2 created" in c.get(f"/jobs/{job.pk}/").content.decode()
