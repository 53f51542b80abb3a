from django.contrib.contenttypes.models import ContentType
from django.db.models import Q

from powts.audit.models import AuditEvent


def history_for(*objects) -> list[AuditEvent]:
    """The timeline of one record or several (a system with its parcel and owner), newest first."""
    query = Q()
    for obj in objects:
        if obj is None:
            continue
        ct = ContentType.objects.get_for_model(obj, for_concrete_model=True)
        query |= Q(content_type=ct, object_id=obj.pk)
    if not query:
        return []
    return list(AuditEvent.objects.filter(query).select_related("actor", "content_type").order_by("-at", "-id")[:500])
