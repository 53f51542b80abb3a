"""Speed of the notices page as of 30 days on: each schedule keeps `retired` and `held`, and owners'
address checks are kept, so the page counts from one index (powts.maintenance.notice_flags). Kept values must
equal the ones computed from the source tables after every writer: the services (system retired, marked
failing, owner and address edits, sales), the import, set-based updates, a stale save, deletes, a rebuild.
On SQLite and on PostgreSQL (DATABASE_URL)."""
import datetime as dt

import pytest
from django.db import connection

from powts.inventory.choices import RETIRED_STATUSES
from powts.inventory.models import Owner, Parcel, System
from powts.maintenance import addresses, notice_flags, notice_page, standing_counts
from powts.maintenance.models import AddressCheck, Schedule
from powts.maintenance.notices import preview
from powts.maintenance.services import schedule_sync

GOOD = "12 Lake Rd\nVerona, WI 53593"
NO_ZIP = "12 Lake Rd\nVerona, WI"
AS_OF = dt.date(2026, 6, 1)


def computed() -> dict:
    """system id -> (retired, held) from the source tables: held is None while the owner's current address has
    no check, and a check must be of the current address (a check of an old one is a fault)."""
    checks = dict(AddressCheck.objects.values_list("owner_id", "usable"))
    out = {}
    for pk, status, owner_id, text in System.objects.values_list("pk", "status", "parcel__owner_id", "parcel__owner__mailing_address"):
        if owner_id is None:
            held = True
        elif owner_id in checks:
            assert checks[owner_id] == (not addresses.problem(text)), (owner_id, text)
            held = not checks[owner_id]
        else:
            held = None
        out[pk] = (status in RETIRED_STATUSES, held)
    return out


def kept() -> dict:
    return {pk: (retired, held) for pk, retired, held in Schedule.objects.values_list("pk", "retired", "held")}


def assert_exact():
    assert kept() == computed()


def checked_all() -> dict:
    """After a recheck: every owner checked, so every flag is known and is the address rule's own answer."""
    notice_flags.recheck()
    assert_exact()
    flags = kept()
    for pk, owner_id, text in System.objects.values_list("pk", "parcel__owner_id", "parcel__owner__mailing_address"):
        assert flags[pk][1] == (owner_id is None or bool(addresses.problem(text))), pk
    return flags


@pytest.fixture
def county(dane, make_system):
    for i, address in enumerate([GOOD, GOOD, NO_ZIP, "", GOOD]):
        make_system(system_id=f"S-{i}", installed_on=dt.date(2020, 1, 1), owner=f"Owner {i}", address=address)
    schedule_sync(jurisdiction=dane)  # checks the owners' addresses, then makes the schedules
    return dane


def test_schedules_made_by_the_sync_have_their_flags(county):
    flags = checked_all()
    assert sorted(flags.values()) == [(False, False)] * 3 + [(False, True)] * 2


def test_retired_through_the_service_and_a_bulk_update(county):
    from powts.inventory.lifecycle import system_mark_failing, system_retire

    system_retire(system=System.objects.get(system_id="S-0"), status="abandoned", cause="abandonment report")
    system_mark_failing(system=System.objects.get(system_id="S-1"), cause="inspection")
    assert kept()[System.objects.get(system_id="S-0").pk] == (True, False)
    assert_exact()
    System.objects.filter(system_id__in=["S-1", "S-2"]).update(status="replaced")
    System.objects.filter(system_id="S-0").update(status="active")
    assert_exact()
    assert sum(r for r, _ in kept().values()) == 2


def test_address_edit_drops_the_check_until_the_recheck(county):
    from powts.inventory.services import owner_update

    owner = Owner.objects.get(name="Owner 0")
    owner_update(owner=owner, data={"mailing_address": "12 Lake Rd"}, version=owner.version, reason="returned mail")
    pk = System.objects.get(system_id="S-0").pk
    assert kept()[pk] == (False, None)  # not checked yet: the page checks it itself
    assert_exact()
    checked_all()
    assert kept()[pk] == (False, True)
    Owner.objects.filter(name="Owner 2").update(mailing_address=GOOD)  # set-based, as a bulk fix would
    assert kept()[System.objects.get(system_id="S-2").pk] == (False, None)
    assert checked_all()[System.objects.get(system_id="S-2").pk] == (False, False)
    owner.refresh_from_db()
    owner_update(owner=owner, data={"name": "Owner Zero"}, version=owner.version, reason="spelling")  # no address change
    assert kept()[pk] == (False, True)


def test_sales_and_owner_changes(county):
    from powts.inventory.services import ownership_transfer

    parcel = Parcel.objects.get(parcel_number="P-S-0")
    ownership_transfer(parcel=parcel, on=dt.date(2026, 1, 5), version=parcel.version, reason="deed",
                       buyer={"name": "Buyer", "mailing_address": "PO Box 1"})
    assert kept()[System.objects.get(system_id="S-0").pk] == (False, None)  # a new owner, not checked yet
    checked_all()
    parcel.refresh_from_db()
    ownership_transfer(parcel=parcel, on=dt.date(2026, 2, 5), version=parcel.version, reason="deed",
                       owner=Owner.objects.get(name="Owner 1"))
    assert kept()[System.objects.get(system_id="S-0").pk] == (False, False)
    Parcel.objects.filter(parcel_number="P-S-1").update(owner=None)  # no owner of record: held
    assert kept()[System.objects.get(system_id="S-1").pk] == (False, True)
    Parcel.objects.filter(parcel_number="P-S-1").update(owner=Owner.objects.get(name="Owner 2"))
    assert_exact()
    System.objects.filter(system_id="S-4").update(parcel=Parcel.objects.get(parcel_number="P-S-3"))  # moved to another parcel
    assert kept()[System.objects.get(system_id="S-4").pk] == (False, True)
    assert_exact()


