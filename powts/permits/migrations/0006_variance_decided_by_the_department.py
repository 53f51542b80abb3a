"""Variances go to the department (Wis. Stat. s. 145.24): who petitioned, who decided and why, and the ground of a rescission."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('permits', '0005_permit_amendments'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='variance',
            name='citation',
            field=models.CharField(blank=True, help_text='The rule the decision or rescission rests on', max_length=80),
        ),
        migrations.AddField(
            model_name='variance',
            name='decided_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='variance',
            name='decision_reason',
            field=models.TextField(blank=True),
        ),
        migrations.AddField(
            model_name='variance',
            name='petitioned_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='variance',
            name='petitioner',
            field=models.CharField(choices=[('owner', 'The owner'), ('county', "The county, on the owner's behalf")], default='county', max_length=10),
        ),
        migrations.AddField(
            model_name='variance',
            name='rescinded_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='variance',
            name='rescission_ground',
            field=models.CharField(blank=True, choices=[('failing', 'The system became a failing system'), ('contaminates', 'The system contaminates waters of the state')], max_length=12),
        ),
    ]
