"""The department's oversight of county programs and the program's own enforcement records.

- ProgramAudit, SampledPermit: the department's review of a county program with a random audit of
  sanitary permits verified on site (Wis. Stat. s. 145.20(3)(b)); IssuanceHold, Exemption: its hold on a
  county's issuance and the exemptions it grants a governmental unit (s. 145.20(3)(a)2., (c)).
- ReportFlag, Referral: reports found falsified or in error and the referral of the licence holder to the
  licensing agency (s. 145.20(5)(c); a county text may add its own duty to report errors, cited in its oversight.yaml).
- Assessment: the cost of pumping an owner did not have done, assessed as a special charge (s. 145.20(4)).

Every write goes through services.py (audited in the same transaction).
"""
from django.conf import settings
from django.db import models

from powts.oversight import choices as c


class ProgramAudit(models.Model):
    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT, related_name="program_audits")
    period_start = models.DateField(help_text="Permits issued from this day ...")
    period_end = models.DateField(help_text="... through this day.")
    seed = models.BigIntegerField(help_text="The random seed: the same seed and permits draw the same sample.")
    sample_size = models.PositiveSmallIntegerField()
    size_citation = models.CharField(max_length=300)
    started_on = models.DateField()
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    status = models.CharField(max_length=10, choices=c.AuditStatus.choices, default=c.AuditStatus.OPEN)
    request_text = models.TextField(blank=True, help_text="What the department asks the county to answer.")
    requested_on = models.DateField(null=True, blank=True)
    respond_by = models.DateField(null=True, blank=True)
    response_text = models.TextField(blank=True)
    responded_on = models.DateField(null=True, blank=True)
    responded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    closed_on = models.DateField(null=True, blank=True)
    closing_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-started_on", "-id"]

    def __str__(self) -> str:
        return f"Program audit {self.pk} of {self.jurisdiction} ({self.period_start} to {self.period_end})"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("oversight:audit", args=[self.pk])


class SampledPermit(models.Model):
    audit = models.ForeignKey(ProgramAudit, on_delete=models.CASCADE, related_name="samples")
    permit = models.ForeignKey("permits.Permit", on_delete=models.PROTECT, related_name="+")
    position = models.PositiveSmallIntegerField()
    outcome = models.CharField(max_length=12, choices=c.SampleOutcome.choices, default=c.SampleOutcome.PENDING)
    verified_on = models.DateField(null=True, blank=True, help_text="The day of the on-site verification.")
    findings = models.TextField(blank=True)

    class Meta:
        ordering = ["audit", "position"]
        constraints = [models.UniqueConstraint(fields=["audit", "permit"], name="oversight_sample_once")]

    def __str__(self) -> str:
        return f"{self.permit} in audit {self.audit_id}"


class IssuanceHold(models.Model):
    """The department's hold on a county's permit issuance: while it stands, no permit of the county issues."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT, related_name="issuance_holds")
    audit = models.ForeignKey(ProgramAudit, null=True, blank=True, on_delete=models.PROTECT, related_name="holds")
    reason = models.TextField()
    citation = models.CharField(max_length=300)
    placed_on = models.DateField()
    placed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    lifted_on = models.DateField(null=True, blank=True)
    lifted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    lift_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-placed_on", "-id"]
        constraints = [models.UniqueConstraint(fields=["jurisdiction"], condition=models.Q(lifted_on__isnull=True),
                                               name="oversight_one_standing_hold")]

    def __str__(self) -> str:
        return f"Issuance hold on {self.jurisdiction} from {self.placed_on}"


class Exemption(models.Model):
    """An exemption the department grants a governmental unit from a category needing its prior approval."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT, related_name="exemptions")
    category = models.CharField(max_length=200)
    grounds = models.TextField()
    citation = models.CharField(max_length=300)
    granted_on = models.DateField()
    granted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # s. 145.20(3)(a)2.: a revocation's findings come only after a public hearing on 30 days' notice to the clerk.
    hearing_noticed_on = models.DateField(null=True, blank=True, help_text="The day the unit's clerk was given notice.")
    hearing_on = models.DateField(null=True, blank=True, help_text="The day of the public hearing.")
    hearing_clerk = models.CharField(max_length=200, blank=True, help_text="The clerk given notice.")
    revoked_on = models.DateField(null=True, blank=True)
    revocation_grounds = models.TextField(blank=True)

    class Meta:
        ordering = ["-granted_on", "-id"]

    def __str__(self) -> str:
        return f"Exemption of {self.jurisdiction}: {self.category}"


