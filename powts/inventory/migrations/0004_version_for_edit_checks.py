"""An integer `version` on systems, parcels and owners: an edit names the version its editor saw
(powts.inventory.versions), so two people editing one record never silently overwrite each other.

On SQLite, Django would add a NOT NULL column by copying the whole table (a million systems) and the copy
would lose the search index's triggers (0002_search_index); SQLite adds a column with a constant default
in place, so that is done directly. Other databases use Django's own ADD COLUMN.
"""
import importlib

from django.db import migrations, models

TABLES = {"owner": "inventory_owner", "parcel": "inventory_parcel", "system": "inventory_system"}


def field():
    return models.PositiveIntegerField(db_default=1, default=1, editable=False)


def _field(model):
    new = field()
    new.set_attributes_from_name("version")
    new.model = model  # the default's SQL is compiled against it
    return new


def forwards(apps, schema_editor):
    for model_name, table in TABLES.items():
        if schema_editor.connection.vendor == "sqlite":
            schema_editor.execute(f'ALTER TABLE "{table}" ADD COLUMN "version" integer unsigned NOT NULL DEFAULT 1 '
                                  'CHECK ("version" >= 0)')
        else:
            model = apps.get_model("inventory", model_name)
            schema_editor.add_field(model, _field(model))


def backwards(apps, schema_editor):
    # SQLite drops the column by copying the table, which loses the search index's triggers: they are
    # taken down first and put back (with the index rebuilt) after.
    search_index = importlib.import_module("powts.inventory.migrations.0002_search_index")
    if schema_editor.connection.vendor == "sqlite":
        search_index.backwards(apps, schema_editor)
    for model_name in TABLES:
        model = apps.get_model("inventory", model_name)
        schema_editor.remove_field(model, _field(model))
    if schema_editor.connection.vendor == "sqlite":
        search_index.forwards(apps, schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ('inventory', '0003_import_follow_up_pending'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.AddField(model_name=name, name="version", field=field()) for name in TABLES],
            database_operations=[migrations.RunPython(forwards, backwards)],
        ),
    ]
