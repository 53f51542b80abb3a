"""A file attached to one record: a permit, a maintenance report or a public complaint.

The record is held by explicit nullable foreign keys (exactly one set, a database constraint), not a
generic content type + id: the database keeps each link valid (no attachment of a record that does
not exist), a record with files cannot be deleted from under them (PROTECT), and "who may see this
file" is one join to the record's own row scoping. Grant applications add one more nullable key.
The bytes live in the "attachments" storage (settings.STORAGES), never under STATIC or MEDIA.
"""
from django.conf import settings
from django.db import models
from django.db.models import Q

from powts.attachments.choices import Kind

RECORD_FIELDS = ("permit", "report", "complaint", "grant_application", "well_claim")


def _exactly_one(names) -> Q:
    """Exactly one of the record keys is set."""
    out = Q()
    for name in names:
        out |= Q(**{f"{n}__isnull": n != name for n in names})
    return out


class Attachment(models.Model):
    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT, related_name="+")
    permit = models.ForeignKey("permits.Permit", null=True, blank=True, on_delete=models.PROTECT, related_name="attachments")
    report = models.ForeignKey("maintenance.Report", null=True, blank=True, on_delete=models.PROTECT,
                               related_name="attachments")
    complaint = models.ForeignKey("permits.Complaint", null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="attachments")
    grant_application = models.ForeignKey("grants.GrantApplication", null=True, blank=True, on_delete=models.PROTECT,
                                          related_name="attachments")
    well_claim = models.ForeignKey("wells.WellClaim", null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="attachments")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    title = models.CharField(max_length=200, blank=True)
    original_name = models.CharField(max_length=200, help_text="The file's name as uploaded (shown, never used as a path).")
    content_type = models.CharField(max_length=60, help_text="Detected from the content, not from the name.")
    size = models.PositiveBigIntegerField()
    sha256 = models.CharField(max_length=64)
    storage_name = models.CharField(max_length=200, unique=True)
    # Recorded documents: the register of deeds' number and date as given with the upload. On a permit the
    # upload is also filed as the permit's recorded document, whose verification staff record there.
    recording_number = models.CharField(max_length=60, blank=True)
    recorded_on = models.DateField(null=True, blank=True)
    permit_document = models.ForeignKey("permits.PermitDocument", null=True, blank=True, on_delete=models.SET_NULL,
                                        related_name="attachments")
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+", help_text="Empty for a public (anonymous) upload.")
    uploaded_at = models.DateTimeField()

    class Meta:
        ordering = ["uploaded_at", "id"]
        constraints = [
            models.CheckConstraint(name="attachment_one_record", condition=_exactly_one(RECORD_FIELDS)),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.original_name}"

    @property
    def record_field(self) -> str:
        return next(name for name in RECORD_FIELDS if getattr(self, f"{name}_id"))

    @property
    def record(self):
        return getattr(self, self.record_field)

    @property
    def download_name(self) -> str:
        """The name a download is saved under, made by powts, never the uploader's: the record, the kind, this
        file's number and the extension of the type detected from its content ("permit-2026-0412-plan-17.pdf")."""
        from django.utils.text import slugify

        from powts.attachments.choices import EXTENSIONS

        field = self.record_field
        number = getattr(self.record, "number", "") if field == "permit" else ""
        record = slugify(f"{field.replace('_', '-')}-{number or getattr(self, f'{field}_id')}") or "record"
        return f"{record}-{self.kind.replace('_', '-')}-{self.pk}.{EXTENSIONS.get(self.content_type, 'bin')}"
