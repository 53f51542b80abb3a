"""The maintenance program's records (Wis. Stat. s. 145.20(5); SPS 383.255, 383.55).

`Schedule` is one row per inventory system holding its computed due date: denormalised and indexed
so the due list over a million systems is one range scan. Services keep it in step (reports,
notices, `schedule_sync` after imports); nothing else writes it.
"""
from django.conf import settings
from django.db import models
from django.db.models import Q

from powts.audit.choices import Channel
from powts.core.querysets import RoleScopedQuerySet
from powts.maintenance.choices import AbandonmentMethod, NoticeKind, ReportKind, ReviewStatus


class Schedule(models.Model):
    system = models.OneToOneField("inventory.System", primary_key=True, on_delete=models.CASCADE, related_name="maintenance_schedule")
    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT, db_index=False)
    system_ref = models.CharField(max_length=60, help_text="The county's POWTS id (copied for the due list).")
    rule = models.CharField(max_length=20)
    interval_months = models.PositiveSmallIntegerField(null=True, blank=True)
    basis_on = models.DateField(null=True, blank=True, help_text="Last qualifying event, or installation.")
    basis_kind = models.CharField(max_length=20, blank=True)
    due_on = models.DateField(null=True, blank=True)
    notice_on = models.DateField(null=True, blank=True, help_text="First notice date: due_on minus the lead time (and spread).")
    due_extended_from = models.DateField(null=True, blank=True,
                                         help_text="The computed due date, when a late first notice moved due_on to keep the lead time.")
    needs_data = models.BooleanField(default=False)
    exempt = models.BooleanField(default=False)
    pumping_required = models.BooleanField(default=False)
    failure_reported = models.BooleanField(default=False)
    stage = models.CharField(max_length=20, blank=True, choices=NoticeKind.choices, help_text="Last notice sent for this due date.")
    stage_on = models.DateField(null=True, blank=True)
    delinquent = models.BooleanField(default=False)
    # Kept by the database's triggers from the system, its parcel's owner and the owner's address check
    # (powts.maintenance.notice_flags), so the notices page counts its letters from one index: whatever a
    # writer puts here is put right by the triggers.
    retired = models.BooleanField(default=False, db_default=False, help_text="The system is abandoned or replaced: no letters.")
    held = models.BooleanField(null=True, default=None,
                               help_text="Letters held back (no owner of record, or an address that cannot be mailed); "
                                         "empty while the owner's address is not yet checked.")
    # What the schedule was computed from, to find stale rows after an inventory import.
    src_system_type = models.CharField(max_length=30, blank=True)
    src_installed_on = models.DateField(null=True, blank=True)
    src_last_serviced_on = models.DateField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            # Covering the due list (notice_on <= as_of): read from the index alone, no table lookups.
            models.Index(fields=["jurisdiction", "notice_on", "due_on", "system_ref"], name="maint_sched_due_list"),
            models.Index(fields=["jurisdiction", "due_on"], name="maint_sched_due"),
            models.Index(fields=["jurisdiction"], condition=Q(needs_data=True), name="maint_sched_needs_data"),
            # The dashboard's delinquent and pumping-required lists (selectors.morning_lists): the few such
            # schedules in due order, not a walk of every schedule in due order looking for them (15 s at 1,000,000).
            models.Index(fields=["jurisdiction", "due_on"], condition=Q(delinquent=True), name="maint_sched_delinquent"),
            models.Index(fields=["jurisdiction", "due_on"], condition=Q(pumping_required=True), name="maint_sched_pumping"),
            # the notices page: each kind of notice is the rows at one stage past a date (powts.maintenance.notice_page),
            # counted and paged from this index alone (system is the page's order; the rest are the kinds' filters)
            models.Index(fields=["jurisdiction", "stage", "notice_on", "due_on", "system", "stage_on", "exempt", "retired", "held"],
                         name="maint_sched_notices"),
        ]

    def __str__(self) -> str:
        return f"Schedule of {self.system_ref}"


