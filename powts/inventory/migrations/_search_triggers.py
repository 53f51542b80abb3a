"""The SQLite search triggers (0002_search_index) again, for migrations that rebuild inventory_system.

SQLite's ALTER TABLE cannot add a column with a default, so Django copies the table into a new one and
the triggers of the old one are gone; a migration that adds such a column to System calls `recreate`.
"""
import importlib

_TRIGGERS = ("inventory_system_fts_ai", "inventory_system_fts_ad", "inventory_system_fts_au")


def recreate(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    index = importlib.import_module("powts.inventory.migrations.0002_search_index")
    for name in _TRIGGERS:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {name}")
    for sql in index.SQLITE:
        if sql.lstrip().startswith("CREATE TRIGGER"):
            schema_editor.execute(sql)
    schema_editor.execute("INSERT INTO inventory_system_fts(inventory_system_fts) VALUES ('rebuild')")
