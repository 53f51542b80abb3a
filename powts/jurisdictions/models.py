from django.conf import settings
from django.db import models
from django.utils.functional import cached_property

from powts.jurisdictions.profiles import load_profile


class Jurisdiction(models.Model):
    """A governmental unit (Wis. Stat. s. 145.01(5)) running a POWTS program.

    Its rules live in the profile folder named by `profile_slug`, or, for a county set up without one, in the
    state minimum profile; its own settings (CountySetting) are laid over them. The row ties records to it.
    """

    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=120)
    profile_slug = models.SlugField(help_text="The county's profile folder name (its slug)")

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @cached_property
    def profile(self) -> dict:
        return load_profile(self.profile_slug)


class CountySetting(models.Model):
    """A county's own value for one of its profile's settings (powts.jurisdictions.county_settings), set by its
    administrator and laid over the shipped profile when it loads. Kept here, outside the code tree, so an
    upgrade never overwrites it."""

    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.CASCADE, related_name="settings")
    key = models.CharField(max_length=40)
    value = models.JSONField()
    citation = models.CharField(max_length=255, help_text="The county's ordinance section, or \"county policy\"")
    changed_at = models.DateTimeField()
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["jurisdiction", "key"], name="one_value_per_county_setting")]
        ordering = ["jurisdiction", "key"]

    def __str__(self) -> str:
        return f"{self.jurisdiction} setting {self.key}"


class CountySettingChange(models.Model):
    """Every change to a county's settings, and the county's creation: before, after, citation, who, when."""

    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.CASCADE, related_name="setting_changes")
    key = models.CharField(max_length=40)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    citation = models.CharField(max_length=255)
    reason = models.CharField(max_length=255, blank=True)
    at = models.DateTimeField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.jurisdiction} {self.key} changed {self.at:%Y-%m-%d}"
