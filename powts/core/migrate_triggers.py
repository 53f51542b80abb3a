"""Kept triggers taken off around SQLite's `migrate` and put back after it.

SQLite checks every trigger when a migration rebuilds a table (create a copy, drop, rename): a trigger that
reads another table then fails the rename ("no such table"), and the rebuilt table's own triggers are lost.
So on SQLite `migrate` takes a module's kept triggers off before its first migration and puts them back after
its last; putting them back also makes up, set-based, for what the migrations in between wrote. PostgreSQL
keeps its triggers through a migration.
"""
from __future__ import annotations

from collections.abc import Callable


class OffDuringMigrate:
    def __init__(self, drop_sql: Callable[[str], list[str]], put_back: Callable) -> None:
        self._drop_sql, self._put_back = drop_sql, put_back
        self._migrating: set[str] = set()

    def deferred(self, using_connection) -> bool:
        """Inside `migrate` on SQLite: the triggers wait for the end of the run (`after_migrate`)."""
        return using_connection.alias in self._migrating

    def before_migrate(self, sender, using="default", plan=None, **kwargs) -> None:
        from django.db import connections

        conn = connections[using]
        if conn.vendor != "sqlite" or not plan:
            return
        self._migrating.add(using)
        with conn.cursor() as cursor:
            for sql in self._drop_sql(conn.vendor):
                cursor.execute(sql)

    def after_migrate(self, sender, using="default", **kwargs) -> None:
        from django.db import connections

        if using not in self._migrating:
            return
        self._migrating.discard(using)
        self._put_back(connections[using])
