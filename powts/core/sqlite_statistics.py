"""Statistics for an index a migration adds to a SQLite database that already has statistics.

SQLite plans with sqlite_stat1 when it exists. An index missing from it gets SQLite's default guess (a few
rows per key), so it looks far more selective than the indexes that were measured: the county/type/status
index on systems, added without statistics beside measured ones, made SQLite read a whole county and sort it
for every page of the systems list (1.7 s at 1,000,000 systems instead of a walk of the county index in
order). A database with no statistics at all is left as it is: there every index gets the same guess.
"""
from __future__ import annotations

UNMEASURED = """
    SELECT i.name FROM sqlite_master AS i
    WHERE i.type = 'index'
      AND i.tbl_name IN (SELECT tbl FROM sqlite_stat1)
      AND i.name NOT IN (SELECT idx FROM sqlite_stat1 WHERE idx IS NOT NULL)
"""


def analyze_unmeasured_indexes(cursor) -> list[str]:
    """ANALYZE each index of a measured table that has no statistics yet; return their names."""
    cursor.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'")
    if cursor.fetchone() is None:
        return []
    cursor.execute(UNMEASURED)
    names = [row[0] for row in cursor.fetchall()]
    for name in names:
        cursor.execute(f'ANALYZE "{name}"')
    return names


def after_migrate(using="default", **kwargs) -> None:
    from django.db import connections

    connection = connections[using]
    if connection.vendor != "sqlite":
        return  # PostgreSQL measures a new index itself (its size, and the columns' statistics it already has)
    with connection.cursor() as cursor:
        analyze_unmeasured_indexes(cursor)
