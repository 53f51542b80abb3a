import hashlib

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Upper
from django.db.models.lookups import Exact

from powts.accounts.choices import CONTRACTOR_ROLES, LicenseKind, Role


class User(AbstractUser):
    """A person who signs in. The role decides what they may see and change (see policies.py)."""

    role = models.CharField(max_length=20, choices=Role.choices, default=Role.OWNER)
    jurisdiction = models.ForeignKey(
        "jurisdictions.Jurisdiction", null=True, blank=True, on_delete=models.PROTECT,
        help_text="The county whose staff this is; empty for state auditors and contractors.",
    )
    # Two administrators changing one person: the second is told (powts.inventory.versions).
    version = models.PositiveIntegerField(default=1, db_default=1, editable=False)
    # A county's recusal policy (its profile's oversight.yaml `recusal`, not Wis. Stat. s. 145.20(6)): a county reviewer
    # or inspector steps aside from work of their own firm or of a relative; both are kept on the person's record so
    # the services can refuse (powts.accounts.conflicts).
    firm_name = models.CharField(max_length=200, blank=True, default="", db_default="",
                                 help_text="The business this person owns or works for, if any.")

    @property
    def is_county_staff(self) -> bool:
        """Staff or administrator of a county (see powts.accounts.policies)."""
        from powts.accounts.policies import is_county_staff

        return is_county_staff(self)

    def is_county_staff_of(self, jurisdiction_id) -> bool:
        from powts.accounts.policies import is_county_staff_of

        return is_county_staff_of(self, jurisdiction_id)

    @property
    def is_contractor(self) -> bool:
        return self.role in CONTRACTOR_ROLES

    @property
    def display_name(self) -> str:
        return self.get_full_name() or self.username

    def save(self, *args, **kwargs):
        # Every way a password changes (the page, the admin, `powts changepassword`) passes here:
        # the API tokens and calendar address made under the old one stop working.
        password_changed = self._password is not None and not self._state.adding
        super().save(*args, **kwargs)
        if password_changed:
            from powts.accounts.services import credentials_revoke

            credentials_revoke(user=self, reason="password changed")


class License(models.Model):
    """A license, certification or registration held by a person who files with the county.

    Statewide, not a county's: the texts have the state issue them and the counties only rely on them.
    Plumbers are licensed under Wis. Stat. ch. 145 by the Department of Safety and Professional Services,
    which alone suspends or revokes them (s. 145.20(5)(c)); septage servicing operators under s. 281.17(3)
    by the Department of Natural Resources (same paragraph). Neither county ordinance in the texts registers
    or accepts a license of its own: one requires a person "licensed under Ch. NR 113" to service holding
    tanks, the other lets "only licensed individuals who have received a user name and password" file
    (their citations are in the county profiles): what a county grants is that sign-in, which
    is county data already (User.jurisdiction and the county's permits and reports). So one record per
    state license (kind and number unique), seen and kept current by the staff of every county where its
    holder files; what a holder filed stays scoped to the county it was filed with.
    """

    kind = models.CharField(max_length=40, choices=LicenseKind.choices)
    number = models.CharField(max_length=40)
    holder_name = models.CharField(max_length=200)
    business_name = models.CharField(max_length=200, blank=True)
    mailing_address = models.TextField(blank=True)
    expires_on = models.DateField(null=True, blank=True)
    user = models.ForeignKey(User, null=True, blank=True, on_delete=models.SET_NULL, related_name="licenses")
    # Where known: when the license was issued (a report of work before it is flagged) and where its holder is
    # based (two reports on one day by licenses far apart are flagged) -- powts.oversight.detection.
    issued_on = models.DateField(null=True, blank=True)
    latitude = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)
    longitude = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)
    # Moved on by every edit through powts.accounts.services.license_update: a stale form is told, not applied.
    version = models.PositiveIntegerField(default=1, db_default=1, editable=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "number"], name="license_kind_number_unique")]
        # A license named in a report is found whatever its case (number__same_text), on every report.
        indexes = [models.Index(Upper("number"), name="license_number_upper")]
        ordering = ["holder_name"]

    def __str__(self) -> str:
        return f"{self.holder_name} ({self.get_kind_display()} {self.number})"


class SameText(Exact):
    """`number__same_text=x`: UPPER(number) = UPPER(x), which is what `__iexact` means on both databases
    (PostgreSQL writes it so; SQLite's LIKE and UPPER both fold ASCII only) but through the index on
    UPPER(number): SQLite's LIKE read every license of the state on every report. The value goes to the
    database as given (an equality a compiled query can reuse, powts.core.prepared)."""

    lookup_name = "same_text"

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"UPPER({lhs}) = UPPER({rhs})", (*lhs_params, *rhs_params)


License._meta.get_field("number").register_lookup(SameText)


class CalendarFeed(models.Model):
    """A person's secret calendar address (/permits/calendar/<secret>.ics) for apps that cannot sign in.

    Only the SHA-256 of the secret is kept: the address is shown once, when it is made.
    """

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="calendar_feed")
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"calendar feed of {self.user}"

    @staticmethod
    def digest_of(secret: str) -> str:
        return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


class Relative(models.Model):
    """A relative named on a county employee's record (the county's recusal policy, powts.accounts.conflicts):
    their permits, soil evaluations and reports are work the employee may not review, inspect or approve."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="relatives")
    name = models.CharField(max_length=200)
    relationship = models.CharField(max_length=60, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["user", "name"], name="relative_once")]

    def __str__(self) -> str:
        return f"{self.name} ({self.relationship or 'relative'}) of {self.user}"
