"""A notice batch runs on Huey's SQLite queue, taken off it by a real consumer (the one
`powts serve` starts beside the web server), not in the request. Every other test runs tasks at once."""
import datetime as dt
import time

import pytest

D = dt.date


@pytest.mark.django_db(transaction=True)
def test_a_real_consumer_sends_the_batch_from_the_sqlite_queue(dane, staff, make_user, settings, tmp_path):
    from django.test import Client
    from huey.contrib.djhuey import HUEY
    from huey.storage import SqliteStorage

    from powts.core.queue import start_consumer
    from powts.inventory.services import system_create
    from powts.maintenance.models import BatchStatus, Notice, NoticeBatch
    from powts.maintenance.services import schedule_sync

    settings.POWTS_LETTERS_DIR = tmp_path / "letters"
    system_create(jurisdiction=dane, system_id="DA-1", parcel_number="P-1", system_type="mound", owner_name="Olive Owner",
                  owner_mailing_address="12 Lake Rd\nVerona, WI 53593", installed_on=D(2023, 7, 1))
    schedule_sync(jurisdiction=dane)
    HUEY.immediate = False  # the queue as configured: SQLite in the data directory
    assert isinstance(HUEY.storage, SqliteStorage)
    HUEY.storage.flush_queue()
    c = Client()
    c.force_login(staff)
    c.post("/maintenance/notices/send/", {"as_of": "2026-06-01"})
    batch = NoticeBatch.objects.get()
    assert batch.status == BatchStatus.QUEUED and HUEY.pending_count() == 1  # waiting on the queue, not run in the request
    consumer = start_consumer(workers=1)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            batch.refresh_from_db()
            if batch.status not in (BatchStatus.QUEUED, BatchStatus.RUNNING):
                break
            time.sleep(0.2)
    finally:
        consumer.stop(graceful=True)
    assert batch.status == BatchStatus.DONE, batch.error
    assert batch.total == 1 and Notice.objects.get().batch == batch.batch
    assert (tmp_path / "letters" / f"{batch.batch}.pdf").is_file()
