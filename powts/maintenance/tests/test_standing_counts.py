"""Speed, "every page above: p95 under 100 ms at 1,000,000 systems": the maintenance dashboard reads its
standing counts from a histogram the database keeps (powts.maintenance.standing_counts), so each count must
equal a fresh count over the schedules after every kind of write: a contractor's report, an inventory import
(systems created, then updated), a notice send (set-based updates), a permit's final approval, a change of a
system's type, status or town, and deletes; and on both sides of each due and notice date, as of that day,
the day before and the day after (standing moves with the date, without any write)."""
import copy
import datetime as dt

import pytest
from django.db import connection
from django.utils import timezone

from powts.inventory.models import Parcel, System
from powts.maintenance import standing_counts
from powts.maintenance.models import Schedule, StandingCount
from powts.maintenance.selectors import dashboard_counts, dashboard_counts_counted
from powts.maintenance.services import report_submit, schedule_sync

D = dt.date


def _keyed(counts: dict) -> dict:
    return {"totals": counts["totals"],
            "by_type": {(r["rule"], r["system__system_type"]): {k: r[k] for k in standing_counts.STANDINGS} for r in counts["by_type"]},
            "by_municipality": {r["system__parcel__municipality"]: {k: r[k] for k in standing_counts.STANDINGS}
                                for r in counts["by_municipality"]}}


def _edges(jurisdiction) -> set[dt.date]:
    """Every notice and due date the county's schedules hold, with the day before and the day after."""
    days = set()
    for notice_on, due_on in Schedule.objects.filter(jurisdiction=jurisdiction).values_list("notice_on", "due_on"):
        for d in (notice_on, due_on):
            if d:
                days |= {d - dt.timedelta(days=1), d, d + dt.timedelta(days=1)}
    return days or {D(2026, 6, 1)}


def assert_exact(jurisdiction, days=None) -> None:
    """The histogram's counts equal COUNT(*) over the schedules, in all, by type and by town, on each day."""
    assert Schedule.objects.filter(jurisdiction=jurisdiction).exists()
    systems, schedules = System.objects.filter(jurisdiction=jurisdiction).count(), Schedule.objects.filter(jurisdiction=jurisdiction).count()
    assert standing_counts.kept_totals(jurisdiction_id=jurisdiction.pk) == (systems, schedules)
    for day in sorted(days or _edges(jurisdiction)):
        kept, counted = dashboard_counts(jurisdiction=jurisdiction, as_of=day), dashboard_counts_counted(jurisdiction=jurisdiction, as_of=day)
        assert _keyed(kept) == _keyed(counted), day
        assert [r["system__system_type"] for r in kept["by_type"]] == [r["system__system_type"] for r in counted["by_type"]]


@pytest.fixture
def county(dane, make_system):
    make_system(system_id="DA-1", installed_on=D(2023, 7, 1))
    make_system(system_id="DA-2", installed_on=D(2020, 1, 1), owner="Lee Late", address="7 Oak St\nVerona, WI 53593",
                municipality="Town of Dunn")
    make_system(system_id="DA-3", installed_on=D(2023, 7, 1), owner="Nora Noaddress", address="", system_type="mound")
    make_system(system_id="DA-4", installed_on=None, owner="Nat Nodate", municipality="Town of Dunn")
    make_system(system_id="DA-5", installed_on=D(2026, 1, 1), system_type="holding_tank", owner="Hal Holding")
    schedule_sync(jurisdiction=dane)
    return dane


def _move_due(system_id: str, due_on: dt.date) -> None:
    """A raw, set-based write, as a bulk path makes: no service, no signal."""
    with connection.cursor() as cursor:
        cursor.execute("UPDATE maintenance_schedule SET due_on = %s, notice_on = %s WHERE system_ref = %s",
                       [due_on, due_on - dt.timedelta(days=30), system_id])


