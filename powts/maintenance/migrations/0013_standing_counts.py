"""The dashboard's standing counts kept by the database (powts.maintenance.standing_counts): the histogram
table and each county's number of systems, their triggers on schedules, systems and parcels (SQLite and
PostgreSQL), and their rows counted from the schedules and systems already there."""

import django.db.models.deletion
from django.db import migrations, models


def forwards(apps, schema_editor):
    from powts.maintenance import standing_counts

    if not standing_counts.deferred(schema_editor.connection):  # else at the end of this `migrate` (SQLite)
        standing_counts.install(schema_editor.connection)
    standing_counts.rebuild(using_connection=schema_editor.connection)


def backwards(apps, schema_editor):
    from powts.maintenance import standing_counts

    with schema_editor.connection.cursor() as cursor:
        for sql in standing_counts.drop_sql(schema_editor.connection.vendor):
            cursor.execute(sql)


class Migration(migrations.Migration):

    dependencies = [
        ('inventory', '0012_parcel_pending_index'),
        ('jurisdictions', '0002_slug_help_text_without_repository_path'),
        ('maintenance', '0012_notice_batch_state_on_its_job'),
    ]

    operations = [
        migrations.CreateModel(
            name='StandingCount',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('rule', models.CharField(max_length=20)),
                ('system_type', models.CharField(max_length=30)),
                ('municipality', models.CharField(max_length=100)),
                ('exempt', models.BooleanField()),
                ('needs_data', models.BooleanField()),
                ('delinquent', models.BooleanField()),
                ('failing', models.BooleanField()),
                ('notice_on', models.DateField(help_text='9999-12-31 when the schedule has none.')),
                ('due_on', models.DateField(help_text='9999-12-31 when the schedule has none.')),
                ('n', models.IntegerField()),
                ('jurisdiction', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, to='jurisdictions.jurisdiction')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('jurisdiction', 'rule', 'system_type', 'municipality', 'exempt', 'needs_data', 'delinquent', 'failing', 'notice_on', 'due_on'), name='maint_standing_key')],
            },
        ),
        migrations.CreateModel(
            name='SystemCount',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('n', models.IntegerField()),
                ('jurisdiction', models.OneToOneField(db_constraint=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='jurisdictions.jurisdiction')),
            ],
        ),
        migrations.RunPython(forwards, backwards),
    ]
