"""PostgreSQL: the county's number of systems kept once per statement that inserts or deletes systems, over
its rows, instead of once per row (powts.maintenance.standing_counts.PER_STATEMENT says why). The counts
themselves do not change. SQLite keeps its row triggers."""

from django.db import migrations


def forwards(apps, schema_editor):
    from powts.maintenance import standing_counts

    conn = schema_editor.connection
    if conn.vendor != "postgresql":
        return
    with conn.cursor() as cursor:
        for sql in standing_counts.install_sql(conn.vendor, [t for t in standing_counts.TRIGGERS
                                                             if t[0] in standing_counts.PER_STATEMENT]):
            cursor.execute(sql)


class Migration(migrations.Migration):

    dependencies = [
        ('maintenance', '0016_notice_flags'),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
