"""{{ cents|dollars }}: integer cents as $1,234.56 (the law engine's own money words)."""
from django import template

from powts.law.explain import money

register = template.Library()


@register.filter
def dollars(cents):
    return "-" if cents is None else money(int(cents))
