"""The report path's fixed statements are prepared once per connection on PostgreSQL
(powts.core.server_prepared). The cursor must behave as Django's: the same errors, the same values read
(time zones), the same query log; and keep working after a rollback, when psycopg forgets its statements."""
import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from powts.audit.models import AuditEvent
from powts.core import server_prepared
from powts.core.prepared import Prepared
from powts.jurisdictions.models import Jurisdiction

pytestmark = pytest.mark.django_db

INSERT = "INSERT INTO jurisdictions_jurisdiction (slug, name, profile_slug) VALUES (%s, %s, %s)"


def _prepared_statements() -> list[str]:
    with connection.cursor() as c:
        c.execute("SELECT statement FROM pg_prepared_statements WHERE from_sql = false ORDER BY statement")
        return [row[0] for row in c.fetchall()]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's prepared statements")
def test_a_statement_is_prepared_once_and_run_again_with_new_values():
    for n in range(3):
        with server_prepared.cursor() as c:
            c.execute("SELECT slug FROM jurisdictions_jurisdiction WHERE slug = %s AND name <> %s", [f"x{n}", "y"])
            assert c.fetchall() == []
    assert len([s for s in _prepared_statements() if "WHERE slug = $1 AND name <> $2" in s]) == 1


def test_a_refused_row_is_djangos_integrity_error_and_the_statement_runs_again_after_the_rollback(dane):
    """The duplicate report is recognised by catching django.db.IntegrityError; its rollback makes psycopg
    forget every prepared statement (and tell the server), after which they are prepared again."""
    with pytest.raises(IntegrityError), transaction.atomic(), server_prepared.cursor() as c:
        c.execute(INSERT, ["dane", "Dane again", "dane"])
    with server_prepared.cursor() as c:
        c.execute(INSERT, ["iowa", "Iowa County", "dane"])
        c.execute("SELECT name FROM jurisdictions_jurisdiction WHERE slug = %s", ["iowa"])
        assert c.fetchall() == [("Iowa County",)]
    assert Jurisdiction.objects.filter(slug__in=["dane", "iowa"]).count() == 2


def test_times_read_through_it_are_the_orms(dane):
    event = AuditEvent.objects.create(at=timezone.now(), actor_label="t", channel="api", action="a", verb="create",
                                      content_type=ContentType.objects.get_for_model(dane), object_id=dane.pk, object_repr="x")
    [read] = Prepared(lambda pk: AuditEvent.objects.filter(pk=pk))(event.pk)
    by_orm = AuditEvent.objects.get(pk=event.pk)
    assert read.at == by_orm.at == event.at and read.at.utcoffset() == by_orm.at.utcoffset()
    with server_prepared.cursor() as c, connection.cursor() as django_cursor:  # unconverted, as Django's cursor reads it
        for cur in (c, django_cursor):
            cur.execute("SELECT at FROM audit_auditevent WHERE id = %s", [event.pk])
        raw, by_django = c.fetchone()[0], django_cursor.fetchone()[0]
        assert raw == by_django and type(raw) is type(by_django) and getattr(raw, "tzinfo", None) == getattr(by_django, "tzinfo", None)


def test_the_query_log_shows_each_statement_with_its_values(dane):
    with CaptureQueriesContext(connection) as ctx, server_prepared.cursor() as c:
        c.execute("SELECT name FROM jurisdictions_jurisdiction WHERE slug = %s", ["dane"])
        assert c.fetchall() == [(dane.name,)]
    assert ctx.captured_queries[-1]["sql"] == "SELECT name FROM jurisdictions_jurisdiction WHERE slug = 'dane'"


def test_with_preparing_turned_off_it_is_djangos_own_cursor(dane, settings):
    """POWTS_PG_PREPARE=0 (a pooler that drops prepared statements): the statements go as Django sends them."""
    settings.POWTS_PG_PREPARE = False
    before = _prepared_statements() if connection.vendor == "postgresql" else []
    with server_prepared.cursor() as c:
        c.execute("SELECT name FROM jurisdictions_jurisdiction WHERE slug = %s AND name <> %s", ["dane", "unprepared"])
        assert c.fetchall() == [(dane.name,)]
        assert type(c.cursor) is type(connection.cursor().cursor)
    if connection.vendor == "postgresql":
        assert _prepared_statements() == before
