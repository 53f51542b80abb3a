"""Exports of permits and inspections: BLDS (permitdata.org core permit and inspection fields, from
the specification as we know it; not in ../shared/law), plain CSV and JSON."""
from __future__ import annotations

import io
import json

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse, JsonResponse

from powts.core import spreadsheet
from powts.permits import choices as c

# BLDS's standard values for StatusCurrentMapped (permitdata.org core permits dataset). A county word with
# no standard value of its own is mapped to the nearest one; the county's own word stays in StatusCurrent.
BLDS_STATUS_VALUES = ("Appeal", "Application Accepted", "Fees/Payment", "In Review", "Inspection Phase", "Occupancy",
                      "Permit Cancelled", "Permit Finaled", "Permit Finaled with Conditions", "Permit Issued")
BLDS_STATUS = {
    c.PermitStatus.APPLIED: "In Review",
    c.PermitStatus.HELD: "In Review",  # held for correction: the application is still being reviewed
    c.PermitStatus.APPROVED: "Fees/Payment",  # approved, fees due before issue
    c.PermitStatus.DENIED: "Permit Cancelled",
    c.PermitStatus.ISSUED: "Permit Issued",
    c.PermitStatus.COMPLETED: "Permit Finaled",
    c.PermitStatus.EXPIRED: "Permit Cancelled",  # no longer valid; BLDS has no "expired"
    c.PermitStatus.SUSPENDED: "Permit Issued",  # still issued, work stopped until reinstated
    c.PermitStatus.REVOKED: "Permit Cancelled",
    c.PermitStatus.VOID: "Permit Cancelled",  # invalid: the property changed hands without a transfer form
}
# Every column of BLDS's core permits dataset: the required ones, then the recommended, then the optional
# ones powts has values for. A column powts has no value for is written empty, never left out.
PERMIT_FIELDS = ["PermitNum", "Description", "AppliedDate", "IssuedDate", "CompletedDate", "StatusCurrent",
                 "OriginalAddress1", "OriginalAddress2", "OriginalCity", "OriginalState", "OriginalZip",
                 "Jurisdiction", "PermitClass", "PermitClassMapped", "StatusCurrentMapped", "StatusDate", "WorkClass",
                 "WorkClassMapped", "PermitType", "PermitTypeMapped", "PermitTypeDesc", "EstProjectCost",
                 "ContractorCompanyName", "ContractorTrade", "ContractorTradeMapped", "ContractorLicNum",
                 "ContractorStateLic", "Latitude", "Longitude", "PIN", "HousingUnits", "TotalSqFt", "Link",
                 "ProposedUse", "ExpiresDate"]
INSPECTION_FIELDS = ["PermitNum", "InspType", "Result", "RequestDate", "ScheduledDate", "InspectedDate", "InspectionNotes",
                     "Description", "DeadlineDate", "DeadlineCitation"]


def _day(value) -> str:
    """BLDS dates: YYYY-MM-DD, or empty."""
    return value.isoformat()[:10] if value else ""


def _status_date(p):
    return {c.PermitStatus.COMPLETED: p.completed_on, c.PermitStatus.ISSUED: p.issued_on,
            c.PermitStatus.APPROVED: p.decided_on, c.PermitStatus.DENIED: p.decided_on,
            c.PermitStatus.EXPIRED: p.expires_on}.get(p.status) or (p.filed_on if p.status in c.OPEN_STATUSES else None)


def blds_permit(p) -> dict:
    parcel = p.parcel
    return {
        "PermitNum": p.number, "Description": f"{p.get_kind_display()}: {p.get_system_type_display()} {p.work}".strip(),
        "AppliedDate": _day(p.filed_on), "IssuedDate": _day(p.issued_on), "CompletedDate": _day(p.completed_on),
        "StatusCurrent": p.get_status_display(),
        "OriginalAddress1": parcel.site_address, "OriginalAddress2": "", "OriginalCity": parcel.municipality,
        "OriginalState": "WI", "OriginalZip": parcel.site_zip,
        "Jurisdiction": p.jurisdiction.name, "PermitClass": p.building_use, "PermitClassMapped": "Residential"
        if "famil" in p.building_use.lower() or "dwelling" in p.building_use.lower() else "Non-Residential",
        "StatusCurrentMapped": BLDS_STATUS[p.status], "StatusDate": _day(_status_date(p)),
        "WorkClass": p.work or "New", "WorkClassMapped": "New" if not p.work or "new" in p.work.lower() else "Existing",
        "PermitType": "Sanitary", "PermitTypeMapped": "Plumbing", "PermitTypeDesc": "Private onsite wastewater treatment system",
        "EstProjectCost": "",
        "ContractorCompanyName": p.plumber.business_name or p.plumber.holder_name, "ContractorTrade": p.plumber.get_kind_display(),
        "ContractorTradeMapped": "Plumber", "ContractorLicNum": p.plumber.number, "ContractorStateLic": p.plumber.number,
        "Latitude": parcel.latitude if parcel.latitude is not None else "",
        "Longitude": parcel.longitude if parcel.longitude is not None else "",
        "PIN": parcel.parcel_number, "HousingUnits": "", "TotalSqFt": "", "Link": p.get_absolute_url(),
        "ProposedUse": p.building_use, "ExpiresDate": _day(p.expires_on),
    }


def blds_inspection(i) -> dict:
    return {"PermitNum": i.permit.number, "InspType": i.stage, "Result": i.get_result_display(),
            "RequestDate": _day(i.notice_at.date()), "ScheduledDate": _day(i.requested_day),
            "InspectedDate": _day(i.inspected_on),
            "InspectionNotes": "; ".join(i.failed_items + ([i.notes] if i.notes else [])), "Description": i.stage_citation,
            "DeadlineDate": _day(i.deadline_day), "DeadlineCitation": i.deadline_citation}


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
