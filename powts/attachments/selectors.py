"""Reading a record's files, for those who may see the record."""
from __future__ import annotations

from django.http import Http404

from powts.attachments.models import Attachment
from powts.attachments.policies import may_view_record, record_type


def for_record(record):
    return Attachment.objects.filter(**{record_type(record): record}).select_related("uploaded_by", "permit_document")


def visible_for(*, user, record) -> list[Attachment]:
    """The record's files, or none when `user` may not see the record."""
    return list(for_record(record)) if may_view_record(user, record) else []


def attachment_get(*, user, pk: int) -> Attachment:
    """One file, only for someone who may see its record: anyone else gets a 404 (its existence is not told)."""
    att = (Attachment.objects.select_related("permit", "report", "complaint", "grant_application").filter(pk=pk).first())
    if att is None or not may_view_record(user, att.record):
        raise Http404("No such file.")
    return att


def for_system(*, user, system) -> list[Attachment]:
    """Files on the system's permits and maintenance reports that `user` may see (the system page)."""
    from django.db.models import Q

    from powts.maintenance.models import Report
    from powts.permits.models import Permit

    permits = Permit.objects.restrict(user, "view").filter(system=system).values("pk")
    reports = Report.objects.restrict(user, "view").filter(system=system).values("pk")
    return list(Attachment.objects.filter(Q(permit__in=permits) | Q(report__in=reports))
                .select_related("permit", "report").order_by("-uploaded_at", "-id")[:200])
