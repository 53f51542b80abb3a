"""PostgreSQL: the county's number of systems kept once per statement that inserts or deletes systems, over
its rows, instead of once per row (powts.maintenance.standing_counts.PER_STATEMENT says why). The counts
themselves do not change. SQLite keeps its row triggers."""

from django.db import migrations


def forwards(apps, schema_editor):
    from powts.maintenance import standing_counts

    standing_counts.reinstall_on_postgresql(schema_editor, standing_counts.PER_STATEMENT)


class Migration(migrations.Migration):

    dependencies = [
        ('maintenance', '0016_notice_flags'),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
