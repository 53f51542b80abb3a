"""Who may read and write what: every role against every URL in the URL conf, one test per URL pattern.

Every role (anonymous, staff of county A (Dane) and of county B (Lincoln), county administrator of
A, state auditor, plumber, pumper, soil tester, owner, DSPS, DNR) against every URL in the URL conf,
GET (read) and POST (write; PATCH where the resource is changed that way). What each role may do is
in one table, TABLE, below. The test fails:

- for a URL in the URL conf that has no entry in TABLE (a new URL must be classified there);
- for a TABLE entry that is no longer in the URL conf;
- when a role not listed as a reader gets a 2xx on GET, or a listed reader does not get 200;
- when a role not listed as a writer gets anything but 401/403/404/405 (or, anonymous on a web
  page, a redirect to the sign-in page), or when its refused write changed any table;
- when a listed writer is refused (401/403) or anything answers 5xx;
- when staff of county B get anything but 403/404 on a URL naming one of county A's records;
- when any 2xx response shows the owner's name of a county-A system to a role that may not read it
  (the pumper who filed a report on that system among them).

The world (county A with one of everything) is built once per module and test worker; every request runs in a
savepoint that is rolled back, so each one meets the same records.

To classify a new URL: add `"<namespace:name>": Case(read=..., write=..., kwargs=..., body=...)`.
"""
from __future__ import annotations

import contextlib
import datetime as dt
import json
import logging
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from django.apps import apps
from django.conf import settings as django_settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

ROLES = ("anonymous", "staff_a", "staff_b", "admin_a", "auditor", "plumber", "pumper", "soil_tester", "owner", "dsps", "dnr")
AN, SA, SB, AA, AU, PL, PU, ST, OW, DS, DN = ROLES
EVERYONE = frozenset(ROLES)
SIGNED_IN = EVERYONE - {AN}
NOBODY: frozenset = frozenset()
STAFF_A = frozenset({SA, AA})  # county A's staff and administrator
STAFF = STAFF_A | {SB}  # staff acting in their own county (B's own county is Lincoln)
# Who may read county A's marked system, its owner and its history: A's staff, the state's readers,
# DNR (systems and maintenance reports, read-only) and the owner. Not the pumper who reported on it.
SYSTEM_READERS = STAFF_A | {AU, DS, DN, OW}
PERMIT_READERS = STAFF_A | {AU, DS, PL}  # the permit's plumber; DNR reads no permits
REPORT_FILERS = STAFF_A | {PL, PU}
GRANT_READERS = STAFF_A | {AU, DS, OW}  # a grant application on MX-1: A's staff, the state's readers, the owner
MARKER = "Quintessa Markerowner"  # the owner of county A's system MX-1
TODAY = dt.date.today()


def _iso(days: int = 0) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


@dataclass(frozen=True)
class Case:
    read: frozenset = NOBODY  # roles whose GET answers 200
    write: frozenset = NOBODY  # roles whose write may succeed
    kwargs: Callable = lambda w: {}  # URL parameters, from the world
    body: Callable = lambda w: {}  # the write's body (valid, so that only the role decides)
    api: bool = False  # JSON body
    a_object: bool = False  # the URL names a county-A record: staff of B must get 403/404
    method: str = "post"
    query: str | Callable = ""  # a query string, or one made from the world
    note: str = ""


def _pdf(name: str = "plan.pdf"):
    import io

    from pypdf import PdfWriter

    writer, buf = PdfWriter(), io.BytesIO()
    writer.add_blank_page(width=612, height=792)
    writer.write(buf)
    return SimpleUploadedFile(name, buf.getvalue(), content_type="application/pdf")


def _jpeg(name: str = "photo.jpg"):
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (8, 8), "gray").save(buf, "JPEG")
    return SimpleUploadedFile(name, buf.getvalue(), content_type="image/jpeg")


def _csv(content: bytes, name: str = "file.csv"):
    return SimpleUploadedFile(name, content, content_type="text/csv")


