"""Exports of permits and inspections: BLDS (permitdata.org core permit and inspection fields, from
the specification as we know it; not in ../shared/law), plain CSV and JSON."""
from __future__ import annotations

import io
import json

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse, JsonResponse

from powts.core import spreadsheet
from powts.permits import choices as c

BLDS_STATUS = {
    c.PermitStatus.APPLIED: "In Review", c.PermitStatus.HELD: "Application Incomplete",
    c.PermitStatus.APPROVED: "Application Accepted", c.PermitStatus.DENIED: "Permit Cancelled",
    c.PermitStatus.ISSUED: "Permit Issued", c.PermitStatus.COMPLETED: "Permit Finaled",
    c.PermitStatus.EXPIRED: "Permit Expired", c.PermitStatus.SUSPENDED: "Permit Issued",
    c.PermitStatus.REVOKED: "Permit Revoked",
}
PERMIT_FIELDS = ["PermitNum", "Description", "AppliedDate", "IssuedDate", "CompletedDate", "ExpiresDate", "StatusCurrent",
                 "StatusCurrentMapped", "OriginalAddress1", "OriginalState", "Jurisdiction", "PermitClass",
                 "PermitClassMapped", "PermitType", "PermitTypeMapped", "PermitTypeDesc", "WorkClass", "WorkClassMapped",
                 "PIN", "ProposedUse", "ContractorCompanyName", "ContractorTrade", "ContractorTradeMapped",
                 "ContractorLicNum", "ContractorStateLic", "HousingUnits", "Link"]
INSPECTION_FIELDS = ["PermitNum", "InspType", "Result", "RequestDate", "ScheduledDate", "InspectedDate", "InspectionNotes",
                     "Description", "DeadlineDate", "DeadlineCitation"]


def blds_permit(p) -> dict:
    return {
        "PermitNum": p.number, "Description": f"{p.get_kind_display()}: {p.get_system_type_display()} {p.work}".strip(),
        "AppliedDate": p.filed_on.isoformat(), "IssuedDate": p.issued_on.isoformat() if p.issued_on else "",
        "CompletedDate": p.completed_on.isoformat() if p.completed_on else "",
        "ExpiresDate": p.expires_on.isoformat() if p.expires_on else "", "StatusCurrent": p.get_status_display(),
        "StatusCurrentMapped": BLDS_STATUS[p.status], "OriginalAddress1": p.parcel.site_address, "OriginalState": "WI",
        "Jurisdiction": p.jurisdiction.name, "PermitClass": p.building_use, "PermitClassMapped": "Residential"
        if "famil" in p.building_use.lower() or "dwelling" in p.building_use.lower() else "Non-Residential",
        "PermitType": "Sanitary", "PermitTypeMapped": "Plumbing", "PermitTypeDesc": "Private onsite wastewater treatment system",
        "WorkClass": p.work or "New", "WorkClassMapped": "New" if not p.work or "new" in p.work.lower() else "Repair",
        "PIN": p.parcel.parcel_number, "ProposedUse": p.building_use,
        "ContractorCompanyName": p.plumber.business_name or p.plumber.holder_name, "ContractorTrade": p.plumber.get_kind_display(),
        "ContractorTradeMapped": "Plumber", "ContractorLicNum": p.plumber.number, "ContractorStateLic": p.plumber.number,
        "HousingUnits": "", "Link": p.get_absolute_url(),
    }


def blds_inspection(i) -> dict:
    return {"PermitNum": i.permit.number, "InspType": i.stage, "Result": i.get_result_display(),
            "RequestDate": i.notice_at.date().isoformat(), "ScheduledDate": i.requested_day.isoformat(),
            "InspectedDate": i.inspected_on.isoformat() if i.inspected_on else "",
            "InspectionNotes": "; ".join(i.failed_items + ([i.notes] if i.notes else [])), "Description": i.stage_citation,
            "DeadlineDate": i.deadline_day.isoformat(), "DeadlineCitation": i.deadline_citation}


def _csv(rows, fields, name):
    buf = io.StringIO()
    w = spreadsheet.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    resp = HttpResponse(buf.getvalue(), content_type="text/csv; charset=utf-8")
    resp["Content-Disposition"] = f'attachment; filename="{name}"'
    return resp


def response(qs, fmt: str):
    qs = qs.select_related("parcel", "plumber", "jurisdiction").order_by("number")
    if fmt in ("inspections.csv", "inspections.json"):
        from powts.permits.models import Inspection

        rows = [blds_inspection(i) for i in Inspection.objects.filter(permit__in=qs).select_related("permit").order_by("id")]
        return _csv(rows, INSPECTION_FIELDS, "inspections.csv") if fmt.endswith("csv") else \
            JsonResponse({"inspections": rows}, encoder=DjangoJSONEncoder)
    permits = [blds_permit(p) for p in qs]
    if fmt == "csv":
        return _csv(permits, PERMIT_FIELDS, "permits.csv")
    if fmt in ("json", "blds.json"):
        inspections = {}
        from powts.permits.models import Inspection

        for i in Inspection.objects.filter(permit__in=qs).select_related("permit").order_by("id"):
            inspections.setdefault(i.permit.number, []).append(blds_inspection(i))
        if fmt == "blds.json":
            return JsonResponse({"permits": permits, "inspections": [x for v in inspections.values() for x in v]},
                                encoder=DjangoJSONEncoder)
        return HttpResponse(json.dumps([{**p, "inspections": inspections.get(p["PermitNum"], [])} for p in permits],
                                       cls=DjangoJSONEncoder, indent=1), content_type="application/json")
    return JsonResponse({"errors": {"format": [f"unknown format {fmt!r}; one of blds.json, json, csv, inspections.csv, inspections.json"]}},
                        status=404)
