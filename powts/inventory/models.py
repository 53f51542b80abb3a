from django.conf import settings
from django.db import models

from powts.inventory.choices import ComponentKind, DatePrecision, LetterLanguage, OwnerKind, SystemStatus, SystemType
from powts.inventory.querysets import SystemQuerySet
from powts.maps.expressions import STRIP, GridIndex


class Parcel(models.Model):
    """A tax parcel; SPS 383.255 makes the inventory hold its legal description and parcel number."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    parcel_number = models.CharField(max_length=60)
    legal_description = models.TextField(blank=True)
    site_address = models.CharField(max_length=200, blank=True)
    municipality = models.CharField(max_length=100, blank=True, db_index=True)
    site_zip = models.CharField("site ZIP code", max_length=10, blank=True, default="", db_default="",
                                help_text="The site address's ZIP code (BLDS OriginalZip).")
    sewered = models.BooleanField(default=False, help_text="Served by a public sewer.")
    latitude = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)
    longitude = models.DecimalField(max_digits=9, decimal_places=6, null=True, blank=True)
    owner = models.ForeignKey("Owner", null=True, blank=True, on_delete=models.PROTECT, related_name="parcels",
                              help_text="Current owner; the history is in Ownership.")
    # A parcel a plumber named for new construction, not yet checked by county staff (powts.inventory.pending):
    # it carries the application but is left out of the inventory's lists, filters and counts until confirmed.
    pending = models.BooleanField(default=False, db_default=False,
                                  help_text="Named in a permit application; county staff have not yet confirmed it.")
    # Moved on by every edit through the services (powts.inventory.services.claim_version): an editor whose
    # form carries an older number is told what changed instead of overwriting it.
    version = models.PositiveIntegerField(default=1, db_default=1, editable=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["jurisdiction", "parcel_number"], name="parcel_number_unique")]
        # The map's bounding-box query (powts.maps): a range on longitude, then latitude, from the index.
        # The "not on the map" count: parcels with no latitude, a handful, from a partial index.
        # At a close zoom, the map reads the box's longitude strips (powts.maps.expressions), each a latitude range.
        indexes = [models.Index(fields=["longitude", "latitude"], name="parcel_lon_lat"),
                   models.Index(GridIndex(models.F("longitude"), 180, STRIP), "latitude", name="parcel_map_strip"),
                   models.Index(fields=["latitude"], condition=models.Q(latitude__isnull=True), name="parcel_no_latitude"),
                   # The county's pending parcels, a handful: the import confirms those its file names without
                   # reading the parcels it writes (and the index costs nothing for a parcel that is not pending).
                   models.Index(fields=["jurisdiction"], condition=models.Q(pending=True), name="parcel_pending")]
        ordering = ["parcel_number"]

    def __str__(self) -> str:
        return f"Parcel {self.parcel_number}"


class Owner(models.Model):
    """A person or business owning property with a POWTS (SPS 383.255: name and address)."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    name = models.CharField(max_length=200, db_index=True)
    kind = models.CharField(max_length=10, choices=OwnerKind.choices, default=OwnerKind.PERSON)
    mailing_address = models.TextField(blank=True)
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=40, blank=True)
    # The language of this owner's letters; a translation always goes with the English legal notice.
    language = models.CharField(max_length=3, choices=LetterLanguage.choices, default=LetterLanguage.ENGLISH,
                                db_default=LetterLanguage.ENGLISH.value)  # bulk writers (the import) name no language
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="owner_records")
    # Moved on by every edit through the services (powts.inventory.services.claim_version): an editor whose
    # form carries an older number is told what changed instead of overwriting it.
    version = models.PositiveIntegerField(default=1, db_default=1, editable=False)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Ownership(models.Model):
    """Who owned a parcel, from when to when: the ownership history."""

    parcel = models.ForeignKey(Parcel, on_delete=models.CASCADE, related_name="ownerships")
    owner = models.ForeignKey(Owner, on_delete=models.PROTECT, related_name="ownerships")
    started_on = models.DateField(null=True, blank=True)
    ended_on = models.DateField(null=True, blank=True)
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-recorded_at", "-id"]


