"""The report API's writes have their SQL compiled once (powts.core.prepared_writes). They
must write what save() and bulk_create() write, set what those set on the objects, raise what they raise,
and leave to the ORM anything they cannot do the same way."""
import datetime as dt
from unittest import mock

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import signals
from django.db.models.sql.compiler import SQLInsertCompiler, SQLUpdateCompiler
from django.utils import timezone

from powts.accounts.models import License
from powts.audit.models import AuditEvent
from powts.core import prepared_writes
from powts.inventory.services import system_create
from powts.inventory.models import System
from powts.maintenance.models import Report, Schedule
from powts.maintenance.services import _ROW_FIELDS, schedule_refresh

pytestmark = pytest.mark.django_db


def _event(unit, n):
    return AuditEvent(at=timezone.now(), actor_label="test", channel="api", action=f"action {n}", verb="create",
                      content_type=ContentType.objects.get_for_model(unit), object_id=unit.pk, object_repr=str(unit),
                      changes={"n": [None, n], "on": [None, "2026-01-05"]})


def _row(event):
    return {f.attname: getattr(event, f.attname) for f in AuditEvent._meta.concrete_fields if f.name != "id"}


def test_an_insert_writes_what_save_writes_and_is_compiled_once(dane):
    by_orm, ours, again = _event(dane, 1), _event(dane, 2), _event(dane, 3)
    by_orm.save()
    prepared_writes.insert([ours])
    with mock.patch.object(SQLInsertCompiler, "as_sql", autospec=True, side_effect=SQLInsertCompiler.as_sql) as compiled:
        prepared_writes.insert([again])
    assert compiled.call_count == 0
    assert ours.pk > by_orm.pk and again.pk == ours.pk + 1
    assert not ours._state.adding and ours._state.db == "default"
    for event in (by_orm, ours, again):
        assert _row(AuditEvent.objects.get(pk=event.pk)) == _row(event)
    assert {k: v for k, v in _row(ours).items() if k not in ("at", "action", "changes")} == \
           {k: v for k, v in _row(by_orm).items() if k not in ("at", "action", "changes")}


def test_several_rows_go_in_one_insert_with_their_ids_in_order(dane):
    events = [_event(dane, n) for n in range(3)]
    prepared_writes.insert(events)
    assert [AuditEvent.objects.get(pk=e.pk).action for e in events] == ["action 0", "action 1", "action 2"]
    assert events[0].pk < events[1].pk < events[2].pk


def test_several_rows_are_compiled_once_and_write_what_bulk_create_writes(dane):
    """An INSERT of several rows is compiled once too (before, it went through bulk_create on every report:
    three audit rows)."""
    by_orm = [_event(dane, n) for n in range(3)]
    AuditEvent.objects.bulk_create(by_orm)
    prepared_writes.insert([_event(dane, n) for n in range(3)])
    again = [_event(dane, n) for n in range(3)]
    again[1].actor_label, again[2].changes = "", {}  # an empty text and an empty object among the arrays
    with mock.patch.object(SQLInsertCompiler, "as_sql", autospec=True, side_effect=SQLInsertCompiler.as_sql) as compiled:
        prepared_writes.insert(again)
    assert compiled.call_count == 0
    assert again[0].pk < again[1].pk < again[2].pk and not again[2]._state.adding
    for event in (*by_orm, *again):
        assert _row(AuditEvent.objects.get(pk=event.pk)) == _row(event)


def test_a_row_refused_by_a_constraint_raises_integrity_error_and_a_database_default_goes_through_save(make_user):
    """License has a database default (version): save() reads it back, so the ORM writes it."""
    user = make_user("perry", "pumper")
    first = License(kind="septage_operator", number="SSO-9", holder_name="P", user=user)
    prepared_writes.insert([first])
    assert License.objects.get(pk=first.pk).version == 1 and prepared_writes._plans[("insert", License, 1, "default")] is None
    with pytest.raises(IntegrityError), transaction.atomic():
        prepared_writes.insert([License(kind="septage_operator", number="SSO-9", holder_name="P again")])


def test_a_model_with_a_save_receiver_goes_through_save(dane):
    seen = []

    def receiver(sender, instance, **kw):
        seen.append(instance.action)

    signals.post_save.connect(receiver, sender=AuditEvent)
    try:
        prepared_writes.insert([_event(dane, 7)])
    finally:
        signals.post_save.disconnect(receiver, sender=AuditEvent)
    assert seen == ["action 7"]


