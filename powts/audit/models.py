from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models

from powts.audit.choices import Channel


class AuditEvent(models.Model):
    """One change to one record: who, when, through what, why, and each field before and after.

    Written by services inside the same transaction as the change (Zulip's pattern), so a change
    and its record stand or fall together, and imports and jobs are audited like web requests.
    """

    at = models.DateTimeField(db_index=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    actor_label = models.CharField(max_length=200, blank=True, help_text="Who, when there is no user (e.g. an import run by the CLI).")
    channel = models.CharField(max_length=10, choices=Channel.choices)
    action = models.CharField(max_length=300, help_text='The business action, e.g. "imported from county-2026-01.csv".')
    verb = models.CharField(max_length=10, choices=[("create", "created"), ("update", "updated"), ("delete", "deleted")])
    # No index of its own: the (content_type, object_id, at) index below starts with it.
    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, db_index=False)
    object_id = models.BigIntegerField()
    object_repr = models.CharField(max_length=200)
    changes = models.JSONField(default=dict, help_text="{field: [before, after]}")
    batch = models.CharField(max_length=64, blank=True, db_index=True, help_text="Import or job run this change belongs to.")

    class Meta:
        indexes = [models.Index(fields=["content_type", "object_id", "at"])]
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.object_repr}: {self.action}"
