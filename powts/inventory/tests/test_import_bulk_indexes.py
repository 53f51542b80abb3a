"""Import speed: a file that fills the parcels and systems tables has their secondary indexes built
after the insert, inside the import's transaction, and leaves every index and its statistics as it found them.

SQLite only (PostgreSQL keeps its indexes during the insert). MIN_ROWS is lowered so a file of a few rows
takes the bulk path that a county's first file of 10,000 rows or more takes.
"""
import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from powts.inventory.importing import bulk_indexes
from powts.inventory.importing.bulk_indexes import rebuilt_after
from powts.inventory.importing.service import import_inventory
from powts.inventory.tests import test_import_same_state as same_state

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's bulk path")]
TABLES = ("inventory_parcel", "inventory_system")


def schema_and_statistics():
    with connection.cursor() as cursor:
        cursor.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN (%s, %s) ORDER BY name",
                       list(TABLES))
        indexes = cursor.fetchall()
        cursor.execute("SELECT tbl, idx, stat FROM sqlite_stat1 WHERE tbl IN (%s, %s) ORDER BY idx", list(TABLES))
        return indexes, cursor.fetchall()


@pytest.fixture
def measured(dane):
    """Statistics for every index of the two tables, as a database measured before the import has them."""
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
        cursor.execute("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND tbl_name IN (%s, %s)",
                       list(TABLES))
        for name, table in cursor.fetchall():
            cursor.execute("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (%s, %s, '1000 10')", [table, name])
    return dane


def test_a_first_file_builds_the_indexes_after_the_insert_and_leaves_indexes_and_statistics_as_they_were(
        measured, write_csv, monkeypatch):
    monkeypatch.setattr(bulk_indexes, "MIN_ROWS", 1)
    before = schema_and_statistics()
    assert before[1], "the fixture measured the indexes"
    rows = [same_state.HEADER] + [same_state.row(f"S-{i}", f"SP-{i}", owner=f"Owner {i}", municipality=f"Town {i % 3}",
                                                 latitude="43.1", longitude=f"-89.{i}") for i in range(20)]
    with CaptureQueriesContext(connection) as queries:
        result = import_inventory(path=write_csv(rows), jurisdiction=measured, today=same_state.TODAY, follow_up=False)
    assert result.created == 20
    statements = [" ".join(q["sql"].split()) for q in queries.captured_queries]
    insert = next(i for i, s in enumerate(statements) if s.startswith("INSERT INTO inventory_parcel "))
    assert any(s.startswith('DROP INDEX "parcel_lon_lat"') for s in statements[:insert])
    assert any(s.startswith('CREATE INDEX "parcel_lon_lat"') for s in statements[insert:])
    assert schema_and_statistics() == before
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA integrity_check")
        assert cursor.fetchall() == [("ok",)]


def test_the_bulk_path_leaves_what_the_per_row_import_left(dane, write_csv, monkeypatch):
    monkeypatch.setattr(bulk_indexes, "MIN_ROWS", 1)
    same_state.test_the_set_based_import_leaves_what_the_per_row_import_left(dane, write_csv)


def test_an_error_during_the_insert_rolls_the_dropped_indexes_back(measured, monkeypatch):
    monkeypatch.setattr(bulk_indexes, "MIN_ROWS", 1)
    before = schema_and_statistics()
    with pytest.raises(RuntimeError), transaction.atomic(), connection.cursor() as cursor:
        with rebuilt_after(cursor, "inventory_parcel", 10):
            cursor.execute("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'inventory_parcel' "
                           "AND sql IS NOT NULL")
            assert cursor.fetchone()[0] == 0
            raise RuntimeError("the import failed half-way")
    assert schema_and_statistics() == before


def test_a_table_larger_than_half_the_insert_keeps_its_indexes(measured, monkeypatch):
    monkeypatch.setattr(bulk_indexes, "MIN_ROWS", 1)
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO inventory_parcel (jurisdiction_id, parcel_number, legal_description, site_address, "
                       "municipality, sewered, pending, site_zip) VALUES (%s, 'X-1', '', '', '', 0, 0, '')", [measured.pk])
        with CaptureQueriesContext(connection) as queries, rebuilt_after(cursor, "inventory_parcel", 1):
            pass
    assert not [q for q in queries.captured_queries if "DROP INDEX" in q["sql"]]


# -- the rows kept on disk and the search index ---------------------------------------------------------------

def test_a_first_file_kept_on_disk_is_staged_as_kept_without_making_rows_of_it_again(dane, write_csv, monkeypatch):
    """The spool keeps the staging table's values: a county with nothing to compare with stages them as they are."""
    import functools

    from powts.inventory.importing import service, spool

    def no_rows(values):
        raise AssertionError("a first file's spooled rows were made into row objects again")

    monkeypatch.setattr(service, "CHUNK", 2)
    monkeypatch.setattr(service, "RowSpool", functools.partial(spool.RowSpool, keep=2))
    monkeypatch.setattr(spool, "_unpack", no_rows)
    rows = [same_state.HEADER] + [same_state.row(f"S-{i}", f"SP-{i}", owner=f"Owner {i}", installed_on="1999-06",
                                                 latitude="43.0731", legacy_code=f"L{i}") for i in range(6)]
    result = import_inventory(path=write_csv(rows), jurisdiction=dane, today=same_state.TODAY, follow_up=False)
    assert result.created == 6
    from powts.inventory.models import System

    stored = System.objects.select_related("parcel").get(system_id="S-5")
    assert (str(stored.installed_on), stored.installed_on_precision, str(stored.parcel.latitude), stored.extra) == (
        "1999-06-30", "month", "43.073100", {"legacy_code": "L5"})


def test_the_search_index_is_filled_in_large_segments_and_its_setting_put_back(dane, write_csv):
    from powts.inventory.models import System
    from powts.inventory.search import search

    def setting():
        with connection.cursor() as cursor:
            cursor.execute("SELECT k, v FROM inventory_system_fts_config WHERE k = 'hashsize'")
            return cursor.fetchall()

    before = setting()
    rows = [same_state.HEADER] + [same_state.row(f"S-{i}", f"SP-{i}", owner=f"Owner {i}") for i in range(3)]
    with CaptureQueriesContext(connection) as queries:
        import_inventory(path=write_csv(rows), jurisdiction=dane, today=same_state.TODAY, follow_up=False)
    statements = [q["sql"] for q in queries.captured_queries]
    fill = next(i for i, s in enumerate(statements) if s.startswith("INSERT INTO inventory_system_fts(rowid"))
    assert "'hashsize'" in statements[fill - 1] and "'hashsize'" in statements[fill + 1]
    assert setting() == before
    assert list(search(System.objects.all(), "owner 2").values_list("system_id", flat=True)) == ["S-2"]
