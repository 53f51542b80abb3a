"""{% load powts_dates %}: dates shown as precisely as they are known, on every page and letter."""
from django import template

from powts.kernel import precision as p

register = template.Library()


@register.filter
def installed_display(on, precision="day"):
    """{{ system.installed_on|installed_display:system.installed_on_precision }} -> "1987", "June 1987"
    or "June 30, 1987"; empty when there is no date (chain |default:"not known")."""
    return p.display(on, precision or p.DAY)


@register.filter
def installed_iso(on, precision="day"):
    """The same in a table's or export's ISO form: "1987", "1987-06", "1987-06-30"."""
    return p.display(on, precision or p.DAY, style="iso")
