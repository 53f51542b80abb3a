"""Names of the demo's people (`powts demo`): the demo command's default county gets the bare names
(staff, plumber, ...), any other county the names with its slug appended (staff-<slug>), so several
demo counties can live in one database. One place for the rule, used by every app's demo loader."""

DEFAULT_COUNTY = "dane"  # the demo command's --jurisdiction default: demo data, not a rule of law


def demo_name(base: str, slug: str) -> str:
    return base if slug == DEFAULT_COUNTY else f"{base}-{slug}"
