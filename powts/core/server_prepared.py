"""A cursor whose statements PostgreSQL parses and plans once per connection (the database's CPU per report).

Django's psycopg 3 cursors bind values on the client: each statement reaches PostgreSQL as new text,
which it parses, analyses and plans again: about half of its CPU for a report through the API
(bench/cpu_per_report.py).
The hot path's statements (powts.core.prepared, powts.core.prepared_writes) are fixed SQL with new
values, so on PostgreSQL they go through a server-binding cursor that prepares each one the first time
(psycopg names and keeps them per connection, and forgets them all after a ROLLBACK, when it also tells
the server to). Everything else keeps Django's client-side binding, so no other query changes. The
cursor is Django's wrapper around it: the same error mapping (IntegrityError), execute wrappers and
query logging. Other databases get Django's cursor, as does PostgreSQL with POWTS_PG_PREPARE=0.
"""
from __future__ import annotations

from django.conf import settings
from django.db import connections
from django.db.backends.postgresql.psycopg_any import is_psycopg3

if is_psycopg3:
    from django.db.backends.postgresql.base import TIMESTAMPTZ_OID, ServerBindingCursor
    from django.db.backends.postgresql.psycopg_any import register_tzloader
    from psycopg.pq import Format

    from psycopg import ClientCursor

    class _Shown:
        """What Django's query log reads of a cursor (`_query.query`): the statement with its values, as
        client-side binding would have sent it. Only when queries are logged (tests, DEBUG)."""

        def __init__(self, connection, sql, params):
            self.query = ClientCursor(connection).mogrify(sql, params).encode()

    class _Preparing(ServerBindingCursor):
        shown = False

        def execute(self, query, params=None, *, prepare=None, binary=None):
            super().execute(query, params, prepare=True, binary=binary)
            if self.shown:
                self._query = _Shown(self.connection, query, params)
            return self
else:  # pragma: no cover - psycopg 2 has no protocol-level prepared statements here
    _Preparing = None


def cursor(using: str = "default"):
    """connections[using].cursor(), preparing its statements on PostgreSQL with psycopg 3."""
    connection = connections[using]
    if connection.vendor != "postgresql" or _Preparing is None or not settings.POWTS_PG_PREPARE:
        return connection.cursor()
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    raw = connection.connection
    if raw.prepare_threshold is None:  # Django's default turns psycopg's preparing off, even when asked
        raw.prepare_threshold = _NEVER_BY_COUNT
    with connection.wrap_database_errors:
        server = _Preparing(raw)
        server.shown = connection.queries_logged
        # as Django's create_cursor(): the connection's time zone for the timestamps read, if it differs
        if connection.timezone != raw.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT).timezone:
            register_tzloader(connection.timezone, server)
        return connection._prepare_cursor(server)  # Django 5.2's own wrapping (debug or not), as cursor() does


# psycopg also prepares any statement run this many times on a server-binding cursor; Django's own
# cursors bind on the client and are never prepared, so only this module's explicit requests count.
_NEVER_BY_COUNT = 2**31 - 1
