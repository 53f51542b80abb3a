"""{% load notice_rows %}: the notices page's two tables' rows, written in one pass each.

The page shows up to 200 rows; through the template engine each row's ~20 lookups, filters and escapes
cost about 55 µs (11 ms a page, a sixth of the page as of 30 days on). Here each row is one format_html
(as powts.core.rows.row) with the same filters, so the HTML is the same, byte for byte (test_notice_page.py compares them)."""
from django import template
from django.template.defaultfilters import capfirst, date, linebreaksbr
from django.utils.safestring import mark_safe

from powts.core.links import id_urls
from powts.core.rows import iso as _iso
from powts.core.rows import row as _row

register = template.Library()

_LETTER = ('<tr>\n      <td><a href="{}">{}</a></td><td>{}</td><td>{}</td>\n      <td>{}</td><td>{}</td><td>{}</td>\n'
           '      <td><a href="{}?as_of={}" aria-label="View the letter to {} for {}">View letter</a></td></tr>')
_HELD = ('<tr>\n      <td><a href="{}">{}</a></td><td>{}</td>\n      <td>{}</td><td>{}</td>\n'
         '      <td><a href="{}?as_of={}">View ({})</a></td></tr>')


def _links(as_of):
    """Each row's two links, reversed once a table (powts.core.links), and the day the letter is seen as of."""
    return id_urls("inventory:system-detail"), id_urls("maintenance:notice-preview"), date(as_of, "Y-m-d")


@register.simple_tag
def letter_rows(letters, as_of):
    system, letter, day = _links(as_of)
    return mark_safe("".join(_row(
        _LETTER, system(p.system_id), p.system_ref, p.to_name, p.get_kind_display(), _iso(p.due_on), p.language_label,
        "yes" if p.to_email else "", letter(p.system_id), day, p.to_name, p.system_ref) for p in letters))


@register.simple_tag
def held_rows(held, as_of):
    system, letter, day = _links(as_of)
    return mark_safe("".join(_row(
        _HELD, system(p.system_id), p.system_ref, p.to_name, linebreaksbr(p.to_address or "", autoescape=True) or "none",
        capfirst(p.address_problem), letter(p.system_id), day, p.get_kind_display().lower()) for p in held))
