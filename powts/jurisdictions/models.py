from django.db import models
from django.utils.functional import cached_property

from powts.jurisdictions.profiles import load_profile


class Jurisdiction(models.Model):
    """A governmental unit (Wis. Stat. s. 145.01(5)) running a POWTS program.

    Its rules live in the profile folder named by `profile_slug`; the row only ties records to it.
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
