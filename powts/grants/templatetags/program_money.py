from django import template

register = template.Library()


@register.filter
def dollars(cents) -> str:
    """Integer cents as "$1,234.56" (a negative change as "-$12.00"); blank for none."""
    if cents is None or cents == "":
        return ""
    c = int(cents)
    sign = "-" if c < 0 else ""
    c = abs(c)
    return f"{sign}${c // 100:,}.{c % 100:02d}"
