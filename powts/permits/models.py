"""Sanitary permits from application to final inspection, and what surrounds them.

Every write goes through services.py (validated, audited in the same transaction); the rules come
from the county profile (permits.yaml, fees.yaml, inspections.yaml, calendar.yaml).
"""
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q, Sum

from powts.core.querysets import RoleScopedQuerySet
from powts.permits import choices as c


class PermitQuerySet(RoleScopedQuerySet):
    def restrict_others(self, user, action: str):
        """Plumbers: the permits they filed or now hold. Owners: permits for their parcels (view only).
        Soil testers and pumpers: none."""
        from powts.accounts.choices import Role

        if user.role == Role.PLUMBER:
            return self.filter(Q(filed_by=user) | Q(plumber__user=user))
        if user.role == Role.OWNER and action == "view":
            return self.filter(Q(owner__user=user) | Q(parcel__owner__user=user))
        return self.none()


class Permit(models.Model):
    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    number = models.CharField(max_length=30, help_text="Application and permit number, e.g. 2026-0004.")
    kind = models.CharField(max_length=20, choices=c.PermitKind.choices, default=c.PermitKind.STATE)
    status = models.CharField(max_length=12, choices=c.PermitStatus.choices, default=c.PermitStatus.APPLIED, db_index=True)
    parcel = models.ForeignKey("inventory.Parcel", on_delete=models.PROTECT, related_name="permits")
    owner = models.ForeignKey("inventory.Owner", on_delete=models.PROTECT, related_name="permits")
    system = models.ForeignKey("inventory.System", null=True, blank=True, on_delete=models.SET_NULL, related_name="permits",
                               help_text="The inventory system this permit installs, modifies or reconnects.")
    plumber = models.ForeignKey("accounts.License", on_delete=models.PROTECT, related_name="permits",
                                help_text="The master plumber who signed and is responsible.")
    filed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="permits_filed")
    system_type = models.CharField(max_length=30, choices=c.InspectionSystem.choices, default=c.InspectionSystem.STANDARD)
    work = models.CharField(max_length=200, blank=True, help_text="New system, replacement, modification, reconnection ...")
    building_use = models.CharField(max_length=100, blank=True)
    lot_dimensions = models.CharField(max_length=100, blank=True)
    driving_directions = models.TextField(blank=True)
    reference_points = models.TextField(blank=True)
    estimated_daily_flow_gpd = models.PositiveIntegerField(null=True, blank=True)
    design_flow_gpd = models.PositiveIntegerField(null=True, blank=True)
    bedrooms = models.PositiveSmallIntegerField(null=True, blank=True)
    has_pumps = models.BooleanField(default=False)
    plans_signed = models.BooleanField(default=False)
    state_plan_required = models.BooleanField(default=False)
    plan_stamped_by_designer = models.BooleanField(default=False, help_text="Plan bears an architect's, engineer's or plumbing designer's stamp.")
    existing_system_on_lot = models.BooleanField(default=False)
    recording_required = models.BooleanField(default=False)
    # Facts that decide which documents must be recorded and what a holding tank needs (the profile's
    # recorded_documents and holding_tank rules read them; the applicant states them, staff may amend them).
    holding_tank = models.BooleanField(default=False, help_text="The permit installs or reconnects a holding tank.")
    frequent_servicing = models.BooleanField(default=False, help_text="The system needs servicing more than once every three years.")
    off_lot = models.BooleanField(default=False, help_text="The system, or part of it, is on a different lot than the structure served.")
    shared = models.BooleanField(default=False, help_text="The system serves structures under different ownership (a common system).")
    owned_by_other = models.BooleanField(default=False, help_text="The system is owned by someone other than the lot's owner.")
    flow_not_by_bedrooms = models.BooleanField(default=False, help_text="The design flow of a dwelling is not based on its bedrooms.")
    flow_rated_reconnection = models.BooleanField(default=False, help_text="A reconnection to a system designed for a particular flow or load.")
    nonplumbing_kind = models.CharField(max_length=30, choices=c.NonplumbingKind.choices, blank=True, default="")
    temporary_until = models.DateField(null=True, blank=True, help_text="A temporary holding tank: the day its use ends.")
    temporary_reason = models.CharField(max_length=20, choices=c.TemporaryReason.choices, blank=True, default="")
    placement_days = models.PositiveIntegerField(null=True, blank=True, help_text="A portable restroom: consecutive days on the parcel.")
    container_gallons = models.PositiveIntegerField(null=True, blank=True, help_text="An RV transfer container: its capacity.")
    connected_on = models.DateField(null=True, blank=True, help_text="The day the structure was connected to the installed system.")
    replaces_system = models.BooleanField(default=False, help_text="The permit replaces an existing system; its components "
                                          "not in the new design are abandoned.")
    plot_plan = models.JSONField(null=True, blank=True, help_text="GeoJSON FeatureCollection in feet (powts.setbacks).")
    setback_result = models.JSONField(null=True, blank=True)
    soil_evaluation = models.ForeignKey("SoilEvaluation", null=True, blank=True, on_delete=models.SET_NULL, related_name="permits")

    filed_on = models.DateField()
    decided_on = models.DateField(null=True, blank=True)
    issued_on = models.DateField(null=True, blank=True)
    expires_on = models.DateField(null=True, blank=True, db_index=True)
    completed_on = models.DateField(null=True, blank=True)
    renewals = models.PositiveSmallIntegerField(default=0)
    code_basis_on = models.DateField(null=True, blank=True, help_text="Date of the code the permit conforms to (renewal: code at renewal).")

    objects = PermitQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["jurisdiction", "number"], name="permit_number_unique")]
        ordering = ["-filed_on", "-id"]

    def __str__(self) -> str:
        return f"Permit {self.number}"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("permits:detail", args=[self.pk])

    @property
    def slug(self) -> str:
        return self.jurisdiction.profile_slug

    @property
    def installation_started(self) -> bool:
        return self.inspections.exclude(result=c.InspectionResult.CANCELLED).exists()