def _schedule(dane):
    system = system_create(jurisdiction=dane, system_id="DA-1", parcel_number="P-1", system_type="conventional", owner_name="Olive",
                           owner_mailing_address="1 Main St", site_address="1 Lake Rd", municipality="Town of Verona",
                           installed_on=dt.date(2020, 6, 1))
    return schedule_refresh(system=system)


def test_an_update_writes_every_field_named_and_is_compiled_once_for_each_set_of_nulls(dane):
    row = Schedule.objects.get(pk=_schedule(dane).pk)
    before = row.updated_at
    row.stage, row.stage_on, row.due_extended_from = "first_notice", dt.date(2026, 1, 2), None
    prepared_writes.update(row, _ROW_FIELDS)
    stored = Schedule.objects.get(pk=row.pk)
    assert (stored.stage, stored.stage_on, stored.due_extended_from) == ("first_notice", dt.date(2026, 1, 2), None)
    assert stored.updated_at == row.updated_at > before  # auto_now, as save() sets it
    row.stage = "reminder"
    with mock.patch.object(SQLUpdateCompiler, "as_sql", autospec=True, side_effect=SQLUpdateCompiler.as_sql) as compiled:
        prepared_writes.update(row, _ROW_FIELDS)
    assert compiled.call_count == 0 and Schedule.objects.get(pk=row.pk).stage == "reminder"
    row.stage_on = None  # another field NULL: the compiler writes "= NULL", so another statement
    prepared_writes.update(row, _ROW_FIELDS)
    assert Schedule.objects.get(pk=row.pk).stage_on is None
    row.failure_reported = True
    prepared_writes.update(row, ("failure_reported",))
    assert Schedule.objects.filter(pk=row.pk, failure_reported=True, stage="reminder").exists()


def test_an_update_of_a_row_no_longer_there_is_an_error_as_with_save(dane):
    row = Schedule.objects.get(pk=_schedule(dane).pk)
    prepared_writes.update(row, ("stage",))  # compiled
    Schedule.objects.filter(pk=row.pk).delete()
    with pytest.raises(DatabaseError, match="did not affect any rows"), transaction.atomic():
        prepared_writes.update(row, ("stage",))


def _sample(python_type):
    return {str: "Dane WWTP", bool: True, int: 1987, type(None): None}[python_type]


@pytest.mark.parametrize("model", [AuditEvent, Schedule, Report, System, License])
def test_a_value_sent_as_it_is_is_what_the_field_would_send(model):
    """The short cut skips a field's conversion only where Django's own conversion gives the value back unchanged."""
    from django.db import connection

    skipped = 0
    for field in model._meta.local_concrete_fields:
        for python_type in prepared_writes._as_is(field, connection):
            value = _sample(python_type)
            assert field.get_db_prep_save(value, connection=connection) is value, (field, python_type)
            skipped += 1
    assert skipped, "no field of a hot-path model takes the short cut"


def test_a_field_class_with_its_own_conversion_is_converted_by_it():
    from django.db import connection
    from django.db.models import CharField, IntegerField

    class Upper(CharField):
        def to_python(self, value):
            return value.upper() if isinstance(value, str) else value

    class Cents(IntegerField):
        def get_prep_value(self, value):
            return None if value is None else int(value * 100)

    assert prepared_writes._as_is(Upper(max_length=5), connection) == ()
    assert prepared_writes._as_is(Cents(), connection) == ()
    assert prepared_writes._as_is(CharField(max_length=5), connection) == (str, type(None))


def test_several_rows_are_sent_row_by_row_not_one_array_per_column(dane):
    """Django 5.2 inserts several rows on PostgreSQL as one array per column (UNNEST), which psycopg builds in
    Python: a report's three audit rows cost 520-640 µs to send that way, 220-320 µs row by row. A prepared
    statement is planned once per connection, so UNNEST's saving (planning a long VALUES list) is not needed."""
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as seen:
        prepared_writes.insert([_event(dane, n) for n in range(3)])
    (sql,) = [q["sql"] for q in seen.captured_queries if "audit_auditevent" in q["sql"]]
    assert "UNNEST" not in sql.upper() and sql.count("VALUES") == 1 and sql.count("), (") == 2
