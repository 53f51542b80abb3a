"""Demo permits for a demo county: `load(jurisdiction)` after `powts demo` made its people and inventory.

One permit in each interesting state, dated relative to today, every step through the services (so
each is validated and audited like real work). Idempotent: a county that has permits is left alone.
"""
from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from powts.accounts.models import License, User
from powts.audit.choices import Channel
from powts.audit.context import acting
from powts.audit.services import audit_update, snapshot
from powts.core.demo_people import demo_name
from powts.inventory.models import System
from powts.permits import rules, selectors, services
from powts.permits.models import Permit
from powts.permits.services import enforcement as enf
from powts.permits.services import site

PLAN = {"type": "FeatureCollection", "features": [
    {"type": "Feature", "properties": {"kind": "lot_line", "name": "Lot"},
     "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [200, 0], [200, 300], [0, 300], [0, 0]]]}},
    {"type": "Feature", "properties": {"kind": "dwelling", "name": "House"},
     "geometry": {"type": "Polygon", "coordinates": [[[60, 200], [110, 200], [110, 240], [60, 240], [60, 200]]]}},
    {"type": "Feature", "properties": {"kind": "well", "name": "Well"}, "geometry": {"type": "Point", "coordinates": [30, 280]}},
    {"type": "Feature", "properties": {"kind": "treatment_tank", "name": "Septic tank"},
     "geometry": {"type": "Polygon", "coordinates": [[[75, 170], [95, 170], [95, 180], [75, 180], [75, 170]]]}},
    {"type": "Feature", "properties": {"kind": "dispersal_area", "name": "Mound"},
     "geometry": {"type": "Polygon", "coordinates": [[[60, 40], [140, 40], [140, 100], [60, 100], [60, 40]]]}},
    {"type": "Feature", "properties": {"kind": "replacement_area", "name": "Replacement area"},
     "geometry": {"type": "Polygon", "coordinates": [[[150, 40], [190, 40], [190, 100], [150, 100], [150, 40]]]}},
]}
DOCS = ["system_plans", "soil_report", "construction_details", "maintenance_agreement"]


def _pay(permit, on):
    for inv in permit.invoices.all():
        if inv.balance > 0:
            services.payment_record(invoice=inv, amount=inv.balance, received_on=on, reference="demo check")


def load(jurisdiction, *, today: dt.date | None = None) -> int:
    """Create the demo permits; returns how many. Needs the demo plumber and some inventory."""
    slug = jurisdiction.slug
    if Permit.objects.filter(jurisdiction=jurisdiction).exists():
        return 0
    plumber = License.objects.filter(user__username=demo_name("plumber", slug), kind="master_plumber").first()
    staff = User.objects.filter(username=demo_name("staff", slug)).first()
    tester = License.objects.filter(user__username=demo_name("soiltester", slug), kind="soil_tester").first()
    systems = list(System.objects.filter(jurisdiction=jurisdiction).select_related("parcel__owner").order_by("id")[:10])
    if plumber is None or len(systems) < 8:
        return 0
    today = today or timezone.localdate()
    with acting(channel=Channel.CLI, actor_label="powts demo permits"), transaction.atomic():
        made = []

        def file(i, *, days_ago, complete=True, **kw):
            system = systems[i]
            parcel = system.parcel
            if complete and not parcel.legal_description:  # the demo inventory has none; some counties require one
                before = snapshot(parcel, ["legal_description"])
                parcel.legal_description = f"Lot {i + 1}, Certified Survey Map {4000 + i}"
                parcel.save(update_fields=["legal_description"])
                audit_update(parcel, before=before, action="demo: legal description for a permit application")
            on = today - dt.timedelta(days=days_ago)
            fields = dict(building_use="single-family dwelling", lot_dimensions="200 x 300 ft",
                          reference_points="Benchmark: iron pipe at the NE lot corner", estimated_daily_flow_gpd=300,
                          design_flow_gpd=450, bedrooms=3, plans_signed=True, system=system, work="replacement")
            fields.update(kw)
            if not complete:
                fields = {"building_use": "single-family dwelling", "system": system}
            permit = services.permit_file(jurisdiction=jurisdiction, parcel=parcel, owner=parcel.owner, plumber=plumber,
                                          filed_on=on, plot_plan=PLAN if complete else None,
                                          documents=[{"kind": k, "received_on": on} for k in (DOCS if complete else DOCS[:1])],
                                          **fields)
            made.append(permit)
            return permit, on

        # 1. an application missing parts
        file(0, days_ago=3, complete=False)
        # 2. complete, fee paid, awaiting review
        p, on = file(1, days_ago=5)
        _pay(p, on)
        # 3. held for correction
        p, on = file(2, days_ago=20, complete=False)
        services.permit_hold(permit=p, on=on + dt.timedelta(days=2), respond_by=on + dt.timedelta(days=30))
        # 4. issued, an inspection requested and assigned
        p, on = file(3, days_ago=60, system_type="mound")
        _pay(p, on)
        services.permit_approve(permit=p, on=on + dt.timedelta(days=7))
        p = services.permit_issue(permit=p, on=on + dt.timedelta(days=8))
        stage = selectors.stages_for(p)[0].id
        insp = services.inspection_request(permit=p, stage=stage, notice_at=timezone.now())
        if staff:
            services.inspection_assign(inspection=insp, inspector=staff)
        # 5. installed and approved
        p, on = file(4, days_ago=200)
        _pay(p, on)
        services.permit_approve(permit=p, on=on + dt.timedelta(days=5))
        p = services.permit_issue(permit=p, on=on + dt.timedelta(days=6))
        for s in selectors.stages_for(p):
            if s.optional:
                continue
            notice = timezone.make_aware(dt.datetime.combine(on + dt.timedelta(days=30), dt.time(7, 0)))
            i = services.inspection_request(permit=p, stage=s.id, notice_at=notice)
            services.inspection_record(inspection=i, result="passed", on=i.requested_day)
            on = i.requested_day
        services.permit_final_approve(permit=p, on=on)
        # 6. denied, with the written notice (and an appeal, where the county names an appeal body)
        p, on = file(5, days_ago=40)
        notice = services.permit_deny(permit=p, on=on + dt.timedelta(days=10), reasons=["Dispersal area is in the driveway"],
                                      amendments=["Move the dispersal area at least 5 ft from the driveway and lot line"])
        if rules.section(slug, "appeals").get("body"):
            appeal = services.appeal_file(permit=p, filed_on=on + dt.timedelta(days=15), appellant=p.owner.name,
                                          notice=notice)
            services.appeal_schedule(appeal=appeal, hearing_on=today + dt.timedelta(days=14))
        # 7. issued long ago and now past its expiry date
        p, on = file(6, days_ago=2 * 365 + 40)
        _pay(p, on)
        services.permit_approve(permit=p, on=on + dt.timedelta(days=1))
        services.permit_issue(permit=p, on=on + dt.timedelta(days=2))
        services.permits_expire(today=today, jurisdiction=jurisdiction)
        # 8. new construction on a parcel not yet in the inventory (pending until staff confirm it), amended once
        from powts.inventory.pending import parcel_create_pending
        from powts.inventory.services import owner_get_or_create

        on = today - dt.timedelta(days=2)
        owner = owner_get_or_create(jurisdiction=jurisdiction, name="Nia Newhouse", mailing_address="9 Elm St",
                                    action="demo: owner named in a permit application")
        parcel = parcel_create_pending(jurisdiction=jurisdiction, parcel_number="NEW-0001", site_address="4410 Meadow Lane",
                                       municipality=systems[0].parcel.municipality or "Town of Verona",
                                       legal_description="Lot 3, Certified Survey Map 16001", owner=owner,
                                       cause="demo: named in a permit application")
        p = services.permit_file(jurisdiction=jurisdiction, parcel=parcel, owner=owner, plumber=plumber, filed_on=on,
                                 plot_plan=PLAN, documents=[{"kind": k, "received_on": on} for k in DOCS],
                                 building_use="single-family dwelling", lot_dimensions="200 x 300 ft", work="new system",
                                 reference_points="Benchmark: iron pipe at the NE lot corner", estimated_daily_flow_gpd=300,
                                 design_flow_gpd=450, bedrooms=3, plans_signed=True)
        services.permit_amend(permit=p, data={"bedrooms": 4, "design_flow_gpd": 600}, on=today,
                              reason="the owner added a bedroom")
        made.append(p)
        # 9. approved; the documents the county requires recorded are on file, their recording not yet verified
        if len(systems) > 8:
            p, on = file(8, days_ago=15, frequent_servicing=True)
            _pay(p, on)
            p = services.permit_approve(permit=p, on=on + dt.timedelta(days=5))
            for r in selectors.recordings(p):
                if r["document"] is None:
                    services.permit_add_document(permit=p, kind=r["kind"], received_on=on + dt.timedelta(days=6),
                                                 recorded=True, title="copy from the register of deeds")
        # a soil evaluation, a failing system with its order, and a complaint
        if tester:
            site.soil_evaluation_file(jurisdiction=jurisdiction, parcel=systems[1].parcel, soil_tester=tester,
                                      fieldwork_completed_on=today - dt.timedelta(days=12), filed_on=today - dt.timedelta(days=10),
                                      areas=[{"name": "Primary", "pits": 3, "depth_below_infiltrative_in": 36, "suitable_soil_in": 40},
                                             {"name": "Replacement", "replacement": True, "pits": 3,
                                              "depth_below_infiltrative_in": 36, "suitable_soil_in": 38}])
        failing = systems[7]
        det = enf.failure_determine(system=failing, conditions=["d"], on=today - dt.timedelta(days=14), basis="order",
                                    notes="Effluent surfacing over the drainfield (complaint)")
        enf.correction_order_issue(system=failing, determination=det, on=today - dt.timedelta(days=14),
                                   correct_by=today + dt.timedelta(days=120), requirement="Replace the soil absorption system")
        enf.complaint_create(jurisdiction=jurisdiction, service_code="failing-septic",
                             description="Sewage smell and wet ground next door", address=failing.parcel.site_address or "unknown")
        return len(made)


def load_variances(jurisdiction, *, today: dt.date | None = None) -> str:
    """Demo variances (Wis. Stat. s. 145.24) for DSPS to decide: the demo owner's petition, one the county sent
    for an owner, and one already granted (to rescind). Idempotent: a county with variances is left alone."""
    from powts.permits.models import Variance

    if Variance.objects.filter(jurisdiction=jurisdiction).exists():
        return "already loaded"
    systems = list(System.objects.filter(jurisdiction=jurisdiction).select_related("parcel__owner").order_by("id")[:3])
    if len(systems) < 3:
        return "no inventory"
    today = today or timezone.localdate()
    owner = User.objects.filter(username=demo_name("owner", jurisdiction.slug)).first()
    staff = User.objects.filter(username=demo_name("staff", jurisdiction.slug)).first()
    with acting(channel=Channel.CLI, actor_label="powts demo variances"), transaction.atomic():
        enf.variance_petition(system=systems[0], standard="siting", on=today - dt.timedelta(days=20),
                              reason="The mound sits 20 inches above seasonal saturation; it has worked since 1998.", by=owner)
        enf.variance_petition(system=systems[1], standard="design", on=today - dt.timedelta(days=12),
                              reason="The tank is 750 gallons for a 2-bedroom home.", by=staff)
        granted = enf.variance_petition(system=systems[2], standard="siting", on=today - dt.timedelta(days=90), by=staff)
        enf.variance_decide(variance=granted, grant=True, on=today - dt.timedelta(days=60),
                            reason="Not failing; no threat to waters of the state found on inspection.")
    return "3 variances"
