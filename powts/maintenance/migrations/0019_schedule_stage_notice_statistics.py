"""PostgreSQL: statistics of the schedule's stage and notice date taken together (maint_sched_stage_notice).

The notices page counts each kind of letter at one stage (powts.maintenance.notice_page). Taken one column at a
time, PostgreSQL multiplied the share of schedules at stage "" (over half: never noticed) by the share of notice
dates already reached (nearly half: the dates of the letters sent in years past) and expected 140,000 first notices
due in a month at 1,000,000 systems, where 15,000 are: it read the whole table (130-300 ms a kind) instead of the
notices index (8 ms). The pairs' list (an MCV list) tells it which notice dates go with which stage. 2,500 pairs is
room for about seven years of dates at three stages; the sample it needs (750,000 rows) is read by ANALYZE, in the
background. SQLite has no such statistics and needs none (its plan is tested in test_notice_page.py)."""

from django.db import migrations

NAME = "maint_sched_stage_notice"
PAIRS = 2500


def forwards(apps, schema_editor):
    conn = schema_editor.connection
    if conn.vendor != "postgresql":
        return
    with conn.cursor() as cursor:
        cursor.execute(f"CREATE STATISTICS IF NOT EXISTS {NAME} (mcv) ON stage, notice_on FROM maintenance_schedule")
        cursor.execute(f"ALTER STATISTICS {NAME} SET STATISTICS {PAIRS}")
        cursor.execute("ANALYZE maintenance_schedule")  # a county upgrading gets the pairs now, not at autovacuum's turn


def backwards(apps, schema_editor):
    conn = schema_editor.connection
    if conn.vendor == "postgresql":
        with conn.cursor() as cursor:
            cursor.execute(f"DROP STATISTICS IF EXISTS {NAME}")


class Migration(migrations.Migration):

    dependencies = [
        ('maintenance', '0018_schedules_and_notices_counted_per_statement'),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
