"""Writes for counties: setting one up (the department), changing its own settings (its administrator)."""
from __future__ import annotations

import re

from django.db import transaction
from django.utils import timezone

from powts.audit.services import audit_create, audit_update, snapshot
from powts.jurisdictions import counties
from powts.jurisdictions.county_settings import SETTINGS
from powts.jurisdictions.data_check import first_problem
from powts.jurisdictions.models import CountySetting, CountySettingChange, Jurisdiction
from powts.jurisdictions.profiles import PROFILES_DIR, ProfileError, available, load_profile
from powts.jurisdictions.overlay import touch_stamp
from powts.kernel.profiles import refresh
from powts.kernel.refusals import Refused

# The governmental unit administers the maintenance program and the inventory: why a county is set up at all.
PROGRAM_CITATION = "Wis. Stat. s. 145.20(5)(a)"
SLUG = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


class CountyRefused(Refused):
    """A county that cannot be added, or a setting that cannot be changed, and why."""


def _shipped(slug: str) -> bool:
    return (PROFILES_DIR / slug / "profile.yaml").is_file()


@transaction.atomic
def jurisdiction_ensure(*, slug: str) -> Jurisdiction:
    """The county `slug`: one already set up, or one of the shipped example profiles, created from its
    profile folder on first use. Any other county is added first (`powts county add`, or the department's page)."""
    existing = Jurisdiction.objects.filter(slug=slug).first()
    if existing:
        return existing
    if not _shipped(slug):
        known = sorted({*Jurisdiction.objects.values_list("slug", flat=True), *(s for s in available() if s != "state")})
        hint = (f"; {counties.wisconsin_counties()[slug]} is added with `powts county add {slug} "
                f"--name \"{counties.wisconsin_counties()[slug]}\"`" if slug in counties.wisconsin_counties() else "")
        raise ProfileError(f"unknown jurisdiction {slug!r}: no such county is set up{hint}; set up: {', '.join(known)}")
    profile = load_profile(slug)
    jurisdiction = Jurisdiction(slug=slug, name=profile["name"], profile_slug=slug)
    jurisdiction.full_clean()
    jurisdiction.save()
    return jurisdiction


def _committed() -> None:
    touch_stamp()
    refresh()


def county_add(*, slug: str, name: str, by=None) -> Jurisdiction:
    """Set up one of Wisconsin's 72 counties: on its shipped profile where there is one, else on the state
    minimum profile, which its administrator then adapts on the county's settings page."""
    slug = (slug or "").strip()
    if not SLUG.match(slug):
        raise CountyRefused(f"slug {slug!r} is not a slug: lower-case letters and digits, words joined by hyphens "
                            "(the county's name in lower case without the word County, no dots)", field="slug")
    named = counties.county_named(name or "")
    if named is None:
        raise CountyRefused(f"{(name or '').strip()!r} is not one of Wisconsin's 72 counties ({counties.citation()})",
                            field="name", citation=counties.citation())
    full_name = counties.wisconsin_counties()[named]
    if named != slug:
        raise CountyRefused(f"the slug of {full_name} is {named!r}, not {slug!r}", field="slug")
    with transaction.atomic():
        if Jurisdiction.objects.filter(slug=slug).exists():
            raise CountyRefused(f"{full_name} is already set up (slug {slug!r})", field="slug")
        if Jurisdiction.objects.filter(name__iexact=full_name).exists():
            raise CountyRefused(f"{full_name} is already set up under another slug", field="name")
        unit = Jurisdiction(slug=slug, name=full_name, profile_slug=slug)
        unit.full_clean()
        unit.save()
        audit_create(unit, action=f"county {full_name} set up on the "
                                  f"{'shipped' if _shipped(slug) else 'state minimum'} profile ({PROGRAM_CITATION})")
        CountySettingChange.objects.create(
            jurisdiction=unit, key="county", before=None,
            after={"name": full_name, "profile": "shipped" if _shipped(slug) else "state minimum"},
            citation=PROGRAM_CITATION, at=timezone.now(), by=by if getattr(by, "pk", None) else None)
        refresh()  # this process knows the new county at once; the others on their next request (the stamp moves)
        transaction.on_commit(_committed)
    return unit


def county_setting_change(*, jurisdiction: Jurisdiction, key: str, value: dict, citation: str, by=None,
                          reason: str = "") -> CountySetting:
    """Change one of a county's settings (county_settings.SETTINGS), cited and audited, laid over its profile.

    The profile is read with the new value through every reader that checks the shipped profiles; a value
    one of them refuses is refused with its reason and nothing changes."""
    setting = SETTINGS.get(key)
    if setting is None:
        raise CountyRefused(f"{key!r} is not a setting a county changes; settings: {', '.join(SETTINGS)}", field="key")
    citation = " ".join((citation or "").split())
    if not citation:
        raise CountyRefused("cite the county's ordinance section for this change, or write \"county policy\"", field="citation")
    if len(citation) > 255:
        raise CountyRefused(f"the citation is {len(citation)} characters; at most 255", field="citation")
    if jurisdiction.profile_slug != jurisdiction.slug:
        raise CountyRefused(f"{jurisdiction.name} shares the {jurisdiction.profile_slug!r} profile with other counties; "
                            "its settings cannot be changed apart from theirs")
    try:
        with transaction.atomic():
            row = CountySetting.objects.select_for_update().filter(jurisdiction=jurisdiction, key=key).first()
            before_value = row.value if row else None
            now = timezone.now()
            actor = by if getattr(by, "pk", None) else None
            if row is None:
                row = CountySetting(jurisdiction=jurisdiction, key=key, value=value, citation=citation, changed_at=now,
                                    changed_by=actor)
                row.full_clean()
                row.save()
                audit_create(row, action=f"{jurisdiction.name}: {setting.label.lower()} set ({citation})"[:255])
            else:
                before = snapshot(row, ["value", "citation"])
                row.value, row.citation, row.changed_at, row.changed_by = value, citation, now, actor
                row.full_clean()
                row.save()
                audit_update(row, before=before, action=f"{jurisdiction.name}: {setting.label.lower()} changed ({citation})"[:255])
            CountySettingChange.objects.create(jurisdiction=jurisdiction, key=key, before=before_value, after=value,
                                               citation=citation, reason=(reason or "")[:255], at=now, by=actor)
            refresh()  # read the profile again, with the new value in it
            problem = first_problem(jurisdiction.profile_slug)
            if problem:
                raise CountyRefused(f"not saved: {problem}", field="value")
            transaction.on_commit(_committed)
    except Refused:
        refresh()  # forget the refused value: the profile is read again as it was
        raise
    jurisdiction.__dict__.pop("profile", None)
    return row
