"""API tokens were DRF's authtoken (kept in plain text, never expiring); they are now knox's (digests,
expiring). The old table is dropped so no usable key stays on disk; holders sign in again for a new token."""
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = (("accounts", "0003_calendar_feed"),)

    operations = (migrations.RunSQL("DROP TABLE IF EXISTS authtoken_token", reverse_sql=migrations.RunSQL.noop),)
