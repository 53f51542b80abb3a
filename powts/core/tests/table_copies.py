"""Rows enough for PostgreSQL's planner to choose an index for a reason: on a test table of a few rows every index
costs the same, and which one the planner walks then changes with the table's size on disk from run to run."""
from django.db import connection


def copies(table: str, n: int, rows: str = "", **values: str) -> None:
    """n copies of the table's first row, then ANALYZE. The named columns are SQL expressions over g (1..n) and
    over `rows`, a FROM item that gives g instead (so that copies can point at other copied rows)."""
    rows = rows or f"(WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < {n}) SELECT g FROM s) gs"
    with connection.cursor() as cursor:
        table_columns = connection.introspection.get_table_description(cursor, table)
        key = connection.introspection.get_primary_key_column(cursor, table)
        columns = [c.name for c in table_columns if c.name != key or key in values]
        named = ", ".join(f'"{c}"' for c in columns)
        chosen = ", ".join(values.get(c, f'first."{c}"') for c in columns)
        cursor.execute(f'INSERT INTO "{table}" ({named}) SELECT {chosen} '
                       f'FROM (SELECT * FROM "{table}" ORDER BY "{key}" LIMIT 1) first, {rows} LIMIT {n}')
        cursor.execute(f'ANALYZE "{table}"')
