"""{% attachments_panel record %}: a record's files and the form to add one, for the signed-in person;
{% system_files system %}: the files of a system's permits and reports (the system page)."""
from django import template

from powts.attachments import choices as c
from powts.attachments import policies, selectors
from powts.attachments.services import max_bytes

register = template.Library()


def _accept(kinds) -> str:
    types = sorted({t for k in kinds for t in c.ALLOWED[c.Kind(k)]})
    return ",".join(types + [f".{c.EXTENSIONS[t]}" for t in types] + [".jpeg"] * (c.JPEG in types))


@register.inclusion_tag("attachments/_panel.html", takes_context=True)
def attachments_panel(context, record, heading_level=2, heading="Documents and photos"):
    request = context["request"]
    user = request.user
    rtype = policies.record_type(record)
    kinds = c.RECORD_KINDS[rtype]
    files = selectors.visible_for(user=user, record=record)
    return {
        "request": request, "csrf_token": context.get("csrf_token"), "record": record, "record_type": rtype,
        "files": [(f, policies.may_delete(user, f)) for f in files], "heading": heading, "hl": heading_level,
        "can_attach": policies.may_attach(user, record), "kinds": [(k, c.Kind(k).label) for k in kinds],
        "accept": _accept(kinds), "largest": max(max_bytes(k) for k in kinds) // (1024 * 1024),
        "dom": f"att-{rtype}-{record.pk}",
    }


@register.inclusion_tag("attachments/_system_files.html", takes_context=True)
def system_files(context, system):
    return {"files": selectors.for_system(user=context["request"].user, system=system)}
