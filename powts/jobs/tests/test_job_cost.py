"""Speed of jobs: a powts job cost about 50 bare Huey tasks. What a small job no longer pays for:
a database connection opened and closed around each job (SQLite: pragmas, and a WAL checkpoint on closing
the last connection) and a heartbeat thread of its own. A long job is still heard from while it runs."""
import threading
import time

import pytest
from django.db import connection, connections

from powts.jobs import kinds, services, tasks
from powts.jobs.models import Job, JobState


@pytest.fixture
def queued(monkeypatch):
    """Jobs run as a consumer runs them (not Huey's immediate mode of the other tests), in a worker thread."""
    from huey.contrib.djhuey import HUEY

    monkeypatch.setattr(HUEY, "immediate", False)
    kinds.register("test.small", lambda job, progress: {"counts": {"nothing": 0}})

    def run(*ids):
        outcomes = []
        worker = threading.Thread(target=lambda: outcomes.extend(HUEY.execute(tasks.run_job.s(pk)) for pk in ids))
        worker.start()
        worker.join()
        return outcomes

    return run


def _job(kind="test.small") -> Job:
    return services.job_record(kind=kind, title="a small job")[0]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite only (CONN_MAX_AGE 0); PostgreSQL keeps connections 60 s")
def test_a_worker_thread_keeps_its_sqlite_connection_from_one_job_to_the_next(queued, monkeypatch):
    closed = []
    wrapper = type(connections["default"])
    original = wrapper.close
    monkeypatch.setattr(wrapper, "close", lambda self: (closed.append(threading.current_thread().name), original(self)))
    ids = [_job().pk for _ in range(3)]
    assert queued(*ids) == ["done", "done", "done"]
    assert closed == []  # was 6: before and after each job
    assert set(Job.objects.values_list("state", flat=True)) == {JobState.DONE}


@pytest.mark.django_db(transaction=True)
def test_a_small_job_starts_no_thread_of_its_own(queued, monkeypatch):
    started = []
    original = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda self: (started.append(self.name), original(self)))
    ids = [_job().pk for _ in range(3)]
    assert queued(*ids) == ["done", "done", "done"]
    assert started.count("jobs-heartbeat") <= 1 and len(started) <= 2  # the worker, and at most the one heartbeat


@pytest.mark.django_db(transaction=True)
def test_a_long_job_is_heard_from_while_it_runs_without_reporting_progress(queued, monkeypatch):
    """The stale check (POWTS_JOB_STALE_SECONDS) must not take back a live job that reports nothing."""
    monkeypatch.setattr(tasks, "BEAT_SECONDS", 0.05)
    monkeypatch.setattr(tasks, "heart", tasks._Heart())  # not one still asleep from an earlier test
    heard = []

    def long(job, progress):
        time.sleep(0.5)
        heard.append(Job.objects.values_list("heard_at", flat=True).get(pk=job.pk))
        return {}

    kinds.register("test.long", long)
    job = _job("test.long")
    assert queued(job.pk) == ["done"]
    job.refresh_from_db()
    assert heard[0] > job.started_at  # beaten while running