class PermitDocument(models.Model):
    """A document filed with an application (plans, soil report, agreements, state approval)."""

    permit = models.ForeignKey(Permit, on_delete=models.CASCADE, related_name="documents")
    kind = models.CharField(max_length=40)
    title = models.CharField(max_length=200, blank=True)
    received_on = models.DateField()
    changed_on = models.DateField(null=True, blank=True, help_text="A contract change: the day the contract changed.")
    recorded = models.BooleanField(default=False, help_text="Recorded with the register of deeds.")
    # What the applicant says is not a verification: staff record the register of deeds' number and date.
    recording_number = models.CharField(max_length=60, blank=True)
    recorded_on = models.DateField(null=True, blank=True)
    recording_verified_on = models.DateField(null=True, blank=True)
    recording_verified_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                              related_name="+")
    # A filing duty missed is recorded, not refused: the copy is kept and staff see how late it came.
    due_on = models.DateField(null=True, blank=True)
    late_days = models.PositiveIntegerField(default=0)
    file = models.FileField(upload_to="permits/%Y/", blank=True)

    class Meta:
        ordering = ["received_on", "id"]

    def __str__(self) -> str:
        return f"{self.kind}: {self.title or 'document'}"


class PermitEvent(models.Model):
    """The permit's timeline in the county's words, each step with its citation."""

    permit = models.ForeignKey(Permit, on_delete=models.CASCADE, related_name="events")
    at = models.DateTimeField()
    on = models.DateField(help_text="The date of the step in law (filing, issuance ...).")
    step = models.CharField(max_length=40)
    summary = models.TextField()
    citation = models.CharField(max_length=300, blank=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        ordering = ["at", "id"]


class Notice(models.Model):
    """A written notice: denial, request for correction, suspension, revocation, fee notice, order."""

    permit = models.ForeignKey(Permit, null=True, blank=True, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=20, choices=c.NoticeKind.choices)
    issued_on = models.DateField()
    recipients = models.JSONField(default=list, blank=True)
    reasons = models.JSONField(default=list, blank=True)
    amendments = models.JSONField(default=list, blank=True)
    appeal_rights = models.TextField(blank=True)
    respond_by = models.DateField(null=True, blank=True)
    citation = models.CharField(max_length=300)

    class Meta:
        ordering = ["issued_on", "id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {self.issued_on}"


class Invoice(models.Model):
    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    permit = models.ForeignKey(Permit, null=True, blank=True, on_delete=models.PROTECT, related_name="invoices")
    fee_code = models.CharField(max_length=40)
    description = models.CharField(max_length=200)
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    retained = models.DecimalField(max_digits=10, decimal_places=2, null=True, blank=True,
                                   help_text="Part kept by the county when the rest was refunded.")
    authority = models.CharField(max_length=300)
    amount_citation = models.CharField(max_length=300)
    schedule_id = models.CharField(max_length=40)
    issued_on = models.DateField()
    due_on = models.DateField(null=True, blank=True)
    due_citation = models.CharField(max_length=300, blank=True)
    status = models.CharField(max_length=8, choices=c.InvoiceStatus.choices, default=c.InvoiceStatus.OPEN, db_index=True)
    payer = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["issued_on", "id"]

    def __str__(self) -> str:
        return f"Invoice {self.pk}: {self.description} ${self.amount}"

    @property
    def paid(self) -> Decimal:
        return self.payments.aggregate(s=Sum("amount"))["s"] or Decimal("0.00")

    @property
    def balance(self) -> Decimal:
        return self.amount - self.paid if self.status != c.InvoiceStatus.VOID else Decimal("0.00")


class Payment(models.Model):
    """Money received (or refunded, negative) against an invoice. powts processes no cards."""

    invoice = models.ForeignKey(Invoice, on_delete=models.PROTECT, related_name="payments")
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    received_on = models.DateField()
    method = models.CharField(max_length=10, choices=c.PaymentMethod.choices)
    reference = models.CharField(max_length=100, blank=True, help_text="Check number, receipt number ...")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        ordering = ["received_on", "id"]

    def __str__(self) -> str:
        return f"Payment ${self.amount} on {self.received_on}"


class PermitChange(models.Model):
    """A renewal, transfer or change of plumber: requested (fee raised), then granted or refused.
    An amendment of the application before the decision: recorded with each field's old and new value."""

    permit = models.ForeignKey(Permit, on_delete=models.CASCADE, related_name="changes")
    kind = models.CharField(max_length=20, choices=c.ChangeKind.choices)
    status = models.CharField(max_length=10, choices=c.ChangeStatus.choices, default=c.ChangeStatus.REQUESTED)
    received_on = models.DateField()
    decided_on = models.DateField(null=True, blank=True)
    new_owner = models.ForeignKey("inventory.Owner", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    new_plumber = models.ForeignKey("accounts.License", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    new_state_approval = models.BooleanField(default=False)
    invoice = models.ForeignKey(Invoice, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    explanation = models.TextField(blank=True)
    citation = models.CharField(max_length=300)
    # An amendment: [{"field", "label", "old", "new"}], the values as people read them; and who made it.
    changed_fields = models.JSONField(default=list, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["received_on", "id"]


class Inspection(models.Model):
    permit = models.ForeignKey(Permit, on_delete=models.CASCADE, related_name="inspections")
    stage = models.CharField(max_length=40)
    stage_citation = models.CharField(max_length=300, blank=True)
    notice_at = models.DateTimeField()
    requested_day = models.DateField()
    deadline_day = models.DateField(help_text="The county inspects by the end of this working day.")
    deadline_citation = models.CharField(max_length=300)
    backfill_after = models.DateField(null=True, blank=True, help_text="Not inspected by the end of this day: the plumber may backfill.")
    notice_findings = models.JSONField(default=list, blank=True)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    inspector = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="inspections_assigned")
    result = models.CharField(max_length=10, choices=c.InspectionResult.choices, default=c.InspectionResult.REQUESTED, db_index=True)
    inspected_on = models.DateField(null=True, blank=True)
    failed_items = models.JSONField(default=list, blank=True)
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["requested_day", "id"]

    def __str__(self) -> str:
        return f"Inspection {self.stage} of {self.permit.number} on {self.requested_day}"


class SoilEvaluation(models.Model):
    """A soil and site evaluation report filed by a certified soil tester, and its verification."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    parcel = models.ForeignKey("inventory.Parcel", on_delete=models.PROTECT, related_name="soil_evaluations")
    soil_tester = models.ForeignKey("accounts.License", on_delete=models.PROTECT, related_name="soil_evaluations")
    fieldwork_completed_on = models.DateField()
    filed_on = models.DateField()
    areas = models.JSONField(default=list, blank=True, help_text="[{name, replacement, pits, depth_below_infiltrative_in, "
                                                      "suitable_soil_in, below_grade_gravity, frozen_within_4in}]")
    findings = models.JSONField(default=list, blank=True)
    verification = models.CharField(max_length=10, choices=c.SoilVerification.choices, default=c.SoilVerification.PENDING)
    verified_on = models.DateField(null=True, blank=True)
    verification_note = models.TextField(blank=True)
    # Filed after the county's filing period: recorded (days late) for staff to act on, not refused.
    due_on = models.DateField(null=True, blank=True)
    late_days = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-filed_on", "-id"]

    def __str__(self) -> str:
        return f"Soil evaluation {self.pk} ({self.parcel.parcel_number})"


class FailureDetermination(models.Model):
    """A determination that a system is failing (Wis. Stat. s. 145.01(4m); categories 1-3)."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    system = models.ForeignKey("inventory.System", on_delete=models.PROTECT, related_name="failure_determinations")
    conditions = models.JSONField(default=list, blank=True)
    category = models.PositiveSmallIntegerField()
    determined_on = models.DateField()
    basis = models.CharField(max_length=20, help_text="inspection (certified inspector) or order")
    inspector_license = models.ForeignKey("accounts.License", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["-determined_on", "-id"]


class CorrectionOrder(models.Model):
    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    system = models.ForeignKey("inventory.System", on_delete=models.PROTECT, related_name="correction_orders")
    determination = models.ForeignKey(FailureDetermination, null=True, blank=True, on_delete=models.PROTECT, related_name="orders")
    issued_on = models.DateField()
    correct_by = models.DateField()
    requirement = models.TextField()
    citation = models.CharField(max_length=300)
    status = models.CharField(max_length=10, choices=c.OrderStatus.choices, default=c.OrderStatus.OPEN)
    corrected_on = models.DateField(null=True, blank=True)
    follow_ups = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["correct_by", "id"]


class Variance(models.Model):
    """A variance for an existing system not meeting siting or design standards (Wis. Stat. s. 145.24): the
    owner petitions the department (or the county petitions on the owner's behalf), the department
    (DSPS) decides, and rescinds it when the system fails or contaminates waters of the state."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    system = models.ForeignKey("inventory.System", on_delete=models.PROTECT, related_name="variances")
    standard = models.CharField(max_length=10, choices=[("siting", "Siting"), ("design", "Design")])
    petitioned_on = models.DateField()
    status = models.CharField(max_length=10, choices=c.VarianceStatus.choices, default=c.VarianceStatus.PETITIONED)
    decided_on = models.DateField(null=True, blank=True)
    rescinded_on = models.DateField(null=True, blank=True)
    reason = models.TextField(blank=True)
    petitioner = models.CharField(max_length=10, choices=c.VariancePetitioner.choices, default=c.VariancePetitioner.COUNTY)
    petitioned_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    decision_reason = models.TextField(blank=True)
    citation = models.CharField(max_length=80, blank=True, help_text="The rule the decision or rescission rests on")
    rescinded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    rescission_ground = models.CharField(max_length=12, choices=c.RescissionGround.choices, blank=True)

    class Meta:
        ordering = ["-petitioned_on", "-id"]


class Clearance(models.Model):
    """The county's approval a building or zoning permit waits for (the profile's clearance rules)."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    parcel = models.ForeignKey("inventory.Parcel", on_delete=models.PROTECT, related_name="clearances")
    kind = models.CharField(max_length=20, choices=c.ClearanceKind.choices)
    requested_on = models.DateField()
    approved = models.BooleanField(default=False)
    decided_on = models.DateField(null=True, blank=True)
    permit = models.ForeignKey(Permit, null=True, blank=True, on_delete=models.PROTECT, related_name="clearances")
    documents = models.JSONField(default=list, blank=True)
    bedrooms_before = models.PositiveSmallIntegerField(null=True, blank=True)
    bedrooms_after = models.PositiveSmallIntegerField(null=True, blank=True)
    living_area_changed_pct = models.DecimalField(max_digits=5, decimal_places=1, null=True, blank=True)
    findings = models.JSONField(default=list, blank=True)
    # An existing system too small for the changed flow, by the load of this many bedrooms, and the affidavit
    # for its use recorded with the register of deeds (the profile's clearance.undersized_affidavit).
    undersized_bedrooms = models.PositiveSmallIntegerField(null=True, blank=True)
    affidavit_recording_number = models.CharField(max_length=60, blank=True)
    affidavit_recorded_on = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ["-requested_on", "-id"]


class EmergencyWork(models.Model):
    """Work that could not wait for a permit (the profile's emergency rule)."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    parcel = models.ForeignKey("inventory.Parcel", on_delete=models.PROTECT, related_name="emergency_work")
    plumber = models.ForeignKey("accounts.License", on_delete=models.PROTECT, related_name="+")
    work_started_on = models.DateField()
    reported_on = models.DateField()
    report_due_on = models.DateField()
    application_due_on = models.DateField()
    permit = models.ForeignKey(Permit, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    description = models.TextField()
    findings = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-work_started_on", "-id"]


class Complaint(models.Model):
    """A public service request (Open311 GeoReport v2)."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    service_code = models.CharField(max_length=40)
    description = models.TextField()
    address = models.CharField(max_length=200, blank=True)
    lat = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)
    long = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)
    email = models.EmailField(blank=True)
    first_name = models.CharField(max_length=100, blank=True)
    last_name = models.CharField(max_length=100, blank=True)
    phone = models.CharField(max_length=40, blank=True)
    status = models.CharField(max_length=8, choices=c.ComplaintStatus.choices, default=c.ComplaintStatus.OPEN)
    status_notes = models.TextField(blank=True)
    requested_at = models.DateTimeField()
    updated_at = models.DateTimeField()
    # The system the complaint is about: found by its address, or linked by staff from the queue.
    system = models.ForeignKey("inventory.System", null=True, blank=True, on_delete=models.SET_NULL, related_name="complaints")
    link = models.CharField(max_length=10, choices=c.ComplaintLink.choices, blank=True, default=c.ComplaintLink.NOT_TRIED)

    class Meta:
        ordering = ["-requested_at", "-id"]
        indexes = [models.Index(fields=["jurisdiction", "link"], name="complaint_to_link")]


class ComponentTest(models.Model):
    """A test of a system component the code or the plan approval requires: noticed like an inspection,
    then verified by the county (inspection during the test, written results, or both)."""

    permit = models.ForeignKey(Permit, on_delete=models.CASCADE, related_name="component_tests")
    component = models.CharField(max_length=200, help_text="What is tested, e.g. septic tank watertightness.")
    notice_at = models.DateTimeField()
    requested_day = models.DateField()
    deadline_day = models.DateField()
    tester = models.ForeignKey("accounts.License", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                               help_text="The licensed person performing the test.")
    verification = models.CharField(max_length=10, choices=c.TestVerification.choices, blank=True, default="")
    passed = models.BooleanField(null=True, blank=True)
    verified_on = models.DateField(null=True, blank=True)
    results = models.TextField(blank=True)
    citation = models.CharField(max_length=300)

    class Meta:
        ordering = ["requested_day", "id"]

    def __str__(self) -> str:
        return f"Test of {self.component} ({self.permit.number})"


class Appeal(models.Model):
    """An appeal of a decision on a permit to the body the county names (filed, heard, decided)."""

    permit = models.ForeignKey(Permit, on_delete=models.CASCADE, related_name="appeals")
    notice = models.ForeignKey(Notice, null=True, blank=True, on_delete=models.SET_NULL, related_name="appeals",
                               help_text="The written decision appealed, when it is a notice.")
    decision = models.CharField(max_length=300, help_text="The decision appealed, in plain words.")
    appellant = models.CharField(max_length=200)
    filed_on = models.DateField()
    hearing_on = models.DateField(null=True, blank=True)
    outcome = models.CharField(max_length=10, choices=c.AppealOutcome.choices, blank=True, default="")
    decided_on = models.DateField(null=True, blank=True)
    outcome_note = models.TextField(blank=True)
    body = models.CharField(max_length=200, help_text="The appeal body, from the county profile.")
    citation = models.CharField(max_length=300)

    class Meta:
        ordering = ["-filed_on", "-id"]

    def __str__(self) -> str:
        return f"Appeal of {self.permit.number} filed {self.filed_on}"


class ComponentAbandonment(models.Model):
    """Components of the replaced system abandoned when the replacement is installed, as the installing plumber
    records them (the profile's replacement_abandonment rule)."""

    permit = models.ForeignKey(Permit, on_delete=models.CASCADE, related_name="abandonments")
    plumber = models.ForeignKey("accounts.License", on_delete=models.PROTECT, related_name="+")
    components = models.CharField(max_length=300, help_text="What was abandoned, e.g. septic tank and drainfield.")
    method = models.CharField(max_length=20, choices=[("crushed_filled", "Tank crushed and filled"), ("removed", "Tank removed")],
                              help_text="How it was abandoned (SPS 383); the same choices as the abandonment final report.")
    abandoned_on = models.DateField()
    citation = models.CharField(max_length=300)

    class Meta:
        ordering = ["abandoned_on", "id"]

    def __str__(self) -> str:
        return f"Abandonment of {self.components} ({self.permit.number})"
