"""Labels for the stored words the permit pages show (document kinds, inspection stages, complaint
services, failure bases): people read words, never the codes the records keep."""
from django import template

from powts.permits.choices import DOCUMENT_KINDS

register = template.Library()

FAILURE_BASES = {"inspection": "inspection by a certified inspector", "order": "enforcement order"}


def _words(code) -> str:
    text = str(code or "").replace("_", " ").replace("-", " ").strip()
    return text[:1].upper() + text[1:]


@register.filter
def document_kind(code) -> str:
    return DOCUMENT_KINDS.get(code) or _words(code)


@register.simple_tag
def document_kinds():
    """(code, label) for the add-a-document form's choices."""
    return list(DOCUMENT_KINDS.items())


@register.filter
def stage_label(code) -> str:
    """An inspection stage: "before_backfill" -> "Before backfill"."""
    return _words(code)


@register.filter
def complaint_service(code) -> str:
    from powts.permits.services.enforcement import SERVICES

    return next((s["service_name"] for s in SERVICES if s["service_code"] == code), _words(code))


@register.filter
def failure_basis(code) -> str:
    return FAILURE_BASES.get(code) or _words(code)
