from django.db import models


class AuditStatus(models.TextChoices):
    OPEN = "open", "Sample drawn; verifying on site"
    RESPONSE_REQUESTED = "requested", "County response requested"
    RESPONDED = "responded", "County responded"
    CLOSED = "closed", "Closed"


class SampleOutcome(models.TextChoices):
    PENDING = "pending", "Not yet verified"
    SATISFACTORY = "satisfactory", "Verified: satisfactory"
    DEFICIENT = "deficient", "Verified: deficient"


class FlagKind(models.TextChoices):
    STAFF = "staff", "Flagged by staff"
    NEVER_PUMPED = "never_pumped", "Pumping report contradicted by a later inspection"
    FAR_APART = "far_apart", "Two reports for one system on one day by licenses far apart"
    LICENSE_NOT_VALID = "license_dates", "Work dated outside the license's validity"


class FlagStatus(models.TextChoices):
    OPEN = "open", "Open"
    DISMISSED = "dismissed", "Dismissed"
    REFERRED = "referred", "Referred to the licensing agency"


class ReferralOutcome(models.TextChoices):
    PENDING = "pending", "Awaiting the agency's decision"
    NO_ACTION = "no_action", "No action taken"
    WARNED = "warned", "Warning issued"
    SUSPENDED = "suspended", "License suspended"
    REVOKED = "revoked", "License revoked"


class AuthorityKind(models.TextChoices):
    COUNTY = "county", "The county"
    TOWN = "town", "The city, village or town that signed the holding tank agreement"


class AssessmentStatus(models.TextChoices):
    ASSESSED = "assessed", "Assessed as a special charge"
    PAID = "paid", "Paid before the tax roll"
    VOID = "void", "Withdrawn"


class ApplicationCheck(models.TextChoices):
    PENDING = "pending", "Not yet inspected"
    CORRECT = "correct", "Inspected: as reported"
    ERRORS = "errors", "Inspected: errors found"
