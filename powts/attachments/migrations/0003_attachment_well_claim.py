"""A well compensation claim (powts.wells) holds files too: its key, and "exactly one record" with it."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('attachments', '0002_grant_application_files'),
        ('wells', '0001_initial'),
    ]

    operations = [
        migrations.RemoveConstraint(model_name='attachment', name='attachment_one_record'),
        migrations.AddField(
            model_name='attachment',
            name='well_claim',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='attachments', to='wells.wellclaim'),
        ),
        migrations.AddConstraint(
            model_name='attachment',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('complaint__isnull', True), ('grant_application__isnull', True), ('permit__isnull', False), ('report__isnull', True), ('well_claim__isnull', True)), models.Q(('complaint__isnull', True), ('grant_application__isnull', True), ('permit__isnull', True), ('report__isnull', False), ('well_claim__isnull', True)), models.Q(('complaint__isnull', False), ('grant_application__isnull', True), ('permit__isnull', True), ('report__isnull', True), ('well_claim__isnull', True)), models.Q(('complaint__isnull', True), ('grant_application__isnull', False), ('permit__isnull', True), ('report__isnull', True), ('well_claim__isnull', True)), models.Q(('complaint__isnull', True), ('grant_application__isnull', True), ('permit__isnull', True), ('report__isnull', True), ('well_claim__isnull', False)), _connector='OR'), name='attachment_one_record'),
        ),
    ]
