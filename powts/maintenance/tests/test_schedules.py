"""Schedules kept in step with the inventory (one indexed row per system)."""
import datetime as dt

from powts.audit.models import AuditEvent
from powts.inventory.services import system_update
from powts.maintenance.models import Schedule
from powts.maintenance.selectors import due_list
from powts.maintenance.services import schedule_sync

D = dt.date


def test_sync_creates_then_recomputes_changed_systems(dane, make_system):
    system = make_system(installed_on=D(2023, 7, 1))
    assert schedule_sync(jurisdiction=dane) == {"created": 1, "updated": 0}
    assert schedule_sync(jurisdiction=dane) == {"created": 0, "updated": 0}
    Schedule.objects.filter(pk=system.pk).update(stage="reminder", delinquent=True)
    system_update(system=system, data={"installed_on": D(2024, 7, 1)})
    assert schedule_sync(jurisdiction=dane) == {"created": 0, "updated": 1}
    row = Schedule.objects.get(pk=system.pk)
    # a new due date restarts the notice sequence
    assert (row.due_on, row.stage, row.delinquent) == (D(2027, 7, 1), "", False)
    assert AuditEvent.objects.filter(action__contains="in step with the inventory").count() == 2


def test_due_list_covers_synced_and_not_yet_synced_systems(dane, make_system):
    make_system(system_id="A", installed_on=D(2023, 7, 1))
    schedule_sync(jurisdiction=dane)
    make_system(system_id="B", installed_on=D(2023, 7, 2))  # imported after the last sync
    rows = {ref: (due, kind) for ref, due, kind in due_list(jurisdiction=dane, as_of=D(2026, 6, 2))}
    assert rows == {"A": ("2026-07-01", "first_notice"), "B": ("2026-07-02", "first_notice")}
    assert Schedule.objects.count() == 1  # read-only


def test_abandoned_systems_get_no_letters(dane, make_system, tmp_path):
    from powts.maintenance.notices import notices_send

    system = make_system(installed_on=D(2020, 1, 1))
    system_update(system=system, data={"status": "abandoned"})
    assert notices_send(jurisdiction=dane, as_of=D(2026, 6, 1), output_dir=tmp_path).total == 0
