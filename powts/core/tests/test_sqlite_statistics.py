"""A migration's new index on a SQLite database with statistics is measured after the migrate run, so the
planner does not take an unmeasured index for a selective one (the systems list read a whole county and
sorted it for every page once the county/type/status index was added beside measured indexes)."""
import sqlite3

import pytest
from django.db import connection
from django.core.management.sql import emit_post_migrate_signal

from powts.core import sqlite_statistics

LIST_PAGE = "SELECT id FROM system WHERE county = 1 ORDER BY id DESC LIMIT 51"


def _county_with_systems(statistics: bool) -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE system (id INTEGER PRIMARY KEY, county INTEGER, type TEXT, status TEXT)")
    db.execute("CREATE INDEX system_county ON system (county)")
    db.executemany("INSERT INTO system VALUES (?, 1, ?, ?)",
                   [(i, ["conventional", "mound", "holding tank", "at-grade"][i % 4], ["active", "failing"][i % 2])
                    for i in range(1, 5001)])
    if statistics:
        db.execute("ANALYZE")
    db.execute("CREATE INDEX system_county_type_status ON system (county, type, status)")  # what the migration adds
    return db


def _plan(db) -> str:
    return " | ".join(row[3] for row in db.execute("EXPLAIN QUERY PLAN " + LIST_PAGE))


def test_an_index_added_beside_measured_ones_is_measured_and_the_list_walks_the_county_index_again():
    db = _county_with_systems(statistics=True)
    assert "TEMP B-TREE" in _plan(db)  # before: the unmeasured index looks selective, and the county is sorted
    assert sqlite_statistics.analyze_unmeasured_indexes(db.cursor()) == ["system_county_type_status"]
    assert "TEMP B-TREE" not in _plan(db) and "system_county " in _plan(db) + " "
    assert sqlite_statistics.analyze_unmeasured_indexes(db.cursor()) == []  # once measured, left alone


def test_a_database_without_statistics_is_left_without_them():
    db = _county_with_systems(statistics=False)
    assert sqlite_statistics.analyze_unmeasured_indexes(db.cursor()) == []
    assert db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'").fetchone()[0] == 0
    assert "TEMP B-TREE" not in _plan(db)


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's statistics")
def test_a_migrate_run_measures_the_indexes_it_added():
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE measured_probe (id INTEGER PRIMARY KEY, county INTEGER, status TEXT)")
        cursor.execute("CREATE INDEX measured_probe_county ON measured_probe (county)")
        cursor.executemany("INSERT INTO measured_probe (county, status) VALUES (1, %s)", [("active",), ("failing",)] * 50)
        cursor.execute("ANALYZE measured_probe")
        cursor.execute("CREATE INDEX added_by_a_migration ON measured_probe (status, id)")
    emit_post_migrate_signal(verbosity=0, interactive=False, db="default")  # what `migrate` sends at its end
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM sqlite_stat1 WHERE idx = 'added_by_a_migration'")
        assert cursor.fetchone()[0] == 1


def _measured_tables() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_stat1'")
        if not cursor.fetchone()[0]:
            return set()
        cursor.execute("SELECT DISTINCT tbl FROM sqlite_stat1")
        return {row[0] for row in cursor.fetchall()}


def _file(write_csv, n):
    return write_csv([["system_id", "parcel_id", "system_type", "owner_name"]]
                     + [[f"D-{i}", f"P-{i}", "Mound", f"Owner {i}"] for i in range(n)])


@pytest.mark.django_db
def test_the_nightly_sweep_measures_the_database(dane, write_csv, settings):
    from powts.inventory.importing.service import import_inventory
    from powts.jobs import kinds

    assert "database_statistics" in settings.POWTS_SWEEPS
    settings.POWTS_MEASURE_AFTER_IMPORT_ROWS = 10**9  # the import alone measures nothing here
    import_inventory(path=_file(write_csv, 5), jurisdiction=dane)
    if connection.vendor == "sqlite":
        assert "inventory_system" not in _measured_tables()
    done = kinds.get("sweep.database_statistics").runner(None, lambda **kw: None)
    if connection.vendor == "sqlite":
        assert "inventory_system" in _measured_tables() and done["counts"]["tables measured"] >= 1
    else:
        assert done == {"counts": {"database analyzed": 1}}


@pytest.mark.django_db
@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite keeps no statistics of its own")
@pytest.mark.parametrize(("rows", "measured"), [(4, False), (5, True)])  # both sides of the threshold of 5
def test_an_import_of_many_rows_measures_the_database_after_it(dane, write_csv, settings, rows, measured):
    from powts.inventory.importing.service import import_inventory

    settings.POWTS_MEASURE_AFTER_IMPORT_ROWS = 5
    result = import_inventory(path=_file(write_csv, rows), jurisdiction=dane)
    assert result.created == rows
    assert ("inventory_system" in _measured_tables()) is measured
