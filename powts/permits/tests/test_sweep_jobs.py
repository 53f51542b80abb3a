""""The daily sweeps are periodic tasks with their times in settings, each logged with
what it changed." The clock (powts.jobs.sweeps.sweep_clock, ticked every minute by the worker's periodic
task) starts each sweep once a day at or after its time, as a job whose result counts what it changed."""
import datetime as dt
import zoneinfo

from powts.audit.models import AuditEvent
from powts.jobs.models import Job, JobState
from powts.jobs.sweeps import sweep_clock
from powts.permits import choices as c
from powts.permits.models import Permit
from powts.permits.tests.conftest import issue

D = dt.date
CHICAGO = zoneinfo.ZoneInfo("America/Chicago")


def at(day: dt.date, hh: int, mm: int) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, hh, mm, tzinfo=CHICAGO)


def test_permits_expire_runs_at_its_time_once_a_day_and_logs_what_it_expired(dane, master, settings):
    settings.TIME_ZONE = "America/Chicago"
    settings.POWTS_SWEEPS = {"permits_expire": "02:10", "permits_orders_overdue": "02:20"}
    permit = issue(dane, master, issued_on=D(2026, 4, 1))  # expires after April 1, 2028
    day = D(2028, 4, 2)
    assert sweep_clock(at(day, 2, 9)) == []  # a minute early: nothing
    assert Permit.objects.get().status == c.PermitStatus.ISSUED
    [job] = sweep_clock(at(day, 2, 10))  # on the minute: the expiry sweep only
    assert (job.kind, job.state, job.key) == ("sweep.permits_expire", JobState.DONE, "sweep:permits_expire:2028-04-02")
    assert job.result["counts"] == {"permits expired": 1} and job.result["changed"] == [permit.number]
    assert Permit.objects.get().status == c.PermitStatus.EXPIRED
    assert AuditEvent.objects.filter(object_id=permit.pk, channel="job", actor_label="daily sweep: permits expire").exists()
    later = sweep_clock(at(day, 2, 25))  # the expiry sweep already ran today; the orders sweep's time has come
    assert [j.kind for j in later] == ["sweep.permits_orders_overdue"]
    assert later[0].result["counts"] == {"correction orders now overdue": 0}
    assert sweep_clock(at(day, 23, 59)) == []  # each once a day, however many workers tick the clock
    assert Job.objects.count() == 2
    assert [j.kind for j in sweep_clock(at(day + dt.timedelta(days=1), 3, 0))] == [
        "sweep.permits_expire", "sweep.permits_orders_overdue"]  # the next day: again (a worker down at 02:10 catches up)


def test_the_day_before_expiry_the_sweep_changes_nothing_and_says_so(dane, master, settings):
    settings.TIME_ZONE = "America/Chicago"
    settings.POWTS_SWEEPS = {"permits_expire": "02:10"}
    issue(dane, master, issued_on=D(2026, 4, 1))
    [job] = sweep_clock(at(D(2028, 4, 1), 2, 10))  # the expiry day itself: still valid
    assert job.result["counts"] == {"permits expired": 0}
    assert Permit.objects.get().status == c.PermitStatus.ISSUED


def test_schedule_sync_and_notices_due_sweeps_count_what_they_did(dane, settings):
    from powts.inventory.services import system_create
    from powts.maintenance.models import Schedule

    settings.TIME_ZONE = "America/Chicago"
    settings.POWTS_SWEEPS = {"schedule_sync": "02:30", "notices_due": "06:00"}
    system_create(jurisdiction=dane, system_id="DA-1", parcel_number="P-1", system_type="mound", owner_name="Olive Owner",
                  owner_mailing_address="12 Lake Rd\nVerona, WI 53593", installed_on=D(2023, 7, 1))
    Schedule.objects.all().delete()  # out of step with the inventory
    [sync] = sweep_clock(at(D(2026, 6, 1), 2, 30))
    assert sync.result["counts"] == {"counties": 1, "schedules created": 1, "schedules updated": 0}
    assert Schedule.objects.count() == 1
    [due] = sweep_clock(at(D(2026, 6, 1), 6, 0))
    from powts.maintenance.selectors import due_list

    expected = len(due_list(jurisdiction=dane, as_of=D(2026, 6, 1)))
    assert due.result["counts"]["notices due"] == expected and expected >= 1
    assert due.result["per_county"] == {"Dane County": expected}