class AddressCheck(models.Model):
    """Whether an owner's mailing address can be mailed to (`addresses.problem`, which is Python): written by
    `notice_flags.recheck`, dropped by a trigger when the address changes (powts.maintenance.notice_flags)."""

    owner = models.OneToOneField("inventory.Owner", primary_key=True, on_delete=models.CASCADE, db_constraint=False, related_name="+")
    usable = models.BooleanField()

    def __str__(self) -> str:
        return f"Address of owner {self.owner_id}: {'usable' if self.usable else 'not usable'}"


class StandingCount(models.Model):
    """How many of a county's schedules share one key: the dashboard's counts on any date are sums of these
    (powts.maintenance.standing_counts). Written only by the database's triggers and `rebuild`."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.CASCADE, db_index=False,
                                     db_constraint=False)
    rule = models.CharField(max_length=20)
    system_type = models.CharField(max_length=30)
    municipality = models.CharField(max_length=100)
    exempt = models.BooleanField()
    needs_data = models.BooleanField()
    delinquent = models.BooleanField()
    failing = models.BooleanField()
    notice_on = models.DateField(help_text="9999-12-31 when the schedule has none.")
    due_on = models.DateField(help_text="9999-12-31 when the schedule has none.")
    n = models.IntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(
            fields=["jurisdiction", "rule", "system_type", "municipality", "exempt", "needs_data", "delinquent", "failing",
                    "notice_on", "due_on"], name="maint_standing_key")]

    def __str__(self) -> str:
        return f"{self.n} schedules due {self.due_on}"


class SystemCount(models.Model):
    """How many systems a county has, kept by the database's triggers (powts.maintenance.standing_counts)."""

    jurisdiction = models.OneToOneField("jurisdictions.Jurisdiction", on_delete=models.CASCADE, db_constraint=False,
                                        related_name="+")
    n = models.IntegerField()

    def __str__(self) -> str:
        return f"{self.n} systems"


class ActivityCount(models.Model):
    """A county's reports (by work date), late reports and notices (by mailing date) on one day: the dashboard
    chart sums a year of these (powts.maintenance.activity_counts). Written only by the database's triggers."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.CASCADE, db_index=False,
                                     db_constraint=False, related_name="+")
    day = models.DateField()
    reports = models.IntegerField()
    late = models.IntegerField()
    notices = models.IntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["jurisdiction", "day"], name="maint_activity_day")]

    def __str__(self) -> str:
        return f"{self.reports} reports, {self.notices} notices on {self.day}"


class ReportQuerySet(RoleScopedQuerySet):
    dnr_reads = True

    def restrict_others(self, user, action: str):
        """Owners see their systems' reports (view only); contractors the reports they filed."""
        from powts.accounts.choices import Role

        if user.role == Role.OWNER:
            return self.filter(system__parcel__owner__user=user) if action == "view" else self.none()
        from powts.accounts.choices import CONTRACTOR_ROLES

        return self.filter(filed_by=user) if user.role in CONTRACTOR_ROLES else self.none()


