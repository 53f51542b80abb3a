from django import template

from powts.law.explain import money as _money

register = template.Library()


@register.filter
def money(cents) -> str:
    """Integer cents as $1,234.56 (the law engine's own format)."""
    return "" if cents is None else _money(int(cents))