class System(models.Model):
    """One POWTS in the county inventory (Wis. Stat. s. 145.20(5)(am))."""

    jurisdiction = models.ForeignKey("jurisdictions.Jurisdiction", on_delete=models.PROTECT)
    system_id = models.CharField(max_length=60, help_text="The county's POWTS id.")
    parcel = models.ForeignKey(Parcel, on_delete=models.PROTECT, related_name="systems")
    system_type = models.CharField(max_length=30, choices=SystemType.choices, db_index=True)
    status = models.CharField(max_length=10, choices=SystemStatus.choices, default=SystemStatus.ACTIVE, db_index=True)
    installed_on = models.DateField(null=True, blank=True, db_index=True,
                                    help_text="For a year or month only, the period's last day (powts.kernel.precision).")
    installed_on_precision = models.CharField(max_length=5, choices=DatePrecision.choices, default=DatePrecision.DAY)
    last_serviced_on = models.DateField(null=True, blank=True)
    design_flow_gpd = models.PositiveIntegerField(null=True, blank=True)
    bedrooms = models.PositiveSmallIntegerField(null=True, blank=True)
    structures_served = models.CharField(max_length=200, blank=True)
    permit_number = models.CharField(max_length=60, blank=True, help_text="The sanitary permit that created it.")
    extra = models.JSONField(default=dict, blank=True, help_text="Imported columns powts does not know, kept as they came.")
    # Lower-cased system id, parcel number, address, municipality and owner name: what the search
    # index (SQLite FTS5 trigram / PostgreSQL pg_trgm) is built on.
    search_text = models.TextField(blank=True, editable=False)
    # The parcel's municipality, copied by the database's triggers (powts.inventory.system_town) so the list
    # filtered by town reads one index of systems. Null only so adding it to a million-row table is an ALTER,
    # not a copy of the table; the triggers and the migration fill it.
    municipality = models.CharField(max_length=100, null=True, blank=True, editable=False)
    # Moved on by every edit of the system or its components through the services (powts.inventory.services.claim_version): an editor whose
    # form carries an older number is told what changed instead of overwriting it.
    version = models.PositiveIntegerField(default=1, db_default=1, editable=False)

    objects = SystemQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["jurisdiction", "system_id"], name="system_id_unique")]
        ordering = ["system_id"]
        # The state's view counts every county's systems by type and the failing ones: read from this index alone.
        indexes = [models.Index(fields=["jurisdiction", "system_type", "status"], name="system_county_type_status"),
                   # The list filtered by installation dates: counted, and its page's ids sorted, from this index
                   # alone (the installed_on index made a table read per row: 16,000 for one year). The date
                   # first: led by the county, its statistics turned the map's year filter from the year's systems
                   # to every parcel in the box (200 ms to 1.2 s). With the type, parcel and status the map's
                   # year filter reads no system row either (a year's 18,000 rows read for its 6,000 mounds: 34 ms
                   # of the query's CPU, 12 ms from this index), and SQLite prefers it to the installed_on index.
                   models.Index(fields=["installed_on", "jurisdiction", "system_id", "system_type", "parcel", "status"],
                                name="system_installed_cover"),
                   # A parcel's systems checked for their type and county without reading them: the map's box
                   # (parcels first) joins its systems through this index (without it, a county-wide count of the
                   # systems in a box took twice the CPU).
                   models.Index(fields=["parcel", "system_type", "jurisdiction", "system_id"], name="system_parcel_type"),
                   # The list filtered by town (and type): counted, and its page's ids read in order, from this
                   # index alone. Through the parcel's town it read the town's parcels and their systems (161 ms).
                   models.Index(fields=["jurisdiction", "municipality", "system_type", "system_id"], name="system_county_town_type")]

    def __str__(self) -> str:
        return f"System {self.system_id}"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("inventory:system-detail", args=[self.pk])


class Component(models.Model):
    system = models.ForeignKey(System, on_delete=models.CASCADE, related_name="components")
    kind = models.CharField(max_length=30, choices=ComponentKind.choices)
    capacity_gallons = models.PositiveIntegerField(null=True, blank=True)
    manufacturer = models.CharField(max_length=120, blank=True)
    model = models.CharField(max_length=120, blank=True)
    installed_on = models.DateField(null=True, blank=True)
    installed_on_precision = models.CharField(max_length=5, choices=DatePrecision.choices, default=DatePrecision.DAY)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        size = f", {self.capacity_gallons:,} gal" if self.capacity_gallons else ""
        return f"{self.get_kind_display()}{size}"


class Assignment(models.Model):
    """A contractor given work on a system by the county or the owner: they may then see it."""

    system = models.ForeignKey(System, on_delete=models.CASCADE, related_name="assignments")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assignments")
    assigned_on = models.DateField()
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["system", "user"], name="assignment_unique")]


class ImportFollowUpPending(models.Model):
    """A county whose import committed but whose follow-up (the registered after-import hooks) has not finished.

    Written in the import's own transaction and removed once the follow-up ran, so an import killed
    between the two leaves this row and the next import of the county completes the follow-up."""

    jurisdiction = models.OneToOneField("jurisdictions.Jurisdiction", on_delete=models.CASCADE, primary_key=True,
                                        related_name="+")
    since = models.DateTimeField()


class ImportColumnMap(models.Model):
    """The last mapping of a county's own file headers to the import's columns ("Permit #" -> system_id) used
    in an import: the upload page offers it again for the county's next file."""

    jurisdiction = models.OneToOneField("jurisdictions.Jurisdiction", on_delete=models.CASCADE, primary_key=True,
                                        related_name="+")
    columns = models.JSONField(default=dict)  # the file's header, normalised -> the import's column
    updated_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"column mapping of {self.jurisdiction_id}"
