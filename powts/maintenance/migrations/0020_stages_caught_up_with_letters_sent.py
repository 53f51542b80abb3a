"""Each schedule's stage brought up to the letters already sent for its due date.

Until now a due date that came back to one already noticed (a date corrected and corrected back) started its
sequence again at no stage, and the letters on file were probed to keep from sending one twice; the next step
was then never sent either. The stage is now restored when a due date changes (powts.maintenance.stages),
and the notices page counts from it alone; this brings the rows written before up to date. No stage goes down,
and no letter or audit event is written: the letters themselves are already on file."""

from django.db import migrations


def forwards(apps, schema_editor):
    from powts.maintenance import stages
    from powts.maintenance.profile import maintenance_profile

    for pk, slug in apps.get_model("jurisdictions", "Jurisdiction").objects.values_list("pk", "profile_slug"):
        stages.repair(pk, maintenance_profile(slug).delinquent_kinds)


class Migration(migrations.Migration):

    dependencies = [
        ('maintenance', '0019_schedule_stage_notice_statistics'),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
