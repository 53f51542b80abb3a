"""{% load dashboard_rows %}: the dashboard's long lists and its two tables, a row each in one pattern.

The holding tanks overdue list alone has up to 200 items; through the template engine each item's lookups,
filters and escapes cost tens of µs (at 1,000,000 systems rendering took 16 of the page's 58 ms of CPU, 8 after).
Each tag writes what the template wrote, byte for byte (test_dashboard_rows.py renders both and compares)."""
from django import template
from django.contrib.humanize.templatetags.humanize import intcomma
from django.utils.safestring import mark_safe

from powts.core.links import id_urls
from powts.core.rows import escaped, iso, row

register = template.Library()

_CELL = '<td class="text-right"><a href="{}">{}</a></td>'
_DELINQUENT = '<li><a href="{}">{}</a>, due {}, {} sent {}</li>'
_PUMPING = '<li><a href="{}">{}</a>: pump by {}</li>'
_SYSTEM = '<li><a href="{}">{}</a> {}</li>'
_HOLDING = '<li><a href="{}">{}</a> {}, {}</li>'


def _cells(cells) -> str:
    return "".join(row(_CELL, href, intcomma(n)) if n else '<td class="text-right">0</td>' for n, href in cells)


@register.simple_tag
def standing_rows(rows, blank=None):
    """The by-type or by-town table's rows: (name, [(count, link), ...]); with `blank`, a name empty or None shows
    it (as |default: does)."""
    return mark_safe("".join(f'<tr><th scope="row">{escaped(name if blank is None else name or blank)}</th>{_cells(cells)}</tr>'
                             for name, cells in rows))


@register.simple_tag
def delinquent_items(schedules):
    system = id_urls("inventory:system-detail")
    return mark_safe("".join(row(_DELINQUENT, system(s.system_id), s.system_ref, iso(s.due_on), s.get_stage_display(), iso(s.stage_on))
                             for s in schedules))


@register.simple_tag
def pumping_items(schedules):
    system = id_urls("inventory:system-detail")
    return mark_safe("".join(row(_PUMPING, system(s.system_id), s.system_ref, iso(s.due_on)) for s in schedules))


@register.simple_tag
def system_items(systems):
    """Systems, each with its site address (the holding tanks without a contract)."""
    system = id_urls("inventory:system-detail")
    return mark_safe("".join(row(_SYSTEM, system(s.pk), s.system_id, s.parcel.site_address) for s in systems))


@register.simple_tag
def holding_items(lines):
    """selectors.holding_overdue_lines: (pk, POWTS id, site address, owner's name or None)."""
    system = id_urls("inventory:system-detail")
    return mark_safe("".join(row(_HOLDING, system(pk), system_id, address, owner or "") for pk, system_id, address, owner in lines))
