"""The program between counties and the department: s. 145.246(7), (8), (11)-(13) (s. 145.245 likewise).

A county certifies its conditions for a fiscal year ((8)), submits its application for participation with
the eligible applications it carries ((7)(a)), DSPS reviews it ((13)(a)) and may revise the determination
((11)(a)); DSPS allocates the year's funds (a stored, reproducible run, (11)-(12)) and pays each county,
which disburses to owners ((8)(g)). Money is integer cents. Fiscal year labels are "2026-27"
(July 1, 2026 to June 30, 2027).
"""
from django.conf import settings
from django.db import models
from django.db.models import Q

from powts.core.querysets import RoleScopedQuerySet


class ProgramQuerySet(RoleScopedQuerySet):
    """County staff: their county's; DSPS: every county's, and it acts on them (review, payment); auditors read."""

    def restrict(self, user, action: str = "view"):
        from powts.accounts.choices import Role

        if getattr(user, "is_authenticated", False) and user.role == Role.DSPS:
            return self
        return super().restrict(user, action)


class CountyCertification(models.Model):
    """(8)(a) and (e) checked from the county's records; (b)-(d) certified by a named county official."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT,
                                     related_name="grant_certifications")
    fiscal_year = models.CharField(max_length=7, db_index=True)
    # what was checked for (a) and (e): {"maintenance_program": {...}, "regulation_inspection": {...}}
    checked = models.JSONField(default=dict)
    certified_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    official_name = models.CharField(max_length=200)
    official_title = models.CharField(max_length=200)
    # (b), (c), (d): each certified (True) by the official
    certifies_eligibility_and_costs = models.BooleanField(default=False)
    certifies_installed_and_maintained = models.BooleanField(default=False)
    certifies_disbursed_to_eligible = models.BooleanField(default=False)
    certified_at = models.DateTimeField()

    objects = ProgramQuerySet.as_manager()

    class Meta:
        ordering = ["-fiscal_year", "jurisdiction__name"]
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "fiscal_year"], name="grant_certification_one_per_year"),
            models.CheckConstraint(condition=Q(certifies_eligibility_and_costs=True, certifies_installed_and_maintained=True,
                                               certifies_disbursed_to_eligible=True),
                                   name="grant_certification_all_certified"),
        ]

    def __str__(self):
        return f"{self.jurisdiction} certification {self.fiscal_year}"


class ParticipationStatus(models.TextChoices):
    RECEIVED = "received", "Received"
    APPROVED = "approved", "Approved (conditions met)"
    REVISED = "revised", "Revised (conditions not met)"
    REFUSED = "refused", "Refused"


PARTICIPATING = (ParticipationStatus.RECEIVED, ParticipationStatus.APPROVED)


class ParticipationApplication(models.Model):
    """The county's application for participation for one fiscal year ((7)(a))."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT,
                                     related_name="grant_participations")
    fiscal_year = models.CharField(max_length=7, db_index=True)
    received_on = models.DateField()
    certification = models.ForeignKey(CountyCertification, on_delete=models.PROTECT, related_name="participations")
    status = models.CharField(max_length=10, choices=ParticipationStatus.choices, default=ParticipationStatus.RECEIVED)
    submitted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    submitted_at = models.DateTimeField()
    # the department's review ((13)(a)) and revision ((11)(a))
    reviewed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                    related_name="+")
    reviewed_at = models.DateTimeField(null=True, blank=True)
    review_reason = models.TextField(blank=True)

    objects = ProgramQuerySet.as_manager()

    class Meta:
        ordering = ["-fiscal_year", "jurisdiction__name"]
        constraints = [models.UniqueConstraint(fields=["jurisdiction", "fiscal_year"],
                                               name="grant_participation_one_per_year")]

    def __str__(self):
        return f"{self.jurisdiction} application for participation {self.fiscal_year}"


class ParticipationItem(models.Model):
    """One eligible owner application carried by the county's application; DSPS may take it out ((11)(a))."""

    participation = models.ForeignKey(ParticipationApplication, on_delete=models.CASCADE, related_name="items")
    application = models.ForeignKey("grants.GrantApplication", on_delete=models.PROTECT, related_name="participation_items")
    included = models.BooleanField(default=True)
    revised_reason = models.TextField(blank=True)
    revised_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+")
    revised_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["participation", "application"], name="grant_participation_item_once")]


class AllocationRun(models.Model):
    """One allocation of a fiscal year's funds (s. 145.246(11)-(12)), stored with what it was run on."""

    fiscal_year = models.CharField(max_length=7, db_index=True)
    funds = models.BigIntegerField(help_text="Cents available.")
    law_version = models.CharField(max_length=20)
    # the inputs: each line's application, county, category, state share, experimental, business, applied on
    parameters = models.JSONField(default=dict)
    inputs_digest = models.CharField(max_length=64)
    run_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    run_by_label = models.CharField(max_length=150, blank=True)
    run_at = models.DateTimeField()

    class Meta:
        ordering = ["-run_at", "-id"]

    def __str__(self):
        return f"Allocation {self.pk} for {self.fiscal_year}"


class AllocationLine(models.Model):
    run = models.ForeignKey(AllocationRun, on_delete=models.CASCADE, related_name="lines")
    application = models.ForeignKey("grants.GrantApplication", on_delete=models.PROTECT, related_name="allocation_lines")
    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT, related_name="+")
    category = models.PositiveSmallIntegerField(null=True, blank=True)
    state_share = models.BigIntegerField(help_text="Cents requested (the state grant share).")
    award = models.BigIntegerField(help_text="Cents allocated.")
    status = models.CharField(max_length=20)
    note = models.TextField(blank=True)
    # the facts the allocation used besides the share, so the run can be replayed from its lines
    experimental = models.BooleanField(default=False)
    business = models.BooleanField(default=False)
    applied_on = models.DateField()
    received_on = models.DateField(help_text="The county's application for participation was received on.")

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["run", "jurisdiction"])]


class CountyPayment(models.Model):
    """The department's payment of a county's allocation (s. 145.246(13)(b))."""

    run = models.ForeignKey(AllocationRun, on_delete=models.PROTECT, related_name="payments")
    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT, related_name="+")
    amount = models.BigIntegerField(help_text="Cents paid.")
    paid_on = models.DateField()
    paid_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    objects = ProgramQuerySet.as_manager()

    class Meta:
        ordering = ["-paid_on", "-id"]
        constraints = [models.UniqueConstraint(fields=["run", "jurisdiction"], name="grant_county_payment_once")]


class Disbursement(models.Model):
    """The county's payment to an owner of the funds received, prorated on the same basis ((8)(g))."""

    payment = models.ForeignKey(CountyPayment, on_delete=models.PROTECT, related_name="disbursements")
    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT, related_name="+")
    application = models.ForeignKey("grants.GrantApplication", on_delete=models.PROTECT, related_name="disbursements")
    allocated = models.BigIntegerField(help_text="Cents allocated to the application.")
    amount = models.BigIntegerField(help_text="Cents paid to the owner.")
    paid_on = models.DateField()
    note = models.TextField(blank=True)
    paid_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    objects = ProgramQuerySet.as_manager()

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["payment", "application"], name="grant_disbursement_once")]
