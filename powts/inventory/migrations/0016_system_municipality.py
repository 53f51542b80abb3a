"""Issue 10: the parcel's town copied onto each system (powts.inventory.system_town), with the index the list
filtered by town reads."""

from django.db import migrations, models


def forwards(apps, schema_editor):
    """Every system's copy made from its parcel (before the index is built), then the triggers that keep it; on
    SQLite these at the end of this `migrate` (system_town.after_migrate)."""
    from powts.inventory import system_town

    conn = schema_editor.connection
    with conn.cursor() as cursor:
        cursor.execute(system_town.SYNC[conn.vendor])
    if not system_town.deferred(conn):
        system_town.install(conn)


def backwards(apps, schema_editor):
    from powts.inventory import system_town

    with schema_editor.connection.cursor() as cursor:
        for sql in system_town.drop_sql(schema_editor.connection.vendor):
            cursor.execute(sql)


class Migration(migrations.Migration):

    dependencies = [
        ('inventory', '0015_list_filter_indexes'),
        ('jurisdictions', '0002_slug_help_text_without_repository_path'),
    ]

    operations = [
        migrations.AddField(
            model_name='system',
            name='municipality',
            field=models.CharField(blank=True, editable=False, max_length=100, null=True),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.AddIndex(
            model_name='system',
            index=models.Index(fields=['jurisdiction', 'municipality', 'system_type', 'system_id'], name='system_county_town_type'),
        ),
    ]
