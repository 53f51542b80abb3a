"""An owner's Wisconsin Fund grant application and the decisions made on it.

The failure determination, system and parcel are the inventory's and the permits app's records,
linked, not retyped. An imported row whose file names no inventory system keeps the facts the
file gave (conditions, date of the determination, install date) in `imported_failure`; every
other application rests on a FailureDetermination (check constraint below).
Money is integer cents.
"""
from django.conf import settings
from django.db import models
from django.db.models import Q

from powts.core.querysets import RoleScopedQuerySet
from powts.grants import choices as c


class GrantApplicationQuerySet(RoleScopedQuerySet):
    def restrict_others(self, user, action: str):
        """Owners: the applications for their own systems or made by them (view; changes go
        through services that check the policy)."""
        from powts.accounts.choices import Role

        if user.role == Role.OWNER:
            return self.filter(Q(owner__user=user) | Q(created_by=user))
        return self.none()


class GrantApplication(models.Model):
    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    fiscal_year = models.CharField(max_length=7, db_index=True, help_text='State fiscal year, e.g. "2026-27".')
    owner = models.ForeignKey("inventory.Owner", null=True, blank=True, on_delete=models.PROTECT,
                              related_name="grant_applications")
    owner_name = models.CharField(max_length=200, blank=True,
                                  help_text="As the applicant gave it (import files without an inventory owner).")
    system = models.ForeignKey("inventory.System", null=True, blank=True, on_delete=models.PROTECT,
                               related_name="grant_applications")
    parcel = models.ForeignKey("inventory.Parcel", null=True, blank=True, on_delete=models.PROTECT,
                               related_name="grant_applications")
    failure_determination = models.ForeignKey("permits.FailureDetermination", null=True, blank=True,
                                              on_delete=models.PROTECT, related_name="grant_applications")
    imported_failure = models.JSONField(null=True, blank=True,
                                        help_text="Import rows without an inventory system: conditions, "
                                                  "determined_on and system_installed_on as the file gave them.")
    applicant_type = models.CharField(max_length=10, choices=c.ApplicantType.choices, default=c.ApplicantType.RESIDENCE)
    applied_on = models.DateField(help_text="Date the county received the application.")
    principal_residence = models.BooleanField(default=True)
    sewer_available = models.BooleanField(default=False)
    work_started_on = models.DateField(null=True, blank=True)
    annual_family_income = models.BigIntegerField(null=True, blank=True, help_text="Cents.")
    income_tax_year = models.PositiveSmallIntegerField(null=True, blank=True)
    income_evidence = models.CharField(max_length=25, choices=c.IncomeEvidence.choices, blank=True)
    annual_gross_revenue = models.BigIntegerField(null=True, blank=True, help_text="Cents.")
    daily_flow_gpd = models.FloatField(null=True, blank=True)
    design_flow_gpd = models.FloatField(null=True, blank=True)
    units_served = models.PositiveIntegerField(default=1)
    components = models.JSONField(default=list, blank=True)
    experimental = models.BooleanField(default=False)
    funding_table_amount = models.BigIntegerField(null=True, blank=True, help_text="Cents.")
    claimed_cost = models.BigIntegerField(null=True, blank=True, help_text="Cents.")
    allowable_cost = models.BigIntegerField(null=True, blank=True, help_text="Cents.")
    # s. 145.246(6)(a)-(b): allowable costs are those of the least costly method meeting the code
    # minimum; a holding tank is not the benchmark.
    meets_code_minimum = models.BooleanField(default=False)
    least_costly_method = models.BooleanField(default=False)
    cost_benchmark = models.CharField(max_length=30, blank=True,
                                      help_text="The method the least cost was measured by (a system type).")
    prior_grant = models.BooleanField(default=False, help_text="A grant already received for this residence "
                                                               "or establishment (stated or found).")
    intentionally_caused = models.BooleanField(default=False)
    on_support_lien_docket = models.BooleanField(default=False)
    has_payment_agreement = models.BooleanField(default=False)
    residence_key = models.CharField(max_length=300, db_index=True,
                                     help_text="Normalised parcel number or site address: one grant per residence.")
    status = models.CharField(max_length=10, choices=c.ApplicationStatus.choices,
                              default=c.ApplicationStatus.RECEIVED, db_index=True)
    source = models.CharField(max_length=6, choices=c.ApplicationSource.choices)
    external_id = models.CharField(max_length=100, null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="grant_applications_created")
    created_at = models.DateTimeField()

    objects = GrantApplicationQuerySet.as_manager()

    class Meta:
        ordering = ["-applied_on", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "fiscal_year", "external_id"],
                                    name="grant_application_external_id_unique"),
            models.CheckConstraint(
                condition=Q(failure_determination__isnull=False) | Q(source="import", imported_failure__isnull=False),
                name="grant_application_has_failure_determination"),
        ]

    def __str__(self):
        return f"Grant application {self.pk} ({self.fiscal_year})"

    def get_absolute_url(self):
        from django.urls import reverse

        return reverse("grants:detail", args=[self.pk])

    @property
    def current_decision(self):
        """The latest decision (prefetched as `decisions` where lists need it)."""
        decisions = list(self.decisions.all())
        return max(decisions, key=lambda d: (d.decided_at, d.id)) if decisions else None


class GrantDecision(models.Model):
    """One decision by the law engine; the latest for an application is the current one."""

    application = models.ForeignKey(GrantApplication, on_delete=models.CASCADE, related_name="decisions")
    eligible = models.BooleanField()
    amount = models.BigIntegerField(help_text="Cents granted (0 when not eligible).")
    state_share = models.BigIntegerField(help_text="Cents, s. 145.246(6)(c)-(d), whether or not eligible.")
    category = models.PositiveSmallIntegerField(null=True, blank=True)
    law_version = models.CharField(max_length=20, blank=True)
    reasons = models.JSONField(default=list, blank=True, help_text="Each failed test with its citation.")
    explanation = models.TextField(blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    decided_at = models.DateTimeField()

    class Meta:
        ordering = ["-decided_at", "-id"]
        get_latest_by = ["decided_at", "id"]

    def __str__(self):
        return f"Decision on {self.application_id}: {'eligible' if self.eligible else 'not eligible'}"
