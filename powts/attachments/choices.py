"""What a file attached to a record may be, and which contents each kind accepts."""
from django.db import models


class Kind(models.TextChoices):
    PLAN = "plan", "Plan"
    SOIL_REPORT = "soil_report", "Soil report"
    RECORDED_DOCUMENT = "recorded_document", "Recorded document"
    RECEIPT = "receipt", "Receipt"
    PHOTO = "photo", "Photo"
    INCOME_EVIDENCE = "income_evidence", "Income tax return or income evidence"
    OTHER = "other", "Other document"


PDF, JPEG, PNG, HEIC, WEBP = "application/pdf", "image/jpeg", "image/png", "image/heic", "image/webp"
# The words people know for each type, for messages ("must be a PDF, JPEG or PNG").
TYPE_WORDS = {PDF: "PDF", JPEG: "JPEG", PNG: "PNG", HEIC: "HEIC", WEBP: "WebP"}
EXTENSIONS = {PDF: "pdf", JPEG: "jpg", PNG: "png", HEIC: "heic", WEBP: "webp"}

# Papers are scanned or exported (PDF) or photographed (JPEG, PNG); photos come from phones (HEIC on iPhones).
PAPER = (PDF, JPEG, PNG)
PICTURE = (JPEG, PNG, HEIC, WEBP)
ALLOWED = {
    Kind.PLAN: PAPER,
    Kind.SOIL_REPORT: PAPER,
    Kind.RECORDED_DOCUMENT: PAPER,
    Kind.RECEIPT: PAPER,
    Kind.PHOTO: PICTURE,
    Kind.INCOME_EVIDENCE: PAPER,
    Kind.OTHER: PAPER + (HEIC, WEBP),
}

# Which kinds each record takes (a maintenance report or a complaint takes photos, not plans).
RECORD_KINDS = {
    "permit": (Kind.PLAN, Kind.SOIL_REPORT, Kind.RECORDED_DOCUMENT, Kind.RECEIPT, Kind.PHOTO, Kind.OTHER),
    "report": (Kind.PHOTO, Kind.RECEIPT, Kind.OTHER),
    "complaint": (Kind.PHOTO,),
    "grant_application": (Kind.INCOME_EVIDENCE, Kind.RECEIPT, Kind.PHOTO, Kind.OTHER),
    "well_claim": (Kind.OTHER, Kind.RECEIPT, Kind.PHOTO),  # affidavit, sample results, tax returns, cost receipts
}
RECORD_WORDS = {"permit": "permit", "report": "maintenance report", "complaint": "complaint",
                "grant_application": "grant application", "well_claim": "well compensation claim"}