def test_a_writer_of_the_flags_is_put_right(county):
    """A schedule saved with values read before a change, and a bulk update of the flags themselves."""
    row = Schedule.objects.get(system_ref="S-0")
    System.objects.filter(system_id="S-0").update(status="abandoned")
    Parcel.objects.filter(parcel_number="P-S-0").update(owner=None)
    row.save()  # writes retired=False, held=False read before
    assert kept()[row.pk] == (True, True)
    Schedule.objects.update(retired=False, held=None)
    assert_exact()
    Schedule.objects.filter(system_ref="S-3").delete()
    Schedule.objects.bulk_create([Schedule(system=System.objects.get(system_id="S-3"), jurisdiction=county, system_ref="S-3",
                                           rule="x", retired=True, held=False)])
    assert_exact()


def test_checks_deleted_and_owners_deleted(county):
    AddressCheck.objects.filter(owner__name="Owner 2").delete()
    assert kept()[System.objects.get(system_id="S-2").pk] == (False, None)
    AddressCheck.objects.filter(owner__name="Owner 4").update(usable=False)  # a wrong answer written to a check
    assert kept()[System.objects.get(system_id="S-4").pk] == (False, True)  # the flag follows its check
    AddressCheck.objects.filter(owner__name="Owner 4").delete()
    checked_all()
    lone = Owner.objects.create(jurisdiction=county, name="Nobody's", mailing_address=GOOD)
    notice_flags.recheck(owner_ids=[lone.pk])
    assert AddressCheck.objects.filter(owner_id=lone.pk).exists()
    lone.delete()
    assert not AddressCheck.objects.filter(owner_id=lone.pk).exists()


def test_the_import_keeps_them(county, write_csv):
    """An import retiring a stored system and giving a parcel a new owner, set-based: exact before the follow-up's
    recheck (new owners unchecked), and every flag known after it."""
    from powts.inventory.importing.service import import_inventory, run_follow_up

    rows = [["system_id", "parcel_id", "system_type", "owner_name", "owner_mailing_address", "status"],
            ["S-0", "P-S-0", "conventional", "Owner 0", GOOD, "abandoned"],
            ["S-9", "P-S-1", "mound", "New Owner", "1 Main St", "active"],
            ["N-1", "P-N-1", "mound", "Third Owner", "5 Elm St, Verona, WI 53593", "active"]]
    import_inventory(path=write_csv(rows), jurisdiction=county, today=dt.date(2026, 6, 1))
    assert kept()[System.objects.get(system_id="S-0").pk][0] is True
    assert_exact()
    run_follow_up(county)
    flags = checked_all()
    assert flags[System.objects.get(system_id="S-1").pk] == (False, True)  # sold to an owner without a ZIP code line
    assert flags[System.objects.get(system_id="N-1").pk] == (False, False)


def test_a_rebuild_puts_back_what_went_around_the_triggers(county):
    with connection.cursor() as cursor:
        for sql in standing_counts.drop_sql(connection.vendor):
            cursor.execute(sql)
        cursor.execute("UPDATE maintenance_schedule SET retired = %s, held = NULL", [True])
    standing_counts.install()
    standing_counts.rebuild()
    checked_all()


def test_the_page_checks_unchecked_addresses_itself(county):
    """Letters whose owner's address changed since its check are counted and listed as the send's preview does."""
    Schedule.objects.update(due_on=AS_OF - dt.timedelta(days=5), notice_on=AS_OF - dt.timedelta(days=35), stage="")
    Owner.objects.filter(name="Owner 0").update(mailing_address="")  # now unusable, not yet checked
    Owner.objects.filter(name="Owner 2").update(mailing_address=GOOD)  # now usable, not yet checked
    for _ in range(2):
        sent = preview(jurisdiction=county, as_of=AS_OF)
        found = notice_page.summary(jurisdiction=county, as_of=AS_OF)
        assert (found.counts, found.held_total) == (sent.counts, len(sent.held)) == ({"reminder": 3}, 2)
        letters = notice_page.Letters(jurisdiction=county, found=found)
        assert sorted(p.system_ref for p in letters[0:10]) == sorted(p.system_ref for p in sent.letters)
        held = notice_page.Letters(jurisdiction=county, found=found, held=True)
        assert sorted(p.system_ref for p in held[0:10]) == sorted(p.system_ref for p in sent.held) == ["S-0", "S-3"]
        notice_flags.recheck()  # and the same from the flags alone
    assert not found.unchecked


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's query plan")
def test_the_page_counts_from_the_index_alone(county):
    """The counts read no system, parcel or owner, and no letter on file: the notices index covers every column,
    and the stage answers which letters were sent for the due date (powts.maintenance.stages)."""
    from powts.maintenance.services import profile_for

    for kind, _cite, condition in notice_page.conditions(profile_for(county), AS_OF):
        sql, params = notice_page._due(county, condition).values("held").order_by().query.sql_with_params()
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
            plan = " | ".join(row[-1] for row in cursor.fetchall())
        assert "USING COVERING INDEX maint_sched_notices" in plan, plan
        assert "inventory_" not in plan, plan
        assert "maintenance_notice " not in plan and "maint_notice" not in plan, plan
