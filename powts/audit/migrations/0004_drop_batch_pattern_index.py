"""Issue 13, item 3: the PostgreSQL `varchar_pattern_ops` copy of the audit batch index, which no query reads
(a batch is looked up whole, never by a prefix); every audited write paid for it. SQLite never had it."""
from django.db import migrations

NAME = "audit_auditevent_batch_ad97938f_like"


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f'DROP INDEX IF EXISTS "{NAME}"')


def restore(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f'CREATE INDEX IF NOT EXISTS "{NAME}" ON audit_auditevent ("batch" varchar_pattern_ops)')


class Migration(migrations.Migration):

    dependencies = [
        ("audit", "0003_help_text_without_county_name"),
    ]

    operations = [migrations.RunPython(drop, restore, elidable=False)]
