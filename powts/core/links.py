"""A table's per-row links, reversed once per table instead of once per row.

`{% url 'inventory:system-detail' p.system_id %}` costs about 40 µs (the resolver matches every candidate
pattern and quotes the result); a notices page has about 400 of them. `id_urls('inventory:system-detail')`
gives a function id -> the same URL: the view is reversed once with a marker id, and each row's id replaces
the marker."""
from django.urls import get_script_prefix, get_urlconf, reverse

_MARKER = "9081726354"  # an id no row has; its digits appear once in the reversed URL
_reversed: dict[tuple, tuple[str, str]] = {}


def _around(viewname: str) -> tuple[str, str]:
    """The URL's text before and after its one id argument (per URL conf and script prefix, as reverse is)."""
    key = (get_urlconf(), get_script_prefix(), viewname)
    found = _reversed.get(key)
    if found is None:
        head, marker, tail = reverse(viewname, args=[int(_MARKER)]).partition(_MARKER)
        if not marker or _MARKER in tail or _MARKER in head:
            raise ValueError(f"{viewname} does not take one integer id")
        found = _reversed[key] = (head, tail)
    return found


def id_urls(viewname: str):
    """A function id -> the URL of `viewname` for it, as {% url viewname id %} gives it (for a table's rows)."""
    head, tail = _around(viewname)

    def url(pk) -> str:
        pk = int(pk)
        if pk < 0:  # no <int:> pattern matches it: NoReverseMatch, as from {% url %}
            return reverse(viewname, args=[pk])
        return f"{head}{pk}{tail}"
    return url