REPORT_CSV = f"system_id,kind,work_date,license_number\nMX-1,pumping,{_iso(-3)},SSO-44556\n".encode()
INVENTORY_CSV = b"system_id,parcel_id,system_type,owner_name\nNEW-1,PN-1,Mound,New Owner\nNEW-2,PN-2,Spaceship,Bad Row\n"
PLAN = {"type": "FeatureCollection", "features": [
    {"type": "Feature", "properties": {"kind": "lot_line", "name": "Lot"},
     "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [200, 0], [200, 300], [0, 300], [0, 0]]]}},
    {"type": "Feature", "properties": {"kind": "dispersal_area", "name": "Mound"},
     "geometry": {"type": "Polygon", "coordinates": [[[60, 40], [140, 40], [140, 100], [60, 100], [60, 40]]]}},
]}


def _holding_report() -> dict:
    """A semiannual holding tank servicing report for Dane's HT-1, the half-year so far."""
    start = TODAY.replace(month=1 if TODAY.month <= 6 else 7, day=1)
    return {"jurisdiction": "dane", "system_id": "HT-1", "period_start": start.isoformat(), "period_end": _iso(),
            "servicer_name": "Perry Pumper", "servicer_address": "PO Box 12", "owner_name": "Holly Tank",
            "location": "5 Tank Rd", "sanitary_permit_number": "2020-0001", "date_0": _iso(-2), "gallons_0": "2500",
            "disposal_site_0": "Nine Springs"}


def _report(**kw):
    return {"jurisdiction": "dane", "system_id": "MX-1", "kind": "pumping", "work_date": _iso(-2), "license_number": "SSO-44556",
            "gallons_pumped": "900", **kw}


def _grant_form(w):
    """A valid grant application on the marked system's determination of failure (dollars, as typed)."""
    return {"failure_determination": w.grant.failure_determination_id, "annual_family_income": "30000",
            "income_tax_year": w.grant.failure_determination.determined_on.year - 1,
            "income_evidence": "prior_year_return", "funding_table_amount": "5200"}


def _edit(**fields):
    """An edit form's body: the fields, the version the editor saw (1: the world's records are fresh) and a reason."""
    return {**fields, "version": "1", "reason": "access matrix"}


ADMIN = Case(note="Django admin: superusers only; every test role is sent to the admin sign-in page")

TABLE: dict[str, Case | list[Case]] = {
    # -- core
    "home": Case(note="redirects to the person's own home (powts.core.menus.HOMES); shows nothing itself"),
    "jurisdictions:list": Case(read=frozenset({AU, DS, DN}), note="the state roles' home: the counties they read"),
    "jurisdictions:county-new": Case(read=frozenset({DS}), write=frozenset({DS}),
                                     body=lambda w: {"name": "Juneau County", "slug": "juneau"},
                                     note="the department (DSPS) sets up one of Wisconsin's 72 counties"),
    "jurisdictions:settings": Case(read=frozenset({AA}), note="a county administrator's own county's settings"),
    "jurisdictions:setting-edit": Case(read=frozenset({AA}), write=frozenset({AA}), kwargs=lambda w: {"key": "closures"},
                                       body=lambda w: {"closures": "2099-01-02 Courthouse closed", "citation": "county policy",
                                                       "reason": "snow"},
                                       note="a county administrator changes its own county's settings, cited"),
    "healthz": Case(read=EVERYONE),
    "login": Case(read=EVERYONE, write=EVERYONE, body=lambda w: {"username": "nobody", "password": "wrong-password"}),
    "logout": Case(write=EVERYONE),
    "api-schema": Case(read=EVERYONE),
    "api-docs": Case(read=EVERYONE),
    "admin:logout": Case(write=EVERYONE, note="signs out, or sends a non-staff user to the admin index"),
    "admin:login": Case(read=EVERYONE, write=EVERYONE, body=lambda w: {"username": "nobody", "password": "wrong-password"}),
    # -- each person's own account
    "accounts:account": Case(read=SIGNED_IN),
    "accounts:password-change": Case(read=SIGNED_IN, write=SIGNED_IN, note="a wrong old password: the form says so",
                                     body=lambda w: {"old_password": "not-the-password", "new_password1": "x" * 14,
                                                     "new_password2": "x" * 14}),
    "accounts:calendar-renew": Case(write=SIGNED_IN, note="each person's own calendar address"),
    "accounts:calendar-revoke": Case(write=SIGNED_IN),
    "accounts:tokens-revoke": Case(write=SIGNED_IN, note="each person's own API tokens"),
    # -- inventory
    "inventory:system-list": Case(read=SIGNED_IN, note="each sees only their own rows: the marker check covers it"),
    "inventory:system-detail": Case(read=SYSTEM_READERS, kwargs=lambda w: {"pk": w.marked.pk}, a_object=True),
    "inventory:import": Case(read=STAFF, write=STAFF, body=lambda w: {"file": _csv(INVENTORY_CSV)}),
    "inventory:import-confirm": Case(write=frozenset({SA}), kwargs=lambda w: {"token": w.token}, a_object=True,
                                     note="only the uploader, in the county the file was previewed for"),
    "inventory:import-rejects": Case(read=frozenset({SA}), kwargs=lambda w: {"token": w.token}, a_object=True),
    # -- background jobs: the one who started it and staff of its county
    "jobs:job": Case(read=STAFF_A, kwargs=lambda w: {"pk": w.job.pk}, a_object=True),
    "jobs:job-retry": Case(write=STAFF_A, kwargs=lambda w: {"pk": w.job.pk}, a_object=True,
                           note="a failed import of county A, queued again"),
    "jobs:job-download": Case(kwargs=lambda w: {"pk": w.job.pk}, a_object=True, note="a failed job has no file: 404 for all"),
    "api:token": Case(write=EVERYONE, api=True, body=lambda w: {"username": "nobody", "password": "wrong-password"}),
    "api:api-root": Case(read=SIGNED_IN, kwargs=lambda w: {"format": ".json"}),
    "api:system-list": Case(read=SIGNED_IN, write=STAFF, api=True,
                            body=lambda w: {"system_id": "NEW-9", "parcel_number": "PN-9", "system_type": "mound",
                                            "owner_name": "New Owner"}),
    "api:system-detail": Case(read=SYSTEM_READERS, write=STAFF_A, kwargs=lambda w: {"pk": w.marked.pk}, a_object=True,
                              api=True, method="patch", body=lambda w: {"bedrooms": 4}),
    "api:system-history": Case(read=SYSTEM_READERS, kwargs=lambda w: {"pk": w.marked.pk}, a_object=True),
    # -- maintenance
    "maintenance:dashboard": Case(read=STAFF | {AU, DS}),
    # -- the map: staff their county's, the state's readers every county's
    "maps:map": Case(read=STAFF | {AU, DS}),
    "maps-api:systems": Case(read=STAFF | {AU, DS}, query="?bbox=-180,-90,180,90&zoom=16",
                             note="staff of B get B's rows only: the marker check covers it"),
    "maps-api:permits": Case(read=STAFF | {AU, DS}, query="?bbox=-180,-90,180,90"),
    "maps-api:complaints": Case(read=STAFF | {AU, DS}, query="?bbox=-180,-90,180,90"),
    "maintenance:report": Case(read=STAFF | {PL, PU}, write=REPORT_FILERS, body=lambda w: _report(),
                               note="staff of B name county A: refused"),
    "maintenance:upload": Case(read=STAFF | {PL, PU}, write=REPORT_FILERS,
                               body=lambda w: {"jurisdiction": "dane", "file": _csv(REPORT_CSV)}),
    "maintenance:holding-report": Case(read=STAFF | {PL, PU, OW}, write=REPORT_FILERS, body=lambda w: _holding_report(),
                                       note="Dane s. 46.06(5)(b)2.: the owner (of HT-1: not the matrix's owner), a contractor or staff"),
    "maintenance:mine": Case(read=SIGNED_IN),
    "maintenance:reports": Case(read=SIGNED_IN, note="each sees only the reports they may read (Report.restrict)"),
    "maintenance:system-lookup": Case(read=STAFF | {PL, PU}, query="?address=main",
                                      note="system ids and site addresses for a filer, never owners"),
    "maintenance:failure-reviewed": Case(write=STAFF_A, kwargs=lambda w: {"pk": w.failure_report.pk}, a_object=True,
                                         body=lambda w: {"note": "called the owner"}),
    "maintenance:match": Case(write=STAFF_A, kwargs=lambda w: {"pk": w.pending_report.pk}, a_object=True,
                              body=lambda w: {"system_id": "DA-1"}),
    # notices: each county's staff preview and send their own county's batch; a sent letter is read
    # by the county's staff (reprint), the state's readers and the owner it was sent to
    "maintenance:notices": Case(read=STAFF),
    "maintenance:notices-send": Case(write=STAFF, body=lambda w: {"as_of": _iso()}),
    "maintenance:holding-letters": Case(write=STAFF, body=lambda w: {"as_of": _iso()},
                                        note="B's staff: Lincoln sets no report periods, refused with the reason"),
    "maintenance:holding-letters-pdf": Case(read=STAFF, kwargs=lambda w: {"due_on": _iso()}),
    "maintenance:notice-preview": Case(read=STAFF_A, kwargs=lambda w: {"system_pk": w.due_system.pk}, a_object=True,
                                       query=f"?as_of={_iso()}"),
    "maintenance:notice-batch": Case(read=STAFF_A, kwargs=lambda w: {"pk": w.notice_batch.pk}, a_object=True),
    "maintenance:notice-batch-pdf": Case(read=STAFF_A, kwargs=lambda w: {"pk": w.notice_batch.pk}, a_object=True),
    "maintenance:notice-letter": Case(read=STAFF_A | {AU, DS, OW}, kwargs=lambda w: {"pk": w.notice.pk}, a_object=True),
    "maintenance-due": Case(read=STAFF | {AU, DS}),
    "maintenance-holding-letters": Case(write=STAFF, api=True, body=lambda w: {"as_of": _iso()},
                                        note="B's staff: Lincoln sets no report periods, a 400"),
    "maintenance-holding-reports": Case(read=STAFF | {AU, DS}, write=REPORT_FILERS, api=True,
                                        body=lambda w: {**_holding_report(), "services": [
                                            {"date": _iso(-2), "gallons": 2500, "disposal_site": "Nine Springs"}]}),
    "maintenance-system": Case(read=SYSTEM_READERS, kwargs=lambda w: {"pk": w.marked.pk}, a_object=True),
    "maintenance-report-list": Case(read=SIGNED_IN, write=REPORT_FILERS, api=True, body=lambda w: _report()),
    "maintenance-report-upload": Case(write=REPORT_FILERS, body=lambda w: {"jurisdiction": "dane", "file": _csv(REPORT_CSV)}),
    "maintenance-report-detail": Case(read=SYSTEM_READERS | {PU}, kwargs=lambda w: {"pk": w.failure_report.pk}, a_object=True,
                                      note="the pumper reads the report they filed, not the system"),
    # -- permits (web)
    "permits:list": Case(read=SIGNED_IN),
    "permits:new": Case(read=STAFF | {PL}, write=STAFF | {PL},
                        body=lambda w: {"jurisdiction": "dane", "parcel_number": "PA-9", "plumber_license": "MP-222333"}),
    "permits:parcel-lookup": Case(read=STAFF | {PL}, query="?parcel_q=PA-&jurisdiction=dane",
                                  note="the application form's parcel finder: numbers and addresses, never owners"),
    "permits:plan-check": Case(write=STAFF | {PL}, body=lambda w: {"jurisdiction": "dane", "plot_plan": json.dumps(PLAN)},
                               note="the setback check before filing; nothing is stored"),
    "permits:calendar-feed": Case(kwargs=lambda w: {"secret": "not-a-known-secret"},
                                  note="a secret address: an unknown secret is a 404 to everyone"),
    "permits:ics": Case(read=SIGNED_IN, note="each signed-in person's own inspections"),
    "permits:complaint-new": Case(read=EVERYONE, write=EVERYONE, note="the public complaint form",
                                  body=lambda w: {"jurisdiction": "dane", "service_code": "failing-septic",
                                                  "description": "Wet ground", "address": "1 Main St"}),
    "permits:complaint-link": Case(write=STAFF_A, kwargs=lambda w: {"pk": w.complaint.pk}, a_object=True,
                                   body=lambda w: {"system_id": "DA-1"}, note="staff link a queued complaint to its system"),
    "permits:site": Case(read=SIGNED_IN, note="staff see their county's; a soil tester their own reports"),
    "permits:site-post": [
        Case(write=STAFF, kwargs=lambda w: {"what": "order"},
             body=lambda w: {"jurisdiction": "dane", "system_id": "DA-7", "on": _iso(), "correct_by": _iso(30),
                             "requirement": "Replace the tank"}),
        Case(write=frozenset({ST}), kwargs=lambda w: {"what": "soil"},
             body=lambda w: {"jurisdiction": "dane", "parcel_number": "PA-1", "on": _iso(), "fieldwork_completed_on": _iso(-5),
                             "a_name": "Primary", "a_pits": "3", "a_depth_below_infiltrative_in": "36",
                             "a_suitable_soil_in": "40"}),
        Case(write=STAFF | {PL}, kwargs=lambda w: {"what": "emergency"},
             body=lambda w: {"jurisdiction": "dane", "parcel_number": "PA-1", "plumber_license": "MP-222333", "on": _iso(),
                             "work_started_on": _iso(), "description": "Pump failed"}),
        Case(kwargs=lambda w: {"what": "variance-decide"}, note="s. 145.24(3): the department decides (permits:variances), not the county",
             body=lambda w: {"jurisdiction": "dane", "variance": w.variance.pk, "on": _iso(), "reason": "no"}),
        Case(write=STAFF, kwargs=lambda w: {"what": "variance"}, note="the county petitions the department for the owner",
             body=lambda w: {"jurisdiction": "dane", "system_id": "DA-6", "standard": "design", "on": _iso()}),
    ],
    "permits:detail": Case(read=PERMIT_READERS, kwargs=lambda w: {"pk": w.permit.pk}, a_object=True),
    "permits:card": Case(read=PERMIT_READERS, kwargs=lambda w: {"pk": w.permit.pk}, a_object=True),
    "permits:post": [
        Case(write=STAFF_A, kwargs=lambda w: {"pk": w.permit.pk, "action": "suspend"}, a_object=True,
             body=lambda w: {"on": _iso(), "reasons": "Work without inspection"}),
        Case(write=STAFF_A | {PL}, kwargs=lambda w: {"pk": w.permit.pk, "action": "document"}, a_object=True,
             body=lambda w: {"on": _iso(), "kind": "other", "title": "Letter"}),
    ],
    # -- permits (API)
    "permits-api-list": Case(read=SIGNED_IN, write=STAFF | {PL}, api=True,
                             body=lambda w: {"jurisdiction": "dane", "parcel_number": "PA-9", "plumber_license": "MP-222333"}),
    "permits-api-parcel-find": Case(read=STAFF | {PL}, query="?q=PA-&jurisdiction=dane",
                                    note="the parcel finder for applicants: numbers and addresses, never owners"),
    "permits-api-plan-check": Case(write=STAFF | {PL}, api=True, query="?jurisdiction=dane", body=lambda w: PLAN,
                                   note="the setback check before filing; nothing is stored"),
    "permits-api-export": Case(read=SIGNED_IN, kwargs=lambda w: {"fmt": "csv"}),
    "permits-api-ics": Case(read=SIGNED_IN),
    "permits-api-detail": Case(read=PERMIT_READERS, kwargs=lambda w: {"pk": w.permit.pk}, a_object=True),
    "permits-api-card": Case(read=PERMIT_READERS, kwargs=lambda w: {"pk": w.permit.pk}, a_object=True),
    "permits-api-documents": Case(write=STAFF_A | {PL}, kwargs=lambda w: {"pk": w.permit.pk}, a_object=True, api=True,
                                  body=lambda w: {"kind": "other", "title": "Letter"}),
    "permits-api-plot-plan": Case(write=STAFF_A | {PL}, kwargs=lambda w: {"pk": w.permit.pk}, a_object=True, api=True,
                                  body=lambda w: PLAN),
    "permits-api-action": Case(write=STAFF_A, kwargs=lambda w: {"pk": w.permit.pk, "action": "suspend"}, a_object=True,
                               api=True, body=lambda w: {"reasons": ["Work without inspection"]}),
    "permits-api-changes": Case(write=STAFF_A | {PL}, kwargs=lambda w: {"pk": w.permit.pk}, a_object=True, api=True,
                                body=lambda w: {"kind": "renewal"}),
    "permits-api-inspection-request": Case(write=STAFF_A | {PL}, kwargs=lambda w: {"pk": w.permit.pk}, a_object=True,
                                           api=True, body=lambda w: {"stage": w.stage}),
    "permits-api-change-decide": Case(write=STAFF_A, kwargs=lambda w: {"pk": w.change.pk, "decision": "refuse"}, a_object=True,
                                      api=True, body=lambda w: {"note": "not paid"}),
    "permits-api-inspection-result": Case(write=STAFF_A, kwargs=lambda w: {"pk": w.inspection.pk}, a_object=True, api=True,
                                          body=lambda w: {"result": "passed"}),
    "permits-api-payment": Case(write=STAFF_A, kwargs=lambda w: {"pk": w.invoice.pk}, a_object=True, api=True,
                                body=lambda w: {"amount": "1.00"}),
    # -- edits from each record's page: staff of the record's county; users: its administrator
    "inventory:system-edit": Case(read=STAFF_A, write=STAFF_A, kwargs=lambda w: {"pk": w.marked.pk}, a_object=True,
                                  body=lambda w: _edit(system_type="conventional", status="active", installed_on="2015-05-01")),
    "inventory:component-add": Case(read=STAFF_A, write=STAFF_A, kwargs=lambda w: {"pk": w.marked.pk}, a_object=True,
                                    body=lambda w: _edit(kind="filter", capacity_gallons="")),
    "inventory:component-edit": Case(read=STAFF_A, write=STAFF_A, a_object=True,
                                     kwargs=lambda w: {"pk": w.marked.pk, "component_pk": w.component.pk},
                                     body=lambda w: _edit(kind="septic_tank", capacity_gallons="1250")),
    "inventory:component-remove": Case(read=STAFF_A, write=STAFF_A, a_object=True,
                                       kwargs=lambda w: {"pk": w.marked.pk, "component_pk": w.component.pk}, body=lambda w: _edit()),
    "inventory:parcel-edit": Case(read=STAFF_A, write=STAFF_A, kwargs=lambda w: {"pk": w.marked.pk}, a_object=True,
                                  body=lambda w: _edit(parcel_number="PMX-1", legal_description="NE 1/4", sewered="on")),
    "inventory:owner-edit": Case(read=STAFF_A, write=STAFF_A, kwargs=lambda w: {"pk": w.marked.pk}, a_object=True,
                                 body=lambda w: _edit(name=MARKER, kind="person", mailing_address="2 Marker Lane")),
    "inventory:parcel-sale": Case(read=STAFF_A, write=STAFF_A, kwargs=lambda w: {"pk": w.marked.pk}, a_object=True,
                                  body=lambda w: _edit(sold_on=_iso(-1), name="New Buyer", mailing_address="3 Buyer Rd")),
    "accounts:license-list": Case(read=STAFF, note="licenses are the state's, held by people working in every county"),
    "accounts:license-edit": Case(read=STAFF, write=STAFF, kwargs=lambda w: {"pk": w.license.pk},
                                  body=lambda w: _edit(kind="master_plumber", number="MP-222333", holder_name="Plumber P")),
    "accounts:user-list": Case(read=frozenset({AA}), note="a county administrator's own county's people"),
    "accounts:user-new": Case(read=frozenset({AA}), write=frozenset({AA}),
                              body=lambda w: {"username": "new-staff", "email": "new@example.com", "role": "county_staff",
                                              "reason": "hired"}),
    "accounts:user-edit": Case(read=frozenset({AA}), write=frozenset({AA}), kwargs=lambda w: {"pk": w.users[SA].pk},
                               a_object=True, body=lambda w: {"role": "county_staff", "is_active": "on", "reason": "check",
                                                               "version": str(w.users[SA].version)}),
    "accounts:owner-invite": Case(read=frozenset({AA}), write=frozenset({AA}), kwargs=lambda w: {"owner_pk": w.invitee.pk},
                                  a_object=True, body=lambda w: {"email": "invitee@example.com", "reason": "asked at the counter"}),
    "accounts:invite-accept": Case(read=EVERYONE, write=EVERYONE, kwargs=lambda w: {"uidb64": "MQ", "token": "not-a-token"},
                                   note="an unknown or used link: the page says so to everyone, nothing changes",
                                   body=lambda w: {"new_password1": "x" * 14, "new_password2": "x" * 14}),
    "maintenance-bounce-webhook": Case(api=True, body=lambda w: {"recipient": "owner@example.com", "reason": "no such mailbox"},
                                       note="a mail provider's bounce report: only a body signed with the shared secret "
                                            "is taken (no secret is set here), whoever is signed in"),
    "open311-services": Case(read=EVERYONE),
    "open311-requests": Case(read=EVERYONE, write=EVERYONE, api=True, note="the public Open311 endpoint",
                             body=lambda w: {"jurisdiction_id": "dane", "service_code": "failing-septic",
                                             "description": "Wet ground", "address_string": "1 Main St"}),
    "open311-request": Case(read=EVERYONE, kwargs=lambda w: {"pk": w.complaint.pk}),
    "permits-api-soil": Case(read=SIGNED_IN, write=STAFF | {ST}, api=True,
                             body=lambda w: {"jurisdiction": "dane", "parcel_number": "PA-1", "soil_tester_license": "CST-1234",
                                             "fieldwork_completed_on": _iso(-5),
                                             "areas": [{"name": "Primary", "pits": 3, "depth_below_infiltrative_in": 36,
                                                        "suitable_soil_in": 40}]}),
    "permits-api-soil-verify": Case(write=STAFF_A, kwargs=lambda w: {"pk": w.soil.pk}, a_object=True, api=True,
                                    body=lambda w: {"outcome": "deny", "note": "2 pits"}),
    "permits-api-gate": Case(read=STAFF_A | {AU, DS}, kwargs=lambda w: {"parcel_number": w.marked.parcel.parcel_number},
                             query="?jurisdiction=dane", a_object=True),
    "permits-api-clearances": Case(write=STAFF, api=True,
                                   body=lambda w: {"jurisdiction": "dane", "parcel_number": "PA-1", "kind": "flow_change",
                                                   "bedrooms_before": 3, "bedrooms_after": 4}),
    "permits-api-emergency": Case(write=STAFF | {PL}, api=True,
                                  body=lambda w: {"jurisdiction": "dane", "parcel_number": "PA-1", "plumber_license": "MP-222333",
                                                  "work_started_on": _iso(), "description": "Pump failed"}),
    "permits-api-failures": Case(write=STAFF, api=True, body=lambda w: {"system_id": "DA-7", "conditions": ["d"], "basis": "order"}),
    "permits-api-orders": Case(read=STAFF, write=STAFF, api=True,
                               body=lambda w: {"system_id": "DA-7", "correct_by": _iso(30), "requirement": "Replace the tank"}),
    "permits-api-order-update": Case(write=STAFF_A, kwargs=lambda w: {"pk": w.order.pk, "what": "close"}, a_object=True, api=True),
    "permits-api-variances": Case(read=STAFF | {OW, DS}, write=STAFF | {OW}, api=True, note="owners petition for their own systems",
                                  body=lambda w: {"system_id": "MX-1", "standard": "siting"}),
    "permits-api-variance-decide": Case(write=frozenset({DS}), kwargs=lambda w: {"pk": w.variance.pk}, api=True,
                                        body=lambda w: {"grant": False, "reason": "no"}, note="s. 145.24(3): the department"),
    "permits-api-variance-rescind": Case(write=frozenset({DS}), kwargs=lambda w: {"pk": w.granted_variance.pk}, api=True,
                                         body=lambda w: {"ground": "contaminates", "reason": "nitrate in the well"}),
    "permits:variances": Case(read=STAFF | {OW, DS}),
    "permits:variance-post": [
        Case(write=STAFF | {OW}, kwargs=lambda w: {"what": "petition"}, body=lambda w: {"system_id": "MX-1", "standard": "design", "on": _iso()},
             note="the owner of MX-1 or county staff (B's staff are told MX-1 is not in their county)"),
        Case(write=frozenset({DS}), kwargs=lambda w: {"what": "decide"},
             body=lambda w: {"variance": w.variance.pk, "grant": "0", "reason": "no", "on": _iso()}),
        Case(write=frozenset({DS}), kwargs=lambda w: {"what": "rescind"},
             body=lambda w: {"variance": w.granted_variance.pk, "ground": "failing", "reason": "failed", "on": _iso()}),
    ],
    # -- documents and photos: a file is seen by those who see its record
    "attachments:upload": [
        Case(write=STAFF_A | {PL}, kwargs=lambda w: {"record": "permit", "pk": w.permit.pk}, a_object=True,
             body=lambda w: {"kind": "plan", "file": _pdf()}, note="the permit's plumber and its county's staff"),
        Case(write=STAFF_A | {PU}, kwargs=lambda w: {"record": "report", "pk": w.failure_report.pk}, a_object=True,
             body=lambda w: {"kind": "photo", "file": _jpeg()}, note="the report's filer and its county's staff"),
        Case(write=STAFF_A, kwargs=lambda w: {"record": "complaint", "pk": w.complaint.pk}, a_object=True,
             body=lambda w: {"kind": "photo", "file": _jpeg()}, note="the public adds photos with the complaint itself"),
        Case(write=STAFF_A | {OW}, kwargs=lambda w: {"record": "grant_application", "pk": w.grant.pk}, a_object=True,
             body=lambda w: {"kind": "income_evidence", "file": _pdf("return.pdf")},
             note="the applicant's evidence: the owner and the county's staff"),
        Case(write=frozenset({DN}), kwargs=lambda w: {"record": "well_claim", "pk": w.well_claim.pk},
             body=lambda w: {"kind": "other", "file": _pdf("affidavit.pdf")}, note="DNR's claims: DNR only"),
    ],
    "attachments:download": [
        Case(read=GRANT_READERS, kwargs=lambda w: {"pk": w.grant_file.pk}, a_object=True,
             note="an owner's tax return: whoever reads the grant application"),
        Case(read=PERMIT_READERS, kwargs=lambda w: {"pk": w.attachment.pk}, a_object=True),
        Case(read=SYSTEM_READERS | {PU}, kwargs=lambda w: {"pk": w.report_photo.pk}, a_object=True,
             note="whoever reads the report: its filer, the system's owner, county A, the state, DNR"),
        Case(read=STAFF_A | {AU, DS}, kwargs=lambda w: {"pk": w.complaint_photo.pk}, a_object=True,
             note="the public's photos: the county's staff and the state's readers only"),
        Case(read=frozenset({DN}), kwargs=lambda w: {"pk": w.claim_doc.pk}, note="a well claim's tax returns: DNR only"),
    ],
    "attachments:delete": Case(write=STAFF_A | {PL}, kwargs=lambda w: {"pk": w.attachment.pk}, a_object=True,
                               note="county staff, or the plumber who uploaded it"),
    "attachments-api-list": Case(read=PERMIT_READERS, write=STAFF_A | {PL}, query=lambda w: f"?permit={w.permit.pk}",
                                 a_object=True, body=lambda w: {"permit": w.permit.pk, "kind": "plan", "file": _pdf()}),
    "attachments-api-detail": Case(read=PERMIT_READERS, write=STAFF_A | {PL}, kwargs=lambda w: {"pk": w.attachment.pk},
                                   a_object=True, method="delete"),
    "attachments-api-download": Case(read=PERMIT_READERS, kwargs=lambda w: {"pk": w.attachment.pk}, a_object=True),
    # -- the Wisconsin Fund program (s. 145.246): county staff for their county; DSPS acts, auditors read
    "grants_program:county": Case(read=STAFF, note="each county's own certification, submission and payments"),
    "grants_program:certify": Case(write=STAFF, body=lambda w: {
        "fiscal_year": "2027-28", "official_name": "Sam", "official_title": "Sanitarian", "eligibility_and_costs": "1",
        "installed_and_maintained": "1", "disbursed_to_eligible": "1"}, note="staff of B certify B's own (refused: no inventory)"),
    "grants_program:submit": Case(write=STAFF, body=lambda w: {"fiscal_year": "2027-28"},
                                  note="the refusal (not certified for that year) comes back as a message"),
    "grants_program:disburse": Case(write=STAFF_A, kwargs=lambda w: {"pk": w.county_payment.pk}, a_object=True,
                                    body=lambda w: {"paid_on": _iso()}),
    "grants_program:queue": Case(read=frozenset({AU, DS})),
    "grants_program:participation": Case(read=frozenset({AU, DS}), kwargs=lambda w: {"pk": w.participation.pk},
                                         a_object=True),
    "grants_program:review": Case(write=frozenset({DS}), kwargs=lambda w: {"pk": w.participation.pk}, a_object=True,
                                  body=lambda w: {"decision": "meets"}),
    "grants_program:revise": Case(write=frozenset({DS}), kwargs=lambda w: {"pk": w.participation.pk}, a_object=True,
                                  body=lambda w: {"reason": "maintenance program not administered"}),
    "grants_program:revise-item": Case(write=frozenset({DS}), kwargs=lambda w: {"pk": w.participation.items.first().pk},
                                       a_object=True, body=lambda w: {"reason": "income over the limit"}),
    "grants_program:allocations": Case(read=frozenset({AU, DS}), write=frozenset({DS}),
                                       body=lambda w: {"fiscal_year": "2026-27", "funds": "5000"}),
    "grants_program:run": Case(read=frozenset({AU, DS}), kwargs=lambda w: {"pk": w.allocation.pk}),
    "grants_program:pay": Case(write=frozenset({DS}), kwargs=lambda w: {"pk": w.allocation.pk},
                               body=lambda w: {"jurisdiction": w.participation.jurisdiction_id, "paid_on": _iso()},
                               note="A was paid already: the refusal comes back as a message"),
    "grants-api-certifications": Case(write=STAFF, api=True, body=lambda w: {"fiscal_year": "2027-28", "official_title": "Sanitarian"},
                                      note="staff of B certify B's own county (refused: no inventory, a 400)"),
    "grants-api-participations": Case(read=STAFF | {AU, DS}, write=STAFF, api=True, body=lambda w: {"fiscal_year": "2027-28"},
                                      note="each county's staff their own; the refusal (not certified) is a 400"),
    "grants-api-participation-review": Case(write=frozenset({DS}), api=True, kwargs=lambda w: {"pk": w.participation.pk},
                                            a_object=True, body=lambda w: {"meets_conditions": True}),
    "grants-api-allocations": Case(read=frozenset({AU, DS}), write=frozenset({DS}), api=True,
                                   body=lambda w: {"fiscal_year": "2026-27", "funds": "5000"}),
    "grants-api-allocation": Case(read=frozenset({AU, DS}), kwargs=lambda w: {"pk": w.allocation.pk}),
    "grants-api-what-if": Case(write=frozenset({DS}), api=True, body=lambda w: {"fiscal_year": "2026-27", "funds": "5000"}),
    "grants_program:whatif": Case(read=frozenset({DS}), query="?fiscal_year=2026-27&funds=5000&income_limit=50000"),
    # -- Wisconsin Fund grant applications (s. 145.246)
    "grants:list": Case(read=STAFF | {AU, DS, OW}, note="staff their county's, the state all, an owner their own"),
    "grants:new": Case(read=STAFF | {OW}, write=STAFF_A | {OW}, body=lambda w: _grant_form(w),
                       note="the owner online, staff from a paper form; B's staff cannot apply on A's determination"),
    "grants:my-payments": Case(read=frozenset({OW}), note="an owner's own grant disbursements and well claim payments"),
    "grants:detail": Case(read=GRANT_READERS, kwargs=lambda w: {"pk": w.grant.pk}, a_object=True),
    "grants:letter": Case(read=GRANT_READERS, kwargs=lambda w: {"pk": w.grant.pk}, a_object=True),
    "grants:decide": Case(write=STAFF_A, kwargs=lambda w: {"pk": w.grant.pk}, a_object=True),
    "grants:withdraw": Case(write=STAFF_A | {OW}, kwargs=lambda w: {"pk": w.grant.pk}, a_object=True),
    "grants-api-applications": Case(read=STAFF | {AU, DS, OW}, write=STAFF_A | {OW}, api=True,
                                    body=lambda w: _grant_form(w)),
    "grants-api-application": Case(read=GRANT_READERS, kwargs=lambda w: {"pk": w.grant.pk}, a_object=True),
    "grants-api-decide": Case(write=STAFF_A, kwargs=lambda w: {"pk": w.grant.pk}, a_object=True, api=True),
    "grants-api-withdraw": Case(write=STAFF_A | {OW}, kwargs=lambda w: {"pk": w.grant.pk}, a_object=True, api=True),
    # -- well compensation claims: DNR receives, completes and pays them (s. 281.75)
    "wells:claim-list": Case(read=frozenset({DN})),
    "wells:claim-new": Case(read=frozenset({DN}), write=frozenset({DN}), body=lambda w: {
        "id": "MX-W-NEW", "supply_id": "MX-S-NEW", "claimant_type": "landowner", "supply_use": "residential",
        "well_kind": "drilled", "dwelling_units": "1", "annual_family_income": "30000", "eligible_costs": "8000",
        "claimed_on": _iso(-30), "affidavit_on": _iso(-30), "tax_returns_on": _iso(-30), "completed_on": _iso(-20),
        "sample_date": [_iso(-60), _iso(-45)], "lab_certified": "on"}),
    "wells:claim-detail": Case(read=frozenset({DN}), kwargs=lambda w: {"pk": w.well_claim.pk}),
    "wells:claim-act": Case(write=frozenset({DN}), kwargs=lambda w: {"pk": w.well_claim.pk, "action": "notice"},
                            body=lambda w: {"on": _iso()}),
    "wells:claim-letter": Case(read=frozenset({DN}), kwargs=lambda w: {"pk": w.well_claim.pk, "kind": "completeness"}),
    "wells:run-list": Case(read=frozenset({DN}), write=frozenset({DN}), body=lambda w: {"funds": "100", "on": _iso()}),
    "wells:run-detail": Case(read=frozenset({DN}), kwargs=lambda w: {"pk": w.well_run.pk}),
    "wells-api-claims": Case(read=frozenset({DN}), write=frozenset({DN}), api=True, body=lambda w: {
        "id": "WC-NEW", "supply_id": "WS-NEW", "claimant_type": "landowner", "supply_use": "residential", "well_kind": "drilled",
        "dwelling_units": 1, "sample_dates": ["2024-01-01", "2024-01-15"], "lab_certified": True,
        "annual_family_income": "30000", "eligible_costs": "8000", "claimed_on": "2024-02-01"}),
    "wells-api-claim": Case(read=frozenset({DN}), kwargs=lambda w: {"pk": w.well_claim.pk}),
    "wells-api-claim-action": Case(write=frozenset({DN}), api=True, kwargs=lambda w: {"pk": w.well_claim.pk, "action": "notice"},
                                   body=lambda w: {"on": _iso()}),
    "wells-api-runs": Case(read=frozenset({DN}), write=frozenset({DN}), api=True, body=lambda w: {"funds": "100"}),
    "wells-api-run": Case(read=frozenset({DN}), kwargs=lambda w: {"pk": w.well_run.pk}),
    # -- oversight (s. 145.20(3)): the department (DSPS) audits, holds and exempts; the state's readers read the
    # state view; a county's staff answer its audits, flag reports, refer licence holders and record special charges;
    # its administrator reassigns an inspection (s. 145.20(6))
    "oversight:state": Case(read=frozenset({AU, DS})),
    "oversight:county-act": [
        Case(write=frozenset({DS}), kwargs=lambda w: {"pk": w.dane.pk, "action": "exempt"}, a_object=True,
             body=lambda w: {"category": "Holding tanks", "grounds": "Satisfactory audits"}),
        Case(write=frozenset({DS}), kwargs=lambda w: {"pk": w.dane.pk, "action": "hold"}, a_object=True,
             body=lambda w: {"reason": "already held: the page says so"}),
        Case(write=STAFF_A, kwargs=lambda w: {"pk": w.dane.pk, "action": "detect"}, a_object=True),
        Case(write=STAFF_A, kwargs=lambda w: {"pk": w.dane.pk, "action": "assess"}, a_object=True,
             body=lambda w: {"order": w.order.pk, "parcel_number": w.order.system.parcel.parcel_number, "cost": "385.00",
                             "work_done_on": _iso(), "work": "Pumped", "authority_kind": "county"}),
    ],
    "oversight:hold-lift": Case(write=frozenset({DS}), kwargs=lambda w: {"pk": w.hold.pk}, a_object=True,
                                body=lambda w: {"note": "plan accepted"}),
    "oversight:exemption-hearing": Case(write=frozenset({DS}), kwargs=lambda w: {"pk": w.new_exemption.pk}, a_object=True,
                                        body=lambda w: {"clerk": "Dane County Clerk", "noticed_on": _iso(), "hearing_on": _iso(30)},
                                        note="s. 145.20(3)(a)2.: the public hearing on 30 days' notice before a revocation"),
    "oversight:exemption-revoke": Case(write=frozenset({DS}), kwargs=lambda w: {"pk": w.exemption.pk}, a_object=True,
                                       body=lambda w: {"grounds": "unsatisfactory audit"}),
    "oversight:audits": Case(read=STAFF | {AU, DS}, note="staff see their own county's audits"),
    "oversight:audit-draw": Case(write=frozenset({DS}), body=lambda w: {"jurisdiction": w.dane.pk, "period_start": _iso(-3650),
                                                                        "period_end": _iso()}),
    "oversight:audit": Case(read=STAFF_A | {AU, DS}, kwargs=lambda w: {"pk": w.audit.pk}, a_object=True),
    "oversight:audit-act": [
        Case(write=frozenset({DS}), kwargs=lambda w: {"pk": w.audit.pk, "action": "close"}, a_object=True,
             body=lambda w: {"note": "done"}),
        Case(write=STAFF_A, kwargs=lambda w: {"pk": w.audit.pk, "action": "respond"}, a_object=True,
             body=lambda w: {"response_text": "Inspector retrained"}),
    ],
    "oversight:sample-verify": Case(write=frozenset({DS}), kwargs=lambda w: {"pk": w.sample.pk}, a_object=True,
                                    body=lambda w: {"outcome": "satisfactory", "verified_on": _iso()}),
    "oversight:flags": Case(read=STAFF),
    "oversight:flag-new": Case(write=STAFF, body=lambda w: {"report": w.failure_report.pk, "reason": "owner says not pumped"},
                               note="staff of B naming county A's report: the page says it is not theirs"),
    "oversight:categories": Case(read=STAFF | {AU, DS}, write=frozenset({DS}),
                                 body=lambda w: {"name": "Matrix category", "system_types": "mound", "above_gpd": "5000"}),
    "oversight:category-approve": Case(write=frozenset({DS}), body=lambda w: {"permit": w.permit.number, "category": "999999"},
                                       note="the department: no such category, the page says so"),
    "oversight:flag-application": Case(write=STAFF, body=lambda w: {"permit": w.permit.number, "by": "plumber",
                                                                   "reason": "bedrooms entered wrong", "evidence": "site visit"},
                                       note="staff of B naming county A's permit: the page says it is not theirs"),
    "oversight:flag-act": Case(write=STAFF_A, kwargs=lambda w: {"pk": w.flag.pk, "action": "evidence"}, a_object=True,
                               body=lambda w: {"what": "photo"}),
    "oversight:referral-new": Case(write=STAFF, body=lambda w: {"license": w.pumper_license.pk, "flags": str(w.flag.pk)}),
    "oversight:referral": Case(read=STAFF_A | {AU, DS}, kwargs=lambda w: {"pk": w.referral.pk}, a_object=True),
    "oversight:referral-outcome": Case(write=STAFF_A, kwargs=lambda w: {"pk": w.referral.pk}, a_object=True,
                                       body=lambda w: {"outcome": "warned", "on": _iso()}),
    "oversight:referral-packet": Case(read=STAFF_A | {AU, DS}, kwargs=lambda w: {"pk": w.referral.pk, "fmt": "csv"}, a_object=True),
    "oversight:license": Case(read=STAFF | {AU, DS}, kwargs=lambda w: {"pk": w.pumper_license.pk},
                              note="licences are the state's; staff see their own county's referrals of it"),
    "oversight:assessments": Case(read=STAFF),
    # Dane 46.12's random inspection of applications: the county's staff draw and inspect (Lincoln's staff are told
    # their ordinance has no such provision); another county's sample is a 404
    "oversight:application-samples": Case(read=STAFF, write=STAFF,
                                          body=lambda w: {"period_start": _iso(-5000), "period_end": _iso(-4000)},
                                          note="a period with no application: the page says why"),
    "oversight:application-sample": Case(read=STAFF_A | {AU, DS}, kwargs=lambda w: {"pk": w.app_sample.pk}, a_object=True),
    "oversight:application-inspect": Case(write=STAFF_A, kwargs=lambda w: {"pk": w.app_item.pk}, a_object=True,
                                          body=lambda w: {"outcome": "correct"}),
    "oversight-api-application-samples": Case(read=STAFF | {AU, DS}, write=STAFF, api=True,
                                              body=lambda w: {"period_start": _iso(-5000), "period_end": _iso(-4000)}),
    "oversight-api-application-sample": Case(read=STAFF_A | {AU, DS}, kwargs=lambda w: {"pk": w.app_sample.pk},
                                             a_object=True),
    "oversight-api-application-inspect": Case(write=STAFF_A, kwargs=lambda w: {"pk": w.app_item.pk}, a_object=True,
                                              api=True, body=lambda w: {"outcome": "correct"}),
    "oversight:inspection-reassign": Case(write=frozenset({AA}), kwargs=lambda w: {"pk": w.inspection.pk}, a_object=True,
                                          body=lambda w: {"to_user": w.users[SA].pk, "reason": "conflict of interest"}),
    "oversight-api-programs": Case(read=frozenset({AU, DS})),
    "oversight-api-audits": Case(read=STAFF | {AU, DS}, write=frozenset({DS}), api=True,
                                 body=lambda w: {"jurisdiction": "dane", "period_start": _iso(-3650), "period_end": _iso()}),
    "oversight-api-audit": Case(read=STAFF_A | {AU, DS}, kwargs=lambda w: {"pk": w.audit.pk}, a_object=True),
    "oversight-api-flags": Case(read=STAFF),
    "oversight-api-referral": Case(read=STAFF_A | {AU, DS}, kwargs=lambda w: {"pk": w.referral.pk}, a_object=True),
    "oversight-api-assessments": Case(read=STAFF),
    "oversight-api-categories": Case(read=STAFF | {AU, DS}, write=frozenset({DS}), api=True,
                                     body=lambda w: {"name": "Matrix category", "system_types": ["mound"]}),
    "oversight-api-act": [
        Case(write=frozenset({DS}), kwargs=lambda w: {"target": "samples", "pk": w.sample.pk, "action": "verify"}, a_object=True,
             api=True, body=lambda w: {"outcome": "satisfactory"}),
        Case(write=STAFF_A, kwargs=lambda w: {"target": "audits", "pk": w.audit.pk, "action": "respond"}, a_object=True,
             api=True, body=lambda w: {"response_text": "Retrained"}),
        Case(write=frozenset({DS}), kwargs=lambda w: {"target": "holds", "pk": w.hold.pk, "action": "lift"}, a_object=True,
             api=True, body=lambda w: {"note": "ok"}),
        Case(write=STAFF_A, kwargs=lambda w: {"target": "flags", "pk": w.flag.pk, "action": "evidence"}, a_object=True,
             api=True, body=lambda w: {"what": "photo"}),
        Case(write=STAFF, kwargs=lambda w: {"target": "licenses", "pk": w.pumper_license.pk, "action": "refer"}, api=True,
             body=lambda w: {"flags": [w.flag.pk]}),
        Case(write=STAFF_A, kwargs=lambda w: {"target": "referrals", "pk": w.referral.pk, "action": "outcome"}, a_object=True,
             api=True, body=lambda w: {"outcome": "warned"}),
        Case(write=frozenset({AA}), kwargs=lambda w: {"target": "inspections", "pk": w.inspection.pk, "action": "reassign"},
             a_object=True, api=True, body=lambda w: {"to_user": w.users[SA].pk, "reason": "conflict"}),
    ],
}
# Whole areas classified at once (a new URL there needs no entry): Django's admin.
PREFIXES: list[tuple[str, Case]] = [("admin/", ADMIN)]
# Values for URL parameters the table leaves out.
DEFAULT_KWARGS = {"format": "json", "object_id": "1", "content_type_id": "1", "app_label": "auth", "url": "nothing-here"}


# ---------------------------------------------------------------- the URL conf

@dataclass(frozen=True)
class Url:
    key: str  # "namespace:name", or the route when the pattern has no name
    route: str
    params: tuple[str, ...]


def url_conf() -> list[Url]:
    found = []

    def walk(patterns, prefix, namespace):
        for p in patterns:
            if isinstance(p, URLResolver):
                ns = ":".join(x for x in (namespace, p.namespace) if x) or None
                walk(p.url_patterns, prefix + str(p.pattern), ns)
            elif isinstance(p, URLPattern):
                route = prefix + str(p.pattern)
                key = (f"{namespace}:{p.name}" if namespace else p.name) if p.name else route
                found.append(Url(key, route, tuple(sorted(p.pattern.regex.groupindex))))

    walk(get_resolver().url_patterns, "", None)
    return found


def case_for(url: Url) -> list[Case] | None:
    if url.key in TABLE:
        entry = TABLE[url.key]
        return entry if isinstance(entry, list) else [entry]
    for prefix, case in PREFIXES:
        if url.route.startswith(prefix):
            return [case]
    return None


def unclassified(urls: list[Url]) -> list[Url]:
    return [u for u in urls if case_for(u) is None]


def build_path(route: str, kwargs: dict) -> str:
    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: str(kwargs[m[1]]), route)  # regex groups first: they hold <name> too
    path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(kwargs[m[1]]), path)
    return "/" + path.replace("^", "").replace("$", "").replace("/?", "/").replace("\\.", ".")


