"""Well contamination compensation claims (Wis. Stat. s. 281.75), received and paid by DNR.

A claim is about one private water supply; claims on the same supply are consolidated ((5)(e)) into
the first one received. A claim is decided by the law engine (powts.law.wells) once it is complete
((5)(c)); payment runs pay complete claims in the order they became complete ((5)(f)).
Money in integer cents.
"""
from django.conf import settings
from django.db import models

from powts.wells.choices import ClaimStatus, LineStatus, SupplyUse, WellKind


class WaterSupply(models.Model):
    supply_id = models.CharField(max_length=60, unique=True)
    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", null=True, blank=True, on_delete=models.PROTECT,
                                     related_name="+", help_text="The county where the well is, when known.")
    location = models.CharField(max_length=200, blank=True)
    well_kind = models.CharField(max_length=10, choices=WellKind.choices)
    supply_use = models.CharField(max_length=12, choices=SupplyUse.choices)
    dwelling_units = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["supply_id"]
        verbose_name_plural = "water supplies"

    def __str__(self) -> str:
        return f"water supply {self.supply_id}"


class WellClaim(models.Model):
    claim_id = models.CharField(max_length=60, unique=True)
    supply = models.ForeignKey(WaterSupply, on_delete=models.PROTECT, related_name="claims")
    claimant_name = models.CharField(max_length=200, blank=True)
    claimant_address = models.TextField(blank=True)
    claimant_type = models.CharField(max_length=30)
    owner = models.ForeignKey("inventory.Owner", null=True, blank=True, on_delete=models.SET_NULL, related_name="well_claims")
    # the department's form (the fields of `powts rules evaluate well-compensation`)
    sample_dates = models.JSONField(default=list, blank=True)  # ISO dates
    lab_certified = models.BooleanField(default=False)
    department_advisory = models.BooleanField(default=False)
    annual_family_income = models.BigIntegerField(help_text="cents")
    eligible_costs = models.JSONField(default=list, blank=True)  # [[item or null, cents], ...]
    affidavit_on = models.DateField(null=True, blank=True)
    tax_returns_on = models.DateField(null=True, blank=True)
    received_on = models.DateField()
    completed_on = models.DateField(null=True, blank=True)
    missing = models.JSONField(default=list, blank=True)  # Missing values still outstanding
    notice_on = models.DateField(null=True, blank=True, help_text="Last completeness notice, s. 281.75(5)(c)")
    status = models.CharField(max_length=12, choices=ClaimStatus.choices, default=ClaimStatus.RECEIVED)
    consolidated_into = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="consolidated")
    # the decision (powts.law.wells), stored with its law version and explanation
    eligible = models.BooleanField(null=True, blank=True)
    award = models.BigIntegerField(null=True, blank=True, help_text="cents")
    law_version = models.CharField(max_length=40, blank=True)
    explanation = models.TextField(blank=True)
    reasons = models.JSONField(default=list, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    paid = models.BigIntegerField(default=0, help_text="cents")

    class Meta:
        ordering = ["received_on", "id"]  # the order received: (5)(f)
        indexes = [models.Index(fields=["status", "completed_on"])]

    def __str__(self) -> str:
        return f"well claim {self.claim_id}"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("wells:claim-detail", kwargs={"pk": self.pk})

    @property
    def jurisdiction_id(self):
        """The county of the claim's water supply (where its documents are kept), when known."""
        return self.supply.jurisdiction_id


class WellPaymentRun(models.Model):
    on = models.DateField()
    funds = models.BigIntegerField(help_text="cents available to this run")
    paid = models.BigIntegerField(default=0, help_text="cents paid by this run")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    citation = models.CharField(max_length=80, blank=True)

    class Meta:
        ordering = ["-on", "-id"]

    def __str__(self) -> str:
        return f"well payment run {self.pk} on {self.on}"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("wells:run-detail", kwargs={"pk": self.pk})


class WellPaymentLine(models.Model):
    run = models.ForeignKey(WellPaymentRun, on_delete=models.CASCADE, related_name="lines")
    claim = models.ForeignKey(WellClaim, on_delete=models.PROTECT, related_name="payment_lines")
    status = models.CharField(max_length=12, choices=LineStatus.choices)
    paid = models.BigIntegerField(default=0, help_text="cents")
    position = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["run", "position", "id"]
        constraints = [models.UniqueConstraint(fields=["run", "claim"], name="well_line_once_per_run")]
