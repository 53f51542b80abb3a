"""PostgreSQL: the dashboard chart's count of a county's reports per day is written when a report's transaction
commits, not when its row is inserted (powts.maintenance.activity_counts.DEFERRED says why). The counts
themselves do not change. SQLite keeps its row triggers."""

from django.db import migrations


def forwards(apps, schema_editor):
    from powts.maintenance import activity_counts, standing_counts

    standing_counts.reinstall_on_postgresql(schema_editor, activity_counts.DEFERRED)


class Migration(migrations.Migration):

    dependencies = [
        ('maintenance', '0020_stages_caught_up_with_letters_sent'),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