def test_every_url_is_in_the_table():
    """A URL in the URL conf without an entry in TABLE fails, naming the URL; so does a stale entry."""
    urls = url_conf()
    missing = unclassified(urls)
    assert not missing, "URLs with no entry in TABLE of tests/test_access_matrix.py (say which roles may read and write them):\n" + \
        "\n".join(f"  {u.key!r}  (/{u.route})" for u in missing)
    keys = {u.key for u in urls}
    stale = sorted(k for k in TABLE if k not in keys)
    assert not stale, f"TABLE entries no URL has any more: {stale}"


def test_a_new_url_without_an_entry_is_named():
    """The check above cannot pass silently: an unknown URL is reported by key and route."""
    new = Url("reports:brand-new", "reports/brand-new/", ())
    assert unclassified([*url_conf(), new]) == [new]


# ---------------------------------------------------------------- the world: county A with one of everything

@dataclass
class World:
    users: dict = field(default_factory=dict)
    marked: object = None
    permit: object = None
    inspection: object = None
    invoice: object = None
    change: object = None
    stage: str = ""
    failure_report: object = None
    pending_report: object = None
    complaint: object = None
    soil: object = None
    order: object = None
    variance: object = None
    granted_variance: object = None
    token: str = ""
    uploads: object = None
    component: object = None
    license: object = None
    invitee: object = None
    notice: object = None
    notice_batch: object = None
    due_system: object = None
    grant: object = None
    grant_file: object = None
    attachment: object = None
    report_photo: object = None
    complaint_photo: object = None
    participation: object = None
    allocation: object = None
    county_payment: object = None
    well_claim: object = None
    well_run: object = None
    claim_doc: object = None
    job: object = None


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, tmp_path_factory):
    """County A with one of everything, built once for the module (the services take most of a minute) inside a
    transaction rolled back when the module ends. Each URL's test runs in a savepoint of it, and each request in
    a savepoint of that, so every request meets the same records."""
    from django.test import override_settings
    from huey.contrib.djhuey import HUEY

    tmp_path = tmp_path_factory.mktemp("matrix")
    files = override_settings(MEDIA_ROOT=tmp_path / "media", STORAGES={**django_settings.STORAGES, "attachments": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": str(tmp_path / "attachments"), "base_url": "/nowhere/"}}})
    files.enable()
    immediate, HUEY.immediate = HUEY.immediate, True  # as conftest.py's per-test fixture does, for the build
    atomic, entered = transaction.atomic(), False
    try:
        with django_db_blocker.unblock():
            atomic.__enter__()
            entered = True
            built = _build_world(tmp_path, django_settings)
        yield built
    finally:
        if entered:
            with django_db_blocker.unblock():
                transaction.set_rollback(True)
                atomic.__exit__(None, None, None)
        HUEY.immediate = immediate
        files.disable()


@pytest.fixture
def attachment_dir():
    """Here the world's attachments stay where it stored them (conftest.py gives every other test its own)."""


def _build_world(tmp_path, settings) -> World:
    from powts.accounts.services import license_create, user_create
    from powts.inventory.models import Component, System
    from powts.inventory.services import system_create
    from powts.jurisdictions.services import jurisdiction_ensure
    from powts.maintenance import services as maint
    from powts.permits import demo as permits_demo
    from powts.permits import services as permits
    from powts.permits import selectors as permit_selectors
    from powts.permits.services import enforcement as enf
    from powts.permits.models import Complaint, CorrectionOrder, Permit, SoilEvaluation

    dane, lincoln = jurisdiction_ensure(slug="dane"), jurisdiction_ensure(slug="lincoln")
    w = World()

    def person(key, username, role, county=None, license=None):
        user = user_create(username=username, password="a-long-test-password", role=role, jurisdiction=county)
        if license:
            license_create(kind=license[0], number=license[1], holder_name=username.title(), user=user)
        w.users[key] = user

    person(SA, "staff", "county_staff", dane)
    person(SB, "staff-lincoln", "county_staff", lincoln)
    person(AA, "county-admin", "county_admin", dane)
    person(AU, "auditor", "state_auditor")
    person(PL, "plumber", "plumber", license=("master_plumber", "MP-222333"))
    person(PU, "pumper", "pumper", license=("septage_operator", "SSO-44556"))
    person(ST, "soiltester", "soil_tester", license=("soil_tester", "CST-1234"))
    person(OW, "owner", "owner")
    person(DS, "dsps", "dsps")
    person(DN, "dnr", "dnr")
    for i in range(10):
        system_create(jurisdiction=dane, system_id=f"DA-{i}", parcel_number=f"PA-{i}", system_type="conventional",
                      owner_name=f"Demo Owner {i}", site_address=f"{i} Main St", municipality="Town of Dunn",
                      installed_on=dt.date(2015, 5, 1))
    w.marked = system_create(jurisdiction=dane, system_id="MX-1", parcel_number="PMX-1", system_type="conventional",
                             owner_name=MARKER, owner_mailing_address="1 Marker Lane", site_address="1 Marker Lane",
                             installed_on=dt.date(2015, 5, 1))
    owner = w.marked.parcel.owner
    owner.user = w.users[OW]
    owner.save(update_fields=["user"])
    w.component = Component.objects.create(system=w.marked, kind="septic_tank", capacity_gallons=1000)
    w.license = w.users[PL].licenses.get()
    w.invitee = System.objects.get(jurisdiction=dane, system_id="DA-1").parcel.owner
    system_create(jurisdiction=dane, system_id="HT-1", parcel_number="PHT-1", system_type="holding_tank",
                  owner_name="Holly Tank", site_address="5 Tank Rd", installed_on=dt.date(2015, 5, 1))
    system_create(jurisdiction=lincoln, system_id="LI-1", parcel_number="PL-1", system_type="conventional",
                  owner_name="Lincoln Owner", installed_on=dt.date(2015, 5, 1))
    permits_demo.load(dane)  # one permit in each state, a soil evaluation, an order and a complaint, through the services
    w.permit = Permit.objects.filter(jurisdiction=dane, status="issued", inspections__isnull=False).first()
    assert w.permit.plumber.user == w.users[PL]
    w.inspection = w.permit.inspections.first()
    w.invoice = w.permit.invoices.first()
    w.stage = permit_selectors.stages_for(w.permit)[0].id
    w.change = permits.permit_request_change(permit=w.permit, kind="renewal", received_on=TODAY)
    w.complaint = Complaint.objects.filter(jurisdiction=dane).first()
    w.soil = SoilEvaluation.objects.filter(jurisdiction=dane).first()
    w.order = CorrectionOrder.objects.filter(jurisdiction=dane).first()
    w.variance = enf.variance_petition(system=System.objects.get(jurisdiction=dane, system_id="DA-8"), standard="siting",
                                       on=TODAY, reason="small lot")
    w.granted_variance = enf.variance_decide(variance=enf.variance_petition(
        system=System.objects.get(jurisdiction=dane, system_id="DA-9"), standard="design", on=TODAY), grant=True, on=TODAY)
    # The pumper reports on the marked system (which gives them no read access) and on one not in the inventory.
    w.failure_report = maint.report_submit(jurisdiction=dane, filed_by=w.users[PU], data=_report(
        work_date=_iso(-20), failure_observed="yes")).report
    w.pending_report = maint.report_submit(jurisdiction=dane, filed_by=w.users[PU], data=_report(
        system_id="NOT-YET-1", work_date=_iso(-20))).report
    assert w.failure_report.failure_flag and w.pending_report.review_status == "pending"
    # A notice sent to the marked system's owner, in a batch whose merged file is on disk.
    from django.utils import timezone

    from powts.maintenance.models import Notice, NoticeBatch

    maint.schedule_sync(jurisdiction=dane)
    w.due_system = System.objects.get(jurisdiction=dane, system_id="DA-0")  # installed 2015, never serviced: a reminder is due
    merged = tmp_path / "letters" / "batch.pdf"
    merged.parent.mkdir()
    merged.write_bytes(b"%PDF-1.4\n%%EOF\n")
    from powts.jobs.models import Job

    sent = Job.objects.create(kind="maintenance.notice_batch", title="Notice batch", jurisdiction=dane, state="done")
    w.notice_batch = NoticeBatch.objects.create(jurisdiction=dane, as_of=TODAY - dt.timedelta(days=7), job=sent,
                                                requested_at=timezone.now(), total=1, batch="dane-matrix", merged_path=str(merged))
    w.notice = Notice.objects.create(jurisdiction=dane, system=w.marked, owner=owner, kind="first_notice", due_on=dt.date(2018, 5, 1),
                                     as_of=TODAY - dt.timedelta(days=7), sent_at=timezone.now(), batch="dane-matrix", to_name=MARKER,
                                     to_address="1 Marker Lane\nVerona, WI 53593", citation="SPS 383.255")
    from powts.attachments.services import attachment_add

    w.attachment = attachment_add(record=w.permit, kind="plan", upload=_pdf(), uploaded_by=w.users[PL])
    w.report_photo = attachment_add(record=w.failure_report, kind="photo", upload=_jpeg(), uploaded_by=w.users[PU])
    w.complaint_photo = attachment_add(record=w.complaint, kind="photo", upload=_jpeg(), public=True)
    # The Wisconsin Fund program: county A certified and applied for 2026-27, DSPS allocated and paid A.
    from powts.grants import allocating, participation
    from powts.grants.tests.program_helpers import application

    application(dane, table="5000")
    participation.certify(jurisdiction=dane, fiscal_year="2026-27", user=w.users[SA], official_title="Sanitarian")
    w.participation = participation.submit(jurisdiction=dane, fiscal_year="2026-27", user=w.users[SA],
                                           received_on=dt.date(2026, 1, 15))
    w.allocation = allocating.run_allocation(fiscal_year="2026-27", funds_cents=1_000_000, user=w.users[DS])
    w.county_payment = allocating.pay_county(run=w.allocation, jurisdiction=dane, user=w.users[DS],
                                             paid_on=dt.date(2026, 7, 10))
    # A decided grant application on the marked system (eligible, so another may be filed), with a tax return.
    from powts.grants import services as grants

    failing = enf.failure_determine(system=w.marked, conditions=["b"], on=TODAY - dt.timedelta(days=30), basis="order")
    w.grant = grants.application_create(by=w.users[SA], failure_determination=failing, applied_on=TODAY, source="paper",
                                        annual_family_income=3_000_000, income_tax_year=failing.determined_on.year - 1,
                                        income_evidence="prior_year_return", funding_table_amount=520_000)
    grants.application_decide(application=w.grant, by=w.users[SA])
    w.grant_file = attachment_add(record=w.grant, kind="income_evidence", upload=_pdf("return.pdf"), uploaded_by=w.users[OW])
    # DNR's well claim (incomplete: no affidavit yet), on a supply in county A, with a document, and a payment run.
    from powts.wells import services as wells

    w.well_claim = wells.claim_create(data={
        "id": "WC-1", "supply_id": "WS-1", "claimant_type": "landowner", "supply_use": "residential", "well_kind": "drilled",
        "dwelling_units": 1, "sample_dates": "2024-01-01;2024-01-15", "lab_certified": True, "annual_family_income": "30000",
        "eligible_costs": "8000", "claimed_on": "2024-02-01", "tax_returns_on": "2024-02-01"})
    w.well_claim.supply.jurisdiction = dane
    w.well_claim.supply.save()
    w.claim_doc = attachment_add(record=w.well_claim, kind="other", upload=_pdf("returns.pdf"), uploaded_by=w.users[DN])
    w.well_run = wells.payment_run(funds=0, on=TODAY)
    # Oversight: an audit of county A with a requested response, a hold and an exemption, a flagged report
    # referred to its licensing agency (and a second flag still open).
    from powts.oversight import services as oversight

    w.dane = dane
    w.audit = oversight.audit_draw_sample(jurisdiction=dane, period_start=TODAY - dt.timedelta(days=3650), period_end=TODAY,
                                          on=TODAY, seed=1)
    for sample in w.audit.samples.all():
        oversight.sample_verify(sample=sample, outcome="satisfactory", verified_on=TODAY)
    oversight.audit_request_response(audit=w.audit, on=TODAY, request_text="Explain")
    w.audit2 = oversight.audit_draw_sample(jurisdiction=dane, period_start=TODAY - dt.timedelta(days=3650), period_end=TODAY,
                                           on=TODAY, seed=2)
    w.sample = w.audit2.samples.first()
    w.hold = oversight.hold_place(jurisdiction=dane, on=TODAY, reason="matrix")
    w.exemption = oversight.exemption_grant(jurisdiction=dane, category="Holding tanks", grounds="audits", on=TODAY - dt.timedelta(days=60))
    # s. 145.20(3)(a)2.: the revocation hearing noticed 30 days ahead and held, so the department may revoke today
    oversight.exemption_hearing_notice(exemption=w.exemption, noticed_on=TODAY - dt.timedelta(days=40),
                                       hearing_on=TODAY - dt.timedelta(days=5), clerk="Dane County Clerk")
    w.new_exemption = oversight.exemption_grant(jurisdiction=dane, category="Mounds", grounds="audits", on=TODAY)
    w.pumper_license = w.users[PU].licenses.get()
    referred = oversight.report_flag(report=w.pending_report, reason="matrix", evidence=["statement"], on=TODAY)
    w.referral = oversight.referral_make(license=w.pumper_license, flags=[referred], on=TODAY)
    w.flag = oversight.report_flag(report=w.failure_report, reason="matrix", evidence=["photo"], on=TODAY)
    from powts.oversight import random_inspections

    w.app_sample = random_inspections.draw(jurisdiction=dane, period_start=TODAY - dt.timedelta(days=3650), period_end=TODAY,
                                           on=TODAY, seed=3)
    w.app_item = w.app_sample.items.first()
    # Staff of A previewed an inventory file: the token for confirm and rejects.
    c = Client()
    c.force_login(w.users[SA])
    w.token = c.post("/inventory/import/", {"file": _csv(INVENTORY_CSV)}).context["token"]
    w.uploads = settings.MEDIA_ROOT / "imports"
    from powts.jobs.models import Job

    w.job = Job.objects.create(kind="inventory.import", title="Import of file.csv", jurisdiction=dane, started_by=w.users[SA],
                               state="failed", error="Another import of Dane County is running.",
                               params={"token": w.token, "suffix": ".csv", "name": "file.csv"})
    shutil.copytree(w.uploads, tmp_path / "uploads-as-previewed")
    return w


# ---------------------------------------------------------------- the matrix

COUNTED = [m for m in apps.get_models() if m._meta.app_label not in ("sessions", "admin") and m._meta.managed
           and not m._meta.proxy]
TEXT_TYPES = ("text/", "application/json", "application/geo+json")


def fingerprint() -> tuple[int, ...]:
    """Row counts of every table (audit events among them: an audited change shows here too), in one query."""
    from django.db import connection

    quote = connection.ops.quote_name
    counts = ", ".join(f"(SELECT COUNT(*) FROM {quote(m._meta.db_table)})" for m in COUNTED)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {counts}")
        return tuple(cursor.fetchone())


@contextlib.contextmanager
def rolled_back():
    sid = transaction.savepoint()
    try:
        yield
    finally:
        transaction.savepoint_rollback(sid)


def to_login(response) -> bool:
    """Sent to sign in first (Django's login_required and the admin add ?next=; a sign-out's redirect does not)."""
    location = response.get("Location", "")
    return response.status_code in (301, 302, 303) and "/login/" in location and "next=" in location


def send(client: Client, case: Case, path: str, world: World, method: str):
    if method == "get":
        return client.get(path)
    body = case.body(world)
    if case.api:
        return getattr(client, case.method)(path, body, content_type="application/json")
    if case.method == "post":
        return client.post(path, body)
    return getattr(client, case.method)(path, body, content_type="application/x-www-form-urlencoded")


def _shows_marker(response) -> bool:
    if not 200 <= response.status_code < 300 or not response.get("Content-Type", "").startswith(TEXT_TYPES):
        return False
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return MARKER.encode() in content


def check(role: str, case: Case, method: str, response, changed: bool) -> str | None:
    """What is wrong with this answer, or None."""
    status = response.status_code
    if status >= 500:
        return f"{status} server error"
    if role not in (SYSTEM_READERS | {SA}) and _shows_marker(response):
        return f"{status}: shows the owner's name of county A's system MX-1"
    if case.a_object and role == SB and status not in (403, 404, 405):
        return f"{status}: staff of county B must get 403/404 on county A's record"
    allowed = case.read if method == "get" else case.write
    if role in allowed:
        if method == "get" and status != 200:
            return f"{status}: a reader should get 200"
        if method != "get" and (status in (401, 403) or to_login(response)):
            return f"{status}: a writer was refused"
        return None
    if method == "get":
        refused = not 200 <= status < 300  # a redirect serves nothing itself
    else:
        refused = status in (401, 403, 404, 405) or to_login(response)
    if not refused:
        return f"{status}: not allowed to {'read' if method == 'get' else 'write'}, yet not refused (401/403/404/405)"
    if changed:
        return f"{status}: refused, yet the write changed the database"
    return None


@pytest.fixture
def quiet_refusals():
    """Some 1,700 refusals would each log a warning (and 403s a traceback): only server errors are logged."""
    logger = logging.getLogger("django.request")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


URLS = {url.key: url for url in url_conf()}


@pytest.mark.parametrize("key", sorted(URLS))
def test_each_role_reads_and_writes_only_what_it_may(key, world, db, quiet_refusals):
    """One URL pattern, every role, GET and its write: each answer checked against the URL's entry in TABLE. A
    failure names the request, the role and what was wrong."""
    url = URLS[key]
    cases = case_for(url)
    assert cases is not None, f"{url.key} (/{url.route}) is not in TABLE: say which roles may read and write it"
    clients = {}
    for role in ROLES:
        clients[role] = Client(raise_request_exception=False)
        if role != AN:
            clients[role].force_login(world.users[role])
    failures, pairs = [], 0
    for case in cases:
        query = case.query(world) if callable(case.query) else case.query
        path = build_path(url.route, {**DEFAULT_KWARGS, **case.kwargs(world)}) + query
        for role in ROLES:
            for method in ("get", case.method):
                with rolled_back():
                    before = fingerprint() if method != "get" else None
                    response = send(clients[role], case, path, world, method)
                    changed = method != "get" and fingerprint() != before
                pairs += 1
                problem = check(role, case, method, response, changed)
                if problem:
                    failures.append(f"{method.upper():5} {path:55} {role:12} {problem}")
                if url.key.startswith("inventory:import"):  # files are not rolled back: put the preview back
                    shutil.rmtree(world.uploads)
                    shutil.copytree(world.uploads.parent.parent / "uploads-as-previewed", world.uploads)
                if method != "get" and url.key in ("logout", "admin:logout") and role != AN:
                    clients[role].force_login(world.users[role])  # signed out by the write: sign in again
    assert not failures, f"{len(failures)} of {pairs} role-by-URL requests are wrong:\n" + "\n".join(failures)


def test_matrix_catches_a_leak():
    """The matrix's checks can fail: a refused write that changed a table, a 2xx to a non-reader, the owner's name shown."""
    from django.http import HttpResponse

    case = Case(read=STAFF_A)
    assert check(PU, case, "get", HttpResponse(f"<p>{MARKER}</p>"), False).endswith("system MX-1")
    assert "not refused" in check(PU, case, "get", HttpResponse("ok"), False)
    assert "changed the database" in check(PU, case, "post", HttpResponse(status=403), True)
    assert check(SA, case, "get", HttpResponse("ok"), False) is None