class ReportFlag(models.Model):
    """A report found (or suspected) falsified or in error, with its evidence."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    report = models.ForeignKey("maintenance.Report", null=True, blank=True, on_delete=models.PROTECT, related_name="flags")
    # Or a sanitary permit application with an error (where a county ordinance says so: its profile), and the licence of the person who made it.
    permit = models.ForeignKey("permits.Permit", null=True, blank=True, on_delete=models.PROTECT, related_name="application_flags")
    license = models.ForeignKey("accounts.License", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                                help_text="A flagged application: the plumber's or soil tester's licence the error is theirs under.")
    kind = models.CharField(max_length=16, choices=c.FlagKind.choices)
    reason = models.TextField()
    evidence = models.JSONField(default=list, blank=True, help_text='[{"on": date, "what": text}]')
    flagged_on = models.DateField()
    flagged_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    status = models.CharField(max_length=10, choices=c.FlagStatus.choices, default=c.FlagStatus.OPEN)

    class Meta:
        ordering = ["-flagged_on", "-id"]
        constraints = [models.UniqueConstraint(fields=["report", "kind"], condition=~models.Q(kind="staff"),
                                               name="oversight_auto_flag_once"),
                       # a report, or an application with the licence at fault: never both, never neither
                       models.CheckConstraint(condition=(models.Q(report__isnull=False, permit__isnull=True, license__isnull=True)
                                                         | models.Q(report__isnull=True, permit__isnull=False, license__isnull=False)),
                                              name="oversight_flag_report_or_application")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.report or self.subject}"

    @property
    def subject(self) -> str:
        """What is flagged, in words: the report, or the permit application."""
        return str(self.report) if self.report_id else f"Sanitary permit application {self.permit.number}"

    @property
    def licence_id_at_fault(self):
        return self.report.license_id if self.report_id else self.license_id

    @property
    def licence_at_fault(self):
        return self.report.license if self.report_id else self.license


class Referral(models.Model):
    """A licence holder referred to the licensing agency with the evidence (s. 145.20(5)(c))."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    license = models.ForeignKey("accounts.License", on_delete=models.PROTECT, related_name="referrals")
    agency = models.CharField(max_length=200)
    citation = models.CharField(max_length=300)
    flags = models.ManyToManyField(ReportFlag, related_name="referrals")
    note = models.TextField(blank=True)
    referred_on = models.DateField()
    referred_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    outcome = models.CharField(max_length=10, choices=c.ReferralOutcome.choices, default=c.ReferralOutcome.PENDING)
    outcome_on = models.DateField(null=True, blank=True)
    outcome_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-referred_on", "-id"]

    def __str__(self) -> str:
        return f"Referral of {self.license} to {self.agency} ({self.referred_on})"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("oversight:referral", args=[self.pk])


