from django.db import models


class ReportKind(models.TextChoices):
    INSPECTION = "inspection", "Inspection"
    PUMPING = "pumping", "Pumping"
    SERVICING = "servicing", "Servicing"
    ABANDONMENT = "abandonment", "Abandonment (final report)"


class AbandonmentMethod(models.TextChoices):
    """How the tank was abandoned (SPS 383 and the county's abandonment rule, cited in its profile)."""

    CRUSHED_FILLED = "crushed_filled", "Tank crushed and filled"
    REMOVED = "removed", "Tank removed"


class ReviewStatus(models.TextChoices):
    NONE = "", "In the inventory"
    PENDING = "pending", "Waiting for review (system not in the inventory)"
    MATCHED = "matched", "Matched to a system"
    REJECTED = "rejected", "Rejected"


class NoticeKind(models.TextChoices):
    FIRST_NOTICE = "first_notice", "Maintenance due notice"
    REMINDER = "reminder", "Reminder: maintenance overdue"
    DELINQUENT = "delinquent", "Notice of delinquency"
    VIOLATION = "violation", "Notice of violation"
    ENFORCEMENT_ORDER = "enforcement_order", "Enforcement order"
    # Not a step of the maintenance cycle: the owner's letter when a holding tank's periodic report is overdue.
    HOLDING_REPORT_OVERDUE = "holding_overdue", "Holding tank report overdue"


STAGE_ORDER = [NoticeKind.FIRST_NOTICE, NoticeKind.REMINDER, NoticeKind.DELINQUENT, NoticeKind.VIOLATION,
               NoticeKind.ENFORCEMENT_ORDER]


class Standing(models.TextChoices):
    """Where a system stands on a date (computed from due_on/notice_on and the stage reached)."""

    CURRENT = "current", "Current"
    DUE_SOON = "due_soon", "Due soon"
    OVERDUE = "overdue", "Overdue"
    DELINQUENT = "delinquent", "Delinquent"
    NEEDS_DATA = "needs_data", "Needs data"
    EXEMPT = "exempt", "Not in the program"