def test_a_system_due_yesterday_today_and_tomorrow_is_overdue_overdue_and_due_soon(county):
    """Standing as of today against the due date (selectors.standing_q): due on or before today is overdue, due
    after it (with its notice date passed) is due soon; moved by raw SQL, which only the triggers see."""
    today = D(2026, 6, 10)
    before = dashboard_counts_counted(jurisdiction=county, as_of=today)["totals"]
    for system_id, due_on in (("DA-1", today - dt.timedelta(days=1)), ("DA-2", today), ("DA-3", today + dt.timedelta(days=1))):
        _move_due(system_id, due_on)
    after = dashboard_counts(jurisdiction=county, as_of=today)["totals"]
    assert after == dashboard_counts_counted(jurisdiction=county, as_of=today)["totals"]
    # DA-1, DA-2 and DA-3 now count as overdue, overdue and due soon, whatever they were before
    moved = {s: Schedule.objects.get(system_ref=s) for s in ("DA-1", "DA-2", "DA-3")}
    assert all(not m.delinquent and not m.exempt and not m.needs_data for m in moved.values())
    assert after["overdue"] >= 2 and after["due_soon"] >= 1
    assert after["overdue"] + after["due_soon"] + after["current"] == before["overdue"] + before["due_soon"] + before["current"]
    assert_exact(county, days={today - dt.timedelta(days=1), today, today + dt.timedelta(days=1)})


def test_the_counts_follow_a_raw_write_that_no_service_made(county):
    """Fails without the triggers: the histogram would still hold the old due date."""
    day = D(2026, 6, 10)
    overdue = dashboard_counts(jurisdiction=county, as_of=day)["totals"]["overdue"]
    with connection.cursor() as cursor:
        cursor.execute("UPDATE maintenance_schedule SET due_on = %s WHERE system_ref = %s", [D(2001, 1, 1), "DA-5"])
    assert dashboard_counts(jurisdiction=county, as_of=day)["totals"]["overdue"] == overdue + 1
    assert_exact(county)


def test_exact_after_the_sync_and_a_contractors_report(county, pumper_license):
    assert_exact(county)
    report_submit(jurisdiction=county, now=timezone.make_aware(dt.datetime(2026, 3, 10, 12)),
                  data={"system_id": "DA-2", "kind": "pumping", "work_date": "2026-03-02", "license_number": "SSO-1",
                        "gallons_pumped": "1000", "disposal_site": "Nine Springs WWTP", "effluent_ponding": "yes"})
    assert Schedule.objects.get(system_ref="DA-2").due_on > D(2026, 3, 2)
    assert_exact(county)


def test_exact_after_an_import_that_creates_then_updates_systems(dane, write_csv):
    from powts.inventory.importing.service import import_inventory

    head = ["system_id", "parcel_id", "system_type", "owner_name", "installed_on", "municipality"]
    created = write_csv([head, ["D-1", "P-1", "mound", "Ann", "2020-05-01", "Town of Dunn"],
                         ["D-2", "P-2", "conventional", "Bob", "", "Town of Verona"],
                         ["D-3", "P-3", "holding_tank", "Cy", "2024-02-29", "Town of Verona"]])
    import_inventory(path=created, jurisdiction=dane, today=D(2026, 11, 29))
    assert Schedule.objects.filter(jurisdiction=dane).count() == 3
    assert_exact(dane)
    updated = write_csv([head, ["D-1", "P-1", "conventional", "Ann", "2021-05-01", "Town of Verona"],
                         ["D-2", "P-2", "conventional", "Bob", "2019-01-01", "Town of Verona"],
                         ["D-4", "P-4", "mound", "Di", "2018-01-01", "Town of Dunn"]], name="again.csv")
    import_inventory(path=updated, jurisdiction=dane, today=D(2026, 11, 29))
    assert System.objects.get(system_id="D-1").system_type == "conventional"
    assert Parcel.objects.get(parcel_number="P-1").municipality == "Town of Verona"
    assert_exact(dane)


def test_exact_after_a_notice_send(county, tmp_path):
    from powts.maintenance.notices import notices_send

    stages = dict(Schedule.objects.values_list("system_ref", "stage"))
    for as_of in (D(2026, 6, 1), D(2026, 9, 1), D(2027, 6, 1)):
        notices_send(jurisdiction=county, as_of=as_of, output_dir=tmp_path / str(as_of), email=False)
        assert_exact(county)
    assert dict(Schedule.objects.values_list("system_ref", "stage")) != stages  # the send did write the schedules


