"""A report's audit rows are written by one INSERT (audit.services.written_together),
with every guarantee of one INSERT each: each row written, in order, none when the block fails."""
import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from powts.audit.models import AuditEvent
from powts.audit.services import audit_create, audit_update, snapshot, written_together
from powts.jurisdictions.services import jurisdiction_ensure

pytestmark = pytest.mark.django_db


def _unit(slug):
    return jurisdiction_ensure(slug=slug)


def test_the_rows_of_a_block_are_one_insert_in_the_order_they_were_made():
    a = b = _unit("dane")
    with CaptureQueriesContext(connection) as ctx, transaction.atomic(), written_together():
        audit_create(a, action="first")
        before = snapshot(b, ["name"])
        b.name = "Dane renamed"
        audit_update(b, before=before, action="second")
        audit_create(b, action="third")
        assert not AuditEvent.objects.filter(action__in=["first", "second", "third"]).exists()  # held until the end
    inserts = [q["sql"] for q in ctx.captured_queries if q["sql"].startswith('INSERT INTO "audit_auditevent"')]
    assert len(inserts) == 1
    assert list(AuditEvent.objects.order_by("id").values_list("action", flat=True))[-3:] == ["first", "second", "third"]


def test_a_block_that_fails_writes_no_audit_row():
    a = _unit("dane")
    events = AuditEvent.objects.count()
    with pytest.raises(RuntimeError), written_together():
        audit_create(a, action="lost")
        raise RuntimeError("the change failed")
    assert AuditEvent.objects.count() == events


def test_a_nested_block_leaves_the_writing_to_the_outer_one_and_outside_a_block_each_row_is_written_at_once():
    a = _unit("dane")
    with written_together():
        with written_together():
            audit_create(a, action="inner")
        assert not AuditEvent.objects.filter(action="inner").exists()
    assert AuditEvent.objects.filter(action="inner").count() == 1
    event = audit_create(a, action="alone")
    assert event.pk is not None and AuditEvent.objects.filter(action="alone").count() == 1
