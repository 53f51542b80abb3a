"""Liveness: "A job that writes in one long transaction on SQLite needs a heartbeat
that does not go through the database". On a SQLite file the worker holds a lock file per running job
(powts.jobs.liveness): the stale check (POWTS_JOB_STALE_SECONDS) never takes back a job whose lock is held,
however long it has been silent, and takes back a silent job whose lock nobody holds (its worker died).
Here the lock folder is a temporary one (the test database is in memory); tests/test_worker_killed.py
does the same with real worker processes on a SQLite file."""
import datetime as dt

import pytest
from django.utils import timezone

from powts.jobs import kinds, liveness, services, tasks
from powts.jobs.models import Job, JobState


@pytest.fixture
def locks(monkeypatch, tmp_path):
    folder = tmp_path / "running-jobs"
    monkeypatch.setattr(liveness, "folder", lambda: folder)
    return folder


@pytest.fixture
def held(monkeypatch):
    queued = []
    monkeypatch.setattr(services, "enqueue", lambda job: queued.append(job.pk))
    return queued


def _running(silent_for: float) -> Job:
    """A job a worker claimed, silent (no beat) for `silent_for` seconds."""
    job = services.claim(services.job_record(kind="test.anything", title="a job")[0].pk)
    Job.objects.filter(pk=job.pk).update(heard_at=timezone.now() - dt.timedelta(seconds=silent_for))
    return job


@pytest.mark.parametrize("silent_for, lock_held, taken_back", [
    (119, False, False),  # under the limit: its worker's, lock or not
    (121, False, True),  # over the limit, nobody holds its lock: its worker died
    (121, True, False),  # over the limit, but its worker holds the lock: alive (a long write transaction)
    (24 * 3600, True, False),
])
def test_a_silent_job_is_taken_back_only_past_the_limit_and_only_when_no_live_worker_holds_its_lock(
        db, locks, held, settings, silent_for, lock_held, taken_back):
    settings.POWTS_JOB_STALE_SECONDS = 120
    job = _running(silent_for)
    handle = liveness.hold(job.pk) if lock_held else None
    try:
        assert services.requeue_stale() == (1 if taken_back else 0)
        assert Job.objects.get(pk=job.pk).state == (JobState.QUEUED if taken_back else JobState.RUNNING)
    finally:
        liveness.release(job.pk, handle)
    assert held == ([job.pk] if taken_back else [])


def test_once_the_lock_is_let_go_the_silent_job_is_taken_back(db, locks, held):
    job = _running(3600)
    handle = liveness.hold(job.pk)
    assert liveness.held(job.pk) and services.requeue_stale() == 0
    liveness.release(job.pk, handle)  # the process died: the kernel lets go of its locks
    assert not liveness.held(job.pk) and services.requeue_stale() == 1


def test_a_lock_file_left_behind_by_a_dead_worker_proves_nothing(db, locks):
    locks.mkdir()
    (locks / "7.lock").write_text("")  # nobody holds it
    assert liveness.held(7) is False and liveness.held(8) is False


def test_the_worker_holds_the_lock_while_the_job_runs_and_no_heartbeat_thread_writes(db, locks, monkeypatch):
    seen = {}

    def runner(job, progress):
        seen["held"] = liveness.held(job.pk)
        seen["beating"] = job.pk in tasks.heart.jobs
        return {}

    kinds.register("test.sees_its_lock", runner)
    job = services.job_start(kind="test.sees_its_lock", title="looks at its lock")  # run at once (tests)
    assert job.state == JobState.DONE
    assert seen == {"held": True, "beating": False}
    assert not liveness.held(job.pk) and list(locks.iterdir()) == []  # let go and removed once done


def test_a_failed_job_lets_go_of_its_lock(db, locks):
    kinds.register("test.fails", lambda job, progress: 1 / 0)
    job = services.job_start(kind="test.fails", title="fails")
    assert job.state == JobState.FAILED and not liveness.held(job.pk) and list(locks.iterdir()) == []


def test_where_a_lock_file_proves_nothing_the_database_heartbeat_stays(db):
    """The test database (SQLite in memory, or PostgreSQL with workers on other machines): no lock folder."""
    assert liveness.folder() is None and liveness.hold(1) is None and liveness.held(1) is False

    seen = {}
    kinds.register("test.beats", lambda job, progress: seen.setdefault("beating", job.pk in tasks.heart.jobs) and {})
    assert services.job_start(kind="test.beats", title="beats").state == JobState.DONE
    assert seen == {"beating": True}