class Assessment(models.Model):
    """Pumping the county (or town) had done when the owner did not comply, assessed as a special charge."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    parcel = models.ForeignKey("inventory.Parcel", on_delete=models.PROTECT, related_name="assessments")
    system = models.ForeignKey("inventory.System", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    order = models.ForeignKey("permits.CorrectionOrder", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    authority_kind = models.CharField(max_length=8, choices=c.AuthorityKind.choices)
    authority_name = models.CharField(max_length=200, help_text="The governmental unit that assesses.")
    work_done_on = models.DateField()
    work = models.CharField(max_length=300)
    cost = models.DecimalField(max_digits=10, decimal_places=2)
    assessed_on = models.DateField()
    tax_year = models.PositiveSmallIntegerField()
    citation = models.CharField(max_length=300)
    status = models.CharField(max_length=8, choices=c.AssessmentStatus.choices, default=c.AssessmentStatus.ASSESSED)

    class Meta:
        ordering = ["-assessed_on", "-id"]

    def __str__(self) -> str:
        return f"Special charge ${self.cost} on {self.parcel.parcel_number}"


class ApprovalCategory(models.Model):
    """A category of systems the department approves before a county issues their sanitary permit
    (Wis. Stat. s. 145.20(3)(a)1.): by the permit's system type, by design flow, or both."""

    name = models.CharField(max_length=200, unique=True, help_text="As exemptions name it (s. 145.20(3)(a)2.).")
    system_types = models.JSONField(default=list, blank=True, help_text="Permit system types it covers; empty: any type.")
    above_gpd = models.PositiveIntegerField(null=True, blank=True, help_text="Design flow above this many gallons a day.")
    citation = models.CharField(max_length=300)
    specified_on = models.DateField()
    specified_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    withdrawn_on = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def covers(self, permit) -> bool:
        if self.system_types and permit.system_type not in self.system_types:
            return False
        return self.above_gpd is None or (permit.design_flow_gpd or 0) > self.above_gpd


class DepartmentApproval(models.Model):
    """The department's approval of one permit in a category, recorded before the county issues it."""

    category = models.ForeignKey(ApprovalCategory, on_delete=models.PROTECT, related_name="approvals")
    permit = models.ForeignKey("permits.Permit", on_delete=models.PROTECT, related_name="department_approvals")
    approved_on = models.DateField()
    approved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    reference = models.CharField(max_length=100, blank=True, help_text="The department's own number for the approval.")

    class Meta:
        ordering = ["-approved_on", "-id"]
        constraints = [models.UniqueConstraint(fields=["category", "permit"], name="oversight_approval_once")]

    def __str__(self) -> str:
        return f"Department approval of {self.permit} ({self.category})"


class ApplicationSample(models.Model):
    """A county's random inspection of sanitary permit applications (where its ordinance provides for it, cited in
    its profile): a sample of the applications filed in a period, drawn by a seed that reproduces it."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT, related_name="application_samples")
    period_start = models.DateField(help_text="Applications filed from this day ...")
    period_end = models.DateField(help_text="... through this day.")
    seed = models.BigIntegerField(help_text="The random seed: the same seed and applications draw the same sample.")
    population = models.PositiveIntegerField(help_text="Applications filed in the period.")
    share_percent = models.PositiveSmallIntegerField(help_text="The county's share, as its profile had it when drawn.")
    sample_size = models.PositiveIntegerField()
    citation = models.CharField(max_length=300)
    drawn_on = models.DateField()
    drawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-drawn_on", "-id"]

    def __str__(self) -> str:
        return f"Random inspection {self.pk} of {self.jurisdiction} applications ({self.period_start} to {self.period_end})"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("oversight:application-sample", args=[self.pk])


class SampledApplication(models.Model):
    """One application drawn for inspection, and what the inspection found (an error leads to a flag)."""

    sample = models.ForeignKey(ApplicationSample, on_delete=models.CASCADE, related_name="items")
    permit = models.ForeignKey("permits.Permit", on_delete=models.PROTECT, related_name="+")
    position = models.PositiveIntegerField()
    outcome = models.CharField(max_length=10, choices=c.ApplicationCheck.choices, default=c.ApplicationCheck.PENDING)
    inspected_on = models.DateField(null=True, blank=True)
    inspected_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    findings = models.TextField(blank=True)
    flag = models.ForeignKey(ReportFlag, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                             help_text="The flag an error found led to.")

    class Meta:
        ordering = ["sample", "position"]
        constraints = [models.UniqueConstraint(fields=["sample", "permit"], name="oversight_application_sampled_once")]

    def __str__(self) -> str:
        return f"Application {self.permit.number} in random inspection {self.sample_id}"
