"""Fast set-based writes for imports: raw executemany with ids assigned up front.

Django's bulk_create builds a model instance per row; at a million rows that cost dominates, so
imports insert plain tuples. Ids are taken in advance so child rows can point at their parents.
Both run inside the caller's transaction; on SQLite the IMMEDIATE transaction holds the write lock,
so max(id) cannot move under us.
"""
from __future__ import annotations

from django.db import connection


def allocate_ids(model, count: int) -> list[int]:
    if count <= 0:
        return []
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)", [table, count]
            )
            return [row[0] for row in cursor.fetchall()]
        cursor.execute(f'SELECT COALESCE(MAX(id), 0) FROM "{table}"')
        start = cursor.fetchone()[0] + 1
        return list(range(start, start + count))


def insert_rows(model, columns: list[str], rows: list[tuple]) -> None:
    """INSERT the tuples into `model`'s table; `columns` are database column names."""
    if not rows:
        return
    qn = connection.ops.quote_name
    sql = (
        f"INSERT INTO {qn(model._meta.db_table)} ({', '.join(qn(c) for c in columns)}) "
        f"VALUES ({', '.join(['%s'] * len(columns))})"
    )
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)
