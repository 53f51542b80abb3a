"""PostgreSQL: the dashboard's counts kept once per statement that inserts or deletes schedules (a sync) or
notices (a send), over its rows, instead of once per row (powts.maintenance.standing_counts.PER_STATEMENT
says why). The counts themselves do not change. SQLite keeps its row triggers."""

from django.db import migrations

NAMES = ("maint_standing_sched_ins", "maint_standing_sched_del",
         "maint_standing_activity_notice_ins", "maint_standing_activity_notice_del")


def forwards(apps, schema_editor):
    from powts.maintenance import standing_counts

    standing_counts.reinstall_on_postgresql(schema_editor, NAMES)


class Migration(migrations.Migration):

    dependencies = [
        ('maintenance', '0017_system_count_per_statement'),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
