"""After an inventory import stores systems, their maintenance schedules follow (Wis. Stat. s. 145.20(5):
each system inspected or pumped at least every 3 years), so the due list is right the same day."""
import datetime as dt

from powts.inventory.importing.service import import_inventory
from powts.maintenance.models import Schedule


def test_import_brings_schedules_up_to_date(dane, write_csv):
    path = write_csv([["system_id", "parcel_id", "system_type", "owner_name", "installed_on"],
                      ["D-1", "P-1", "mound", "Ann", "2020-05-01"], ["D-2", "P-2", "conventional", "Bob", ""]])
    result = import_inventory(path=path, jurisdiction=dane, today=dt.date(2026, 11, 29))
    assert set(result.follow_up) == {"maintenance schedules", "map clusters"}
    assert Schedule.objects.filter(system__system_id="D-1").get().due_on == dt.date(2023, 5, 1)
    assert Schedule.objects.get(system__system_id="D-2").needs_data


def test_a_dry_run_or_an_unchanged_file_does_no_follow_up(dane, write_csv):
    path = write_csv([["system_id", "parcel_id", "system_type", "owner_name"], ["D-1", "P-1", "mound", "Ann"]])
    assert import_inventory(path=path, jurisdiction=dane, dry_run=True).follow_up == {}
    assert Schedule.objects.count() == 0
    import_inventory(path=path, jurisdiction=dane)
    assert import_inventory(path=path, jurisdiction=dane).follow_up == {}
