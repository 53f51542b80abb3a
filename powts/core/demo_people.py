"""Names of the demo's people (`powts demo`): the demo's default county (marked `default: true` in its
profile's demo.yaml) gets the bare names (staff, plumber, ...), any other county the names with its slug
appended (staff-<slug>), so several demo counties can live in one database. One place for the rule, used
by every app's demo loader."""


def demo_name(base: str, slug: str) -> str:
    from powts.inventory.demo_data import suffix

    return base + suffix(slug)
