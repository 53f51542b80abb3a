"""Allocation runs run as jobs. The department's run is a background job: queued
while no worker is free (the page shows it), stored once even when the job is run twice or again after a
crash between the commit and the job's "done"."""
import pytest
from django.test import Client

from powts.grants.models import AllocationRun
from powts.grants.tests.program_helpers import application, inventory_system
from powts.jobs import services, tasks
from powts.jobs.models import Job, JobState

FY = "2026-27"


@pytest.fixture
def dsps(dane, staff, make_user):
    from powts.grants.tests.test_program_views import client_for

    inventory_system(dane)
    application(dane, table="5000")
    c = client_for(staff)
    c.post("/grants/program/county/certify/", {"fiscal_year": FY, "official_name": "Sam S", "official_title": "Sanitarian",
                                               "eligibility_and_costs": "1", "installed_and_maintained": "1",
                                               "disbursed_to_eligible": "1"})
    c.post("/grants/program/county/submit/", {"fiscal_year": FY, "received_on": "2026-01-31"})
    from powts.grants.models import ParticipationApplication

    user = make_user("dee", "dsps")
    d = Client()
    d.force_login(user)
    d.post(f"/grants/program/state/participations/{ParticipationApplication.objects.get().pk}/review/", {"decision": "meets"})
    return d


def test_an_allocation_waiting_for_a_worker_shows_its_job_then_is_stored_once(dsps, monkeypatch):
    monkeypatch.setattr(services, "enqueue", lambda job: None)  # no worker free yet
    r = dsps.post("/grants/program/state/allocations/", {"fiscal_year": FY, "funds": "7000"})
    job = Job.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/jobs/{job.pk}/" and not AllocationRun.objects.exists()
    assert "Waiting to start" in dsps.get(f"/jobs/{job.pk}/").content.decode()
    assert tasks.execute(job.pk) == "done" and tasks.execute(job.pk) == "not claimed"
    run = AllocationRun.objects.get()
    job.refresh_from_db()
    assert job.result["run"] == run.pk and run.parameters["job"] == job.pk and run.funds == 7000_00
    assert "Open the allocation" in dsps.get(f"/jobs/{job.pk}/").content.decode()


def test_run_again_after_a_crash_past_its_commit_the_job_finds_the_stored_run(dsps, monkeypatch):
    import datetime as dt

    from django.utils import timezone

    from powts.grants import background

    monkeypatch.setattr(services, "enqueue", lambda job: None)
    dsps.post("/grants/program/state/allocations/", {"fiscal_year": FY, "funds": "7000"})
    job = services.claim(Job.objects.get().pk)
    background.allocate(job, lambda **kw: None)  # stored ... and the worker dies before "done"
    Job.objects.filter(pk=job.pk).update(heard_at=timezone.now() - dt.timedelta(hours=1))
    monkeypatch.undo()
    services.requeue_stale()
    job.refresh_from_db()
    assert job.state == JobState.DONE and job.attempts == 2 and AllocationRun.objects.count() == 1


def test_a_refused_allocation_says_why_on_the_allocations_page(dsps):
    r = dsps.post("/grants/program/state/allocations/", {"fiscal_year": "1999-00", "funds": "7000"}, follow=True)
    assert r.status_code == 200 and not AllocationRun.objects.exists()
    assert Job.objects.filter(state=JobState.FAILED).exists() or not Job.objects.exists()
    assert any(m.level_tag == "error" for m in r.context["messages"])