def test_exact_after_a_type_status_and_town_change(county):
    from powts.inventory.services import parcel_update, system_update

    system = System.objects.get(system_id="DA-1")
    system_update(system=system, data={"system_type": "mound"})
    assert_exact(county)
    system_update(system=System.objects.get(system_id="DA-3"), data={"status": "failing"})
    assert dashboard_counts(jurisdiction=county, as_of=D(2026, 6, 1))["totals"]["failing"] == 1
    assert_exact(county)
    parcel = Parcel.objects.get(parcel_number="P-DA-1")
    parcel_update(parcel=parcel, data={"municipality": "Village of Oregon"}, version=parcel.version, reason="town boundary")
    assert "Village of Oregon" in {r["system__parcel__municipality"] for r in
                                   dashboard_counts(jurisdiction=county, as_of=D(2026, 6, 1))["by_municipality"]}
    assert_exact(county)


def test_exact_after_deletes(county):
    System.objects.filter(system_id="DA-2").delete()  # the ORM's cascade: the schedule goes first
    assert_exact(county)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM maintenance_schedule WHERE system_ref = %s", ["DA-3"])
    assert_exact(county)


def _count_writes(table: str = standing_counts.SYSTEMS) -> int:
    """Rows this transaction has inserted or updated in a table of kept counts (PostgreSQL's own tally)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT n_tup_ins + n_tup_upd FROM pg_stat_xact_user_tables WHERE relname = %s", [table])
        return cursor.fetchone()[0]


def test_one_statement_of_many_systems_writes_the_county_count_once(county):
    """PostgreSQL: a statement that inserts or deletes many systems (an import's INSERT ... SELECT, a bulk
    delete) changes the county's count once, not once per row: per row, one transaction's 100,000 upserts of
    the same row each walked past the versions before it (a 100,000-row import took 1 ms a row). The count
    stays exact."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite updates the count's row in place: its row triggers cost the same per row")
    model = System.objects.get(system_id="DA-1")
    copies = []
    for n in range(40):
        model.pk, model.system_id = None, f"DA-BULK-{n}"
        copies.append(copy.copy(model))
    before = _count_writes()
    System.objects.bulk_create(copies)  # one INSERT of 40 rows
    assert _count_writes() - before == 1
    assert standing_counts.kept_totals(jurisdiction_id=county.pk)[0] == System.objects.filter(jurisdiction=county).count() == 45
    before = _count_writes()
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM inventory_system WHERE system_id LIKE %s", ["DA-BULK-%"])  # one DELETE of 40 rows
    assert _count_writes() - before == 1
    assert_exact(county)


def test_exact_after_a_permits_final_approval(lincoln, make_user):
    """The replaced system is retired at final approval (its schedule exempt): the counts move with it."""
    from powts.accounts.services import license_create
    from powts.inventory.services import system_create
    from powts.permits import services
    from powts.permits.selectors import stages_for
    from powts.permits.tests.conftest import issue

    master = license_create(kind="master_plumber", number="MP-1001", holder_name="Pete Plumber",
                            user=make_user("pete", "plumber"))
    permit = issue(lincoln, master, issued_on=D(2026, 4, 1), replaces_system=True, work="new system for the house")
    system_create(jurisdiction=lincoln, system_id="LC-OLD", parcel_number=permit.parcel.parcel_number, system_type="conventional",
                  owner_name=permit.parcel.owner.name, owner_mailing_address="1 Main St, Merrill, WI 54452", installed_on=D(2020, 1, 1))
    schedule_sync(jurisdiction=lincoln)
    assert_exact(lincoln)
    for stage in stages_for(permit):
        if not stage.optional:
            insp = services.inspection_request(permit=permit, stage=stage.id, notice_at=dt.datetime(2026, 5, 1, 8, tzinfo=dt.UTC),
                                               requested_day=D(2026, 5, 12))
            services.inspection_record(inspection=insp, result="passed", on=D(2026, 5, 12))
    services.replaced_components_abandon(permit=permit, plumber=master, components="septic tank and drainfield",
                                         method="crushed_filled", abandoned_on=D(2026, 5, 12))
    services.permit_final_approve(permit=permit, on=D(2026, 5, 15))
    assert Schedule.objects.get(system_ref="LC-OLD").exempt
    assert dashboard_counts(jurisdiction=lincoln, as_of=D(2026, 6, 1))["totals"]["exempt"] >= 1
    assert_exact(lincoln)


