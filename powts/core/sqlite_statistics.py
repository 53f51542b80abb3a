"""The database's statistics, which its query planner reads: measured after a large import and every night
(settings.POWTS_SWEEPS), and for an index a migration adds to a SQLite database that already has them.

SQLite keeps no statistics of its own (PostgreSQL's autovacuum does): without them it cannot tell that a filter
on the county keeps every row of a county-sized table, and sorted pages of the systems list read and sorted
the whole county (1.6 s at 1,000,000 systems) instead of walking the index of the sort column.

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


def measure(using: str = "default") -> dict:
    """Measure every table: ANALYZE. On SQLite every index is read whole: 7.9 s at 1,000,000 systems. A sampled
    ANALYZE (analysis_limit 1000: 0.2 s) guessed about 1,000 systems a county where there were 1,000,000, and the
    sorted list went on sorting the whole county."""
    from django.db import connections

    connection = connections[using]
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
        if connection.vendor == "sqlite":
            cursor.execute("SELECT count(DISTINCT tbl) FROM sqlite_stat1")
            return {"counts": {"tables measured": cursor.fetchone()[0]}}
    return {"counts": {"database analyzed": 1}}


def after_migrate(using="default", **kwargs) -> None:
    from django.db import connections

    connection = connections[using]
    if connection.vendor != "sqlite":
        return  # PostgreSQL measures a new index itself (its size, and the columns' statistics it already has)
    with connection.cursor() as cursor:
        analyze_unmeasured_indexes(cursor)
