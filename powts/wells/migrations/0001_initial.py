"""Well compensation claims, their water supplies and payment runs (Wis. Stat. s. 281.75)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('inventory', '0009_search_text_bare_parcel_number'),
        ('jurisdictions', '0002_slug_help_text_without_repository_path'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='WaterSupply',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('supply_id', models.CharField(max_length=60, unique=True)),
                ('location', models.CharField(blank=True, max_length=200)),
                ('well_kind', models.CharField(choices=[('drilled', 'Drilled'), ('driven', 'Driven'), ('bored', 'Bored'), ('dug', 'Dug')], max_length=10)),
                ('supply_use', models.CharField(choices=[('residential', 'Residential'), ('livestock', 'Livestock')], max_length=12)),
                ('dwelling_units', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('jurisdiction', models.ForeignKey(blank=True, help_text='The county where the well is, when known.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='jurisdictions.jurisdiction')),
            ],
            options={
                'verbose_name_plural': 'water supplies',
                'ordering': ['supply_id'],
            },
        ),
        migrations.CreateModel(
            name='WellClaim',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('claim_id', models.CharField(max_length=60, unique=True)),
                ('claimant_name', models.CharField(blank=True, max_length=200)),
                ('claimant_address', models.TextField(blank=True)),
                ('claimant_type', models.CharField(max_length=30)),
                ('sample_dates', models.JSONField(blank=True, default=list)),
                ('lab_certified', models.BooleanField(default=False)),
                ('department_advisory', models.BooleanField(default=False)),
                ('annual_family_income', models.BigIntegerField(help_text='cents')),
                ('eligible_costs', models.JSONField(blank=True, default=list)),
                ('affidavit_on', models.DateField(blank=True, null=True)),
                ('tax_returns_on', models.DateField(blank=True, null=True)),
                ('received_on', models.DateField()),
                ('completed_on', models.DateField(blank=True, null=True)),
                ('missing', models.JSONField(blank=True, default=list)),
                ('notice_on', models.DateField(blank=True, help_text='Last completeness notice, s. 281.75(5)(c)', null=True)),
                ('status', models.CharField(choices=[('received', 'Received'), ('incomplete', 'Incomplete'), ('complete', 'Complete, awaiting payment'), ('ineligible', 'Not eligible'), ('consolidated', 'Consolidated'), ('conditional', 'Conditionally approved'), ('paid', 'Paid')], default='received', max_length=12)),
                ('eligible', models.BooleanField(blank=True, null=True)),
                ('award', models.BigIntegerField(blank=True, help_text='cents', null=True)),
                ('law_version', models.CharField(blank=True, max_length=40)),
                ('explanation', models.TextField(blank=True)),
                ('reasons', models.JSONField(blank=True, default=list)),
                ('decided_at', models.DateTimeField(blank=True, null=True)),
                ('paid', models.BigIntegerField(default=0, help_text='cents')),
                ('consolidated_into', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='consolidated', to='wells.wellclaim')),
                ('decided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('owner', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='well_claims', to='inventory.owner')),
                ('supply', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='claims', to='wells.watersupply')),
            ],
            options={
                'ordering': ['received_on', 'id'],
            },
        ),
        migrations.CreateModel(
            name='WellPaymentRun',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('on', models.DateField()),
                ('funds', models.BigIntegerField(help_text='cents available to this run')),
                ('paid', models.BigIntegerField(default=0, help_text='cents paid by this run')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('citation', models.CharField(blank=True, max_length=80)),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-on', '-id'],
            },
        ),
        migrations.CreateModel(
            name='WellPaymentLine',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('status', models.CharField(choices=[('paid', 'Paid'), ('conditional', 'Conditionally approved'), ('incomplete', 'Incomplete'), ('ineligible', 'Not eligible'), ('consolidated', 'Consolidated')], max_length=12)),
                ('paid', models.BigIntegerField(default=0, help_text='cents')),
                ('position', models.PositiveIntegerField(blank=True, null=True)),
                ('claim', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='payment_lines', to='wells.wellclaim')),
                ('run', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='lines', to='wells.wellpaymentrun')),
            ],
            options={
                'ordering': ['run', 'position', 'id'],
            },
        ),
        migrations.AddIndex(
            model_name='wellclaim',
            index=models.Index(fields=['status', 'completed_on'], name='wells_wellc_status_ede52a_idx'),
        ),
        migrations.AddConstraint(
            model_name='wellpaymentline',
            constraint=models.UniqueConstraint(fields=('run', 'claim'), name='well_line_once_per_run'),
        ),
    ]