def test_a_rebuild_counts_the_same_as_the_triggers_kept(county, pumper_license):
    """The migration's fill (and a bulk path's repair) gives the rows the triggers kept, less the emptied ones."""
    System.objects.filter(system_id="DA-4").delete()
    kept = {r.pop("id") and tuple(r.values()) for r in StandingCount.objects.filter(n__gt=0).values()}
    standing_counts.rebuild(jurisdiction_id=county.pk)
    assert {r.pop("id") and tuple(r.values()) for r in StandingCount.objects.values()} == kept
    assert_exact(county)


TRIGGERS = {name for name, *_ in standing_counts.TRIGGERS}


def _triggers() -> set[str]:
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'maint_standing%'")
        else:
            cursor.execute("SELECT tgname FROM pg_trigger WHERE tgname LIKE 'maint_standing%'")
        return {r[0] for r in cursor.fetchall()}


def test_every_trigger_is_in_place_after_all_migrations(db):
    """On SQLite `migrate` installs them after its last migration (standing_counts.after_migrate), so a later
    migration that rebuilds a schedule, system or parcel table neither fails nor loses them."""
    assert _triggers() == TRIGGERS


REBUILT = """
import datetime as dt, json
import django
django.setup()
from django.db import connection, models
from powts.inventory.models import Parcel, System
from powts.jurisdictions.models import Jurisdiction
from powts.maintenance import standing_counts
from powts.maintenance.models import Schedule
from powts.maintenance.selectors import dashboard_counts, dashboard_counts_counted

from django.core.management.sql import emit_post_migrate_signal, emit_pre_migrate_signal
from django.db.migrations import Migration

# as `migrate` does: every app's receivers (these counts' triggers, the inventory's town copy) before and after
emit_pre_migrate_signal(0, False, "default", plan=[(Migration("9999_later", "inventory"), False)])
for n, model in enumerate((System, Schedule, Parcel)):  # what SQLite does for a new column with a default
    field = models.IntegerField(default=0)
    field.set_attributes_from_name(f"later_{n}")
    with connection.schema_editor() as editor:
        editor.add_field(model, field)
emit_post_migrate_signal(0, False, "default", plan=[(Migration("9999_later", "inventory"), False)])
with connection.cursor() as cursor:
    cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'maint_standing%'")
    names = sorted(r[0] for r in cursor.fetchall())
    cursor.execute("UPDATE maintenance_schedule SET due_on = '2001-01-01'")
county = Jurisdiction.objects.get(slug="dane")
day = dt.date(2026, 6, 1)
print(json.dumps({"triggers": names, "kept": dashboard_counts(jurisdiction=county, as_of=day)["totals"],
                  "counted": dashboard_counts_counted(jurisdiction=county, as_of=day)["totals"]}))
"""