class Report(models.Model):
    """An inspection, pumping or servicing report (SPS 383.55: POWTS id, location, date, license)."""

    objects = ReportQuerySet.as_manager()

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    system = models.ForeignKey("inventory.System", null=True, blank=True, on_delete=models.PROTECT, related_name="maintenance_reports")
    system_ref = models.CharField(max_length=60, help_text="The POWTS id as filed.")
    location = models.CharField(max_length=200, blank=True, help_text="As filed; needed for systems not in the inventory.")
    kind = models.CharField(max_length=20, choices=ReportKind.choices)
    work_date = models.DateField()
    license = models.ForeignKey("accounts.License", on_delete=models.PROTECT, related_name="maintenance_reports")
    sludge_scum_fraction = models.DecimalField(max_digits=5, decimal_places=4, null=True, blank=True)
    effluent_ponding = models.BooleanField(null=True, blank=True)
    gallons_pumped = models.PositiveIntegerField(null=True, blank=True)
    disposal_site = models.CharField(max_length=200, blank=True)
    components_serviced = models.CharField(max_length=300, blank=True)
    failure_observed = models.BooleanField(default=False)
    water_meter_reading = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    abandonment_method = models.CharField(max_length=20, choices=AbandonmentMethod.choices, blank=True,
                                          help_text="A final report of abandonment: how the tank was abandoned.")
    notes = models.TextField(blank=True)
    filed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="maintenance_reports")
    channel = models.CharField(max_length=10, choices=Channel.choices, default=Channel.WEB)
    filed_at = models.DateTimeField()
    late = models.BooleanField(default=False, help_text="Filed more than 30 days after the work (SPS 383.55).")
    review_status = models.CharField(max_length=10, choices=ReviewStatus.choices, blank=True, default=ReviewStatus.NONE)
    failure_flag = models.BooleanField(default=False, help_text="Ponding or failure observed: for staff to follow up.")
    failure_reviewed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-work_date", "-id"]
        constraints = [
            # The same system, date and license is the same report filed twice.
            models.UniqueConstraint(fields=["jurisdiction", "system_ref", "work_date", "license"], name="maint_report_once"),
        ]
        indexes = [
            models.Index(fields=["system", "work_date"], name="maint_report_system"),
            models.Index(fields=["jurisdiction", "review_status"], name="maint_report_review"),
            models.Index(fields=["jurisdiction", "filed_at"], name="maint_report_filed"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} report {self.system_ref} {self.work_date}"


class ReportFile(models.Model):
    """One contractor report file accepted for reading (web, API or command): its rows count toward the filer's
    daily limit in the county (reports.files in maintenance.yaml, county policy)."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    filed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="maintenance_report_files", help_text="Empty: filed from the command line.")
    channel = models.CharField(max_length=10, choices=Channel.choices, default=Channel.WEB)
    filed_at = models.DateTimeField()
    rows = models.PositiveIntegerField(help_text="Rows in the file (blank lines not counted).")
    stored = models.PositiveIntegerField(default=0)
    rejected = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-filed_at", "-id"]
        indexes = [models.Index(fields=["jurisdiction", "filed_by", "filed_at"], name="maint_reportfile_day")]

    def __str__(self) -> str:
        return f"report file of {self.rows} rows, {self.filed_at:%Y-%m-%d}"


class ServicingContract(models.Model):
    """A holding tank's servicing contract on file (cited per county: holding_tanks.contract_citation in maintenance.yaml)."""

    system = models.ForeignKey("inventory.System", on_delete=models.CASCADE, related_name="servicing_contracts")
    provider_name = models.CharField(max_length=200)
    provider_address = models.TextField(blank=True)
    license = models.ForeignKey("accounts.License", null=True, blank=True, on_delete=models.PROTECT)
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    filed_on = models.DateField()
    water_meter_required = models.BooleanField(default=False, help_text="Meter readings at each pumping, where the county's profile has the water meter remedy.")

    class Meta:
        ordering = ["-starts_on", "-id"]

    def __str__(self) -> str:
        return f"Servicing contract {self.provider_name} from {self.starts_on}"


class HoldingTankReport(models.Model):
    """The holding tank servicing report with the items the county lists (holding_tanks.report_citation)."""

    system = models.ForeignKey("inventory.System", on_delete=models.CASCADE, related_name="holding_tank_reports")
    period_start = models.DateField()
    period_end = models.DateField()
    servicer_name = models.CharField(max_length=200, help_text="a. name of the person responsible for servicing")
    servicer_address = models.TextField(help_text="a. and address")
    owner_name = models.CharField(max_length=200, help_text="b. the name of the owner")
    location = models.CharField(max_length=200, help_text="c. the location of the property")
    sanitary_permit_number = models.CharField(max_length=60, help_text="d. the sanitary permit number")
    # e.-g.: [{"date": "YYYY-MM-DD", "gallons": int, "disposal_site": str, "meter_reading": optional}]
    services = models.JSONField(default=list)
    license = models.ForeignKey("accounts.License", null=True, blank=True, on_delete=models.PROTECT)
    filed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    filed_at = models.DateTimeField()

    class Meta:
        ordering = ["-period_end", "-id"]
        constraints = [models.UniqueConstraint(fields=["system", "period_start", "period_end"], name="maint_holding_report_once")]

    def __str__(self) -> str:
        return f"Holding tank report {self.period_start} to {self.period_end}"


class Notice(models.Model):
    """A letter to an owner. Never twice: one per system, kind and due date."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    system = models.ForeignKey("inventory.System", on_delete=models.CASCADE, related_name="maintenance_notices")
    owner = models.ForeignKey("inventory.Owner", null=True, blank=True, on_delete=models.SET_NULL, related_name="maintenance_notices")
    kind = models.CharField(max_length=20, choices=NoticeKind.choices)
    due_on = models.DateField(help_text="The due date the notice concerns.")
    as_of = models.DateField(help_text="The mailing date.")
    sent_at = models.DateTimeField()
    batch = models.CharField(max_length=60, db_index=True)
    to_name = models.CharField(max_length=200)
    to_address = models.TextField(blank=True)
    to_email = models.EmailField(blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)
    email_error = models.CharField(max_length=300, blank=True)
    # A bounce that came back after the mail server had accepted the message (powts.maintenance.bounces).
    bounced_at = models.DateTimeField(null=True, blank=True, help_text="When the owner's mail server said the e-mail could not be delivered.")
    bounce_reason = models.CharField(max_length=300, blank=True, default="", db_default="")
    pdf_path = models.CharField(max_length=500, blank=True)
    citation = models.CharField(max_length=300, blank=True)
    language = models.CharField(max_length=3, default="en", db_default="en", help_text="The letter's language; English always goes with a translation.")

    class Meta:
        ordering = ["-sent_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["system", "kind", "due_on"], name="maint_notice_once")]
        indexes = [models.Index(fields=["jurisdiction", "as_of"], name="maint_notice_asof"),
                   # the dashboard's "letters recorded for this period" (selectors.holding_letters_sent): the county's few
                   # letters of one kind and due date, not all its notices (74 ms at a year of 900,000)
                   models.Index(fields=["jurisdiction", "kind", "due_on"], name="maint_notice_kind_due")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.system_id} due {self.due_on}"


class BatchStatus(models.TextChoices):
    """A batch's state in its page's words: the state of the job that sends it (powts.jobs.models.JobState)."""
    QUEUED = "queued", "Waiting to start"
    RUNNING = "running", "Sending"
    DONE = "done", "Sent"
    FAILED = "failed", "Stopped by an error"


class NoticeBatch(models.Model):
    """A mailing asked for from the notices page: one per county and mailing date, so sending twice
    does the work once. Its job (powts.jobs) owns the state, progress, claim, heartbeat and retry; the
    batch keeps what it sent: its letters, their label and the counts."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    as_of = models.DateField(help_text="The mailing date.")
    job = models.ForeignKey("jobs.Job", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                            help_text="The background job that sends the batch: its state, progress and error.")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    requested_at = models.DateTimeField()
    total = models.PositiveIntegerField(default=0, help_text="Letters printed.")
    counts = models.JSONField(default=dict, blank=True)
    held = models.PositiveIntegerField(default=0, help_text="Owners held back: no usable mailing address.")
    emailed = models.PositiveIntegerField(default=0)
    email_failed = models.PositiveIntegerField(default=0)
    batch = models.CharField(max_length=60, blank=True, help_text="The batch label on its notices.")
    merged_path = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["-as_of", "-id"]
        constraints = [models.UniqueConstraint(fields=["jurisdiction", "as_of"], name="maint_batch_once_a_day")]

    def __str__(self) -> str:
        return f"Notice batch {self.as_of} ({self.get_status_display()})"

    @property
    def status(self) -> str:
        """The job's state (a batch recorded but not yet given its job is waiting to start)."""
        return self.job.state if self.job_id else BatchStatus.QUEUED

    def get_status_display(self) -> str:
        return BatchStatus(self.status).label

    @property
    def error(self) -> str:
        return self.job.error if self.job_id else ""

    @property
    def finished_at(self):
        return self.job.finished_at if self.job_id else None
