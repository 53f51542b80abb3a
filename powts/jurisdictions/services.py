from django.db import transaction

from powts.jurisdictions.models import Jurisdiction
from powts.jurisdictions.profiles import ProfileError, load_profile


@transaction.atomic
def jurisdiction_ensure(*, slug: str) -> Jurisdiction:
    """The jurisdiction for a shipped profile, created from the profile on first use."""
    existing = Jurisdiction.objects.filter(slug=slug).first()
    if existing:
        return existing
    profile = load_profile(slug)  # raises ProfileError naming the known slugs
    jurisdiction = Jurisdiction(slug=slug, name=profile["name"], profile_slug=slug)
    jurisdiction.full_clean()
    jurisdiction.save()
    return jurisdiction


__all__ = ["jurisdiction_ensure", "ProfileError"]
