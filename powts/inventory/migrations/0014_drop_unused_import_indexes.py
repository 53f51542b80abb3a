"""Issue 13, item 3: indexes no query reads, dropped so the import writes fewer index entries per row.

PostgreSQL only (SQLite never had them): Django adds a `varchar_pattern_ops` copy of every indexed text column
for `LIKE 'x%'`; nothing asks status, type, municipality or owner name for a prefix (the search has its own
trigram index), so those copies only cost writes. A parcel's single-column county index is covered by the
unique (county, parcel number) index, whose first column is the county; PostgreSQL's single-column index
gives no id order for its duplicates, so it answers nothing the unique one cannot. (SQLite keeps its county
indexes: there an index's duplicates are in id order, which the lists and search read.)
"""
from django.db import migrations

DROPPED = {
    "inventory_system_status_1471429b_like": 'ON inventory_system ("status" varchar_pattern_ops)',
    "inventory_system_system_type_1f48992e_like": 'ON inventory_system ("system_type" varchar_pattern_ops)',
    "inventory_parcel_municipality_d386c8e4_like": 'ON inventory_parcel ("municipality" varchar_pattern_ops)',
    "inventory_owner_name_27598e30_like": 'ON inventory_owner ("name" varchar_pattern_ops)',
    "inventory_parcel_jurisdiction_id_30adeb16": 'ON inventory_parcel ("jurisdiction_id")',
}


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for name in DROPPED:
            schema_editor.execute(f'DROP INDEX IF EXISTS "{name}"')


def restore(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for name, target in DROPPED.items():
            schema_editor.execute(f'CREATE INDEX IF NOT EXISTS "{name}" {target}')


class Migration(migrations.Migration):

    dependencies = [
        ("inventory", "0013_system_county_type_status_index"),
    ]

    operations = [migrations.RunPython(drop, restore, elidable=False)]