@pytest.mark.django_db(transaction=True)
def test_a_later_migration_that_rebuilds_the_tables_on_sqlite_keeps_the_triggers(county, tmp_path):
    """Django rebuilds a SQLite table to add a column with a default; with the triggers in place the rename
    fails ("error in trigger ...: no such table"). Around it, as `migrate` does, they come off and back,
    and the counts are taken again: exact after a raw write that follows."""
    import json
    import os
    import sqlite3
    import subprocess
    import sys

    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL keeps a table's triggers through ALTER TABLE")
    connection.ensure_connection()
    target = sqlite3.connect(tmp_path / "powts.sqlite3")
    connection.connection.backup(target)
    target.close()
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(POWTS_DATA_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="powts.settings")
    done = subprocess.run([sys.executable, "-c", REBUILT], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(out["triggers"]) == TRIGGERS
    assert out["kept"] == out["counted"] and out["kept"]["overdue"] == Schedule.objects.filter(exempt=False, needs_data=False).count()


def test_the_notices_page_counts_the_systems_not_yet_scheduled_from_the_kept_counts(county, make_system, staff):
    """The page says how many systems the preview leaves out (added since the last sync): the county's
    kept number of systems less its schedules', equal to counting both, before and after the sync."""
    from django.test import Client

    make_system(system_id="DA-NEW-1", installed_on=D(2021, 1, 1))
    make_system(system_id="DA-NEW-2", installed_on=D(2021, 1, 1))
    assert standing_counts.unscheduled(jurisdiction_id=county.pk) == 2 == \
        System.objects.filter(jurisdiction=county).count() - Schedule.objects.filter(jurisdiction=county).count()
    client = Client()
    client.force_login(staff)
    assert client.get("/maintenance/notices/?as_of=2026-06-01").context["unscheduled"] == 2
    System.objects.filter(system_id="DA-NEW-2").delete()
    assert client.get("/maintenance/notices/?as_of=2026-06-01").context["unscheduled"] == 1
    schedule_sync(jurisdiction=county)
    assert client.get("/maintenance/notices/?as_of=2026-06-01").context["unscheduled"] == 0
    assert_exact(county)


def test_one_statement_of_many_schedules_writes_each_count_once(county, make_system):
    """PostgreSQL: a sync's one INSERT of a county's schedules (and a DELETE of them) changes each of the
    histogram's rows once, not once per schedule: schedules needing data all share one row, which per row
    would be rewritten once for each of them in one transaction. The counts stay exact."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite updates the count's row in place: its row triggers cost the same per row")
    make_system(system_id="DA-6", installed_on=D(2023, 7, 1))  # DA-1's twin: their schedules share a row
    schedule_sync(jurisdiction=county)
    rows = list(Schedule.objects.filter(jurisdiction=county))
    keys = StandingCount.objects.filter(jurisdiction=county, n__gt=0).count()
    assert len(rows) == 6 and keys < len(rows)
    before = _count_writes(standing_counts.TABLE)
    Schedule.objects.filter(jurisdiction=county).delete()  # one DELETE of 6 rows
    assert _count_writes(standing_counts.TABLE) - before == keys
    before = _count_writes(standing_counts.TABLE)
    Schedule.objects.bulk_create(rows)  # one INSERT of 6 rows, as schedule_sync writes them
    assert _count_writes(standing_counts.TABLE) - before == keys
    assert_exact(county)


def test_one_statement_of_many_notices_writes_the_days_count_once(county):
    """PostgreSQL: a send's one INSERT of its letters, all of one county and day (and a DELETE of them),
    changes the dashboard chart's row for that day once, not once per letter. The day's count stays exact."""
    from powts.maintenance import activity_counts
    from powts.maintenance.models import ActivityCount, Notice

    if connection.vendor != "postgresql":
        pytest.skip("SQLite updates the count's row in place: its row triggers cost the same per row")
    day, systems = D(2026, 5, 4), list(System.objects.filter(jurisdiction=county))
    notices = [Notice(jurisdiction=county, system=systems[i % len(systems)], kind="first_notice", due_on=D(2026, 6, 1) + dt.timedelta(days=i),
                      as_of=day, sent_at=timezone.now()) for i in range(40)]
    before = _count_writes(activity_counts.TABLE)
    Notice.objects.bulk_create(notices)  # one INSERT of 40 rows
    assert _count_writes(activity_counts.TABLE) - before == 1
    assert ActivityCount.objects.get(jurisdiction=county, day=day).notices == 40
    before = _count_writes(activity_counts.TABLE)
    Notice.objects.filter(jurisdiction=county, as_of=day).delete()  # one DELETE of 40 rows
    assert _count_writes(activity_counts.TABLE) - before == 1
    assert ActivityCount.objects.get(jurisdiction=county, day=day).notices == 0


@pytest.mark.django_db(transaction=True)
def test_the_nightly_sweep_rewrites_the_counts_a_large_change_left_spread_thin(county):
    """PostgreSQL: one transaction that moves schedules many times (a bulk fix, a re-sync after a profile change)
    leaves a row version per change in the kept counts, which the dashboard then reads whole. The nightly schedule
    sweep rewrites the table to its live rows: a page or two here; the counts stay exact."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite rewrites the count's row in place")
    from django.db import transaction

    from powts.maintenance.background import schedule_sync as sweep

    def pages() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_relation_size(%s) / current_setting('block_size')::int", [standing_counts.TABLE])
            return cursor.fetchone()[0]

    with transaction.atomic():
        for i in range(1500):  # DA-1's due date moved back and forth: two count rows rewritten each time
            _move_due("DA-1", D(2027, 1, 1) + dt.timedelta(days=i % 2))
    spread = pages()
    assert spread > 20, spread
    sweep(None, lambda **kw: None)
    assert pages() <= 2, (spread, pages())
    assert_exact(county)
