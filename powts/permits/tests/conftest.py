"""Fixtures: a parcel and owner in each county, licensed people, and complete applications."""
import datetime as dt
from decimal import Decimal

import pytest

from powts.accounts.services import license_create
from powts.inventory.models import Owner, Parcel
from powts.permits import services

D = dt.date


@pytest.fixture
def county(request, dane, lincoln):
    """Parametrise with indirect=["county"] and "dane"/"lincoln"."""
    return {"dane": dane, "lincoln": lincoln}[request.param]


def make_parcel(jurisdiction, number="0810-123-4567-0", owner_name="Pat Owner"):
    owner = Owner.objects.create(jurisdiction=jurisdiction, name=owner_name, mailing_address="1 Main St")
    parcel = Parcel.objects.create(jurisdiction=jurisdiction, parcel_number=number, legal_description="Lot 7, CSM 1234",
                                   site_address="123 County Rd", owner=owner)
    return parcel, owner


@pytest.fixture
def plumber_user(make_user):
    return make_user("pete", "plumber", first_name="Pete", last_name="Plumber")


@pytest.fixture
def master(plumber_user):
    return license_create(kind="master_plumber", number="MP-1001", holder_name="Pete Plumber", user=plumber_user)


@pytest.fixture
def master2(db):
    return license_create(kind="master_plumber_restricted", number="MPRS-2002", holder_name="Rita Restricted")


@pytest.fixture
def journeyman(db):
    return license_create(kind="journeyman_plumber", number="JP-3003", holder_name="Jo Journeyman")


COMPLIANT_PLAN = {"type": "FeatureCollection", "features": [
    {"type": "Feature", "properties": {"kind": "lot_line", "name": "Lot"},
     "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [200, 0], [200, 300], [0, 300], [0, 0]]]}},
    {"type": "Feature", "properties": {"kind": "dwelling", "name": "House"},
     "geometry": {"type": "Polygon", "coordinates": [[[60, 200], [110, 200], [110, 240], [60, 240], [60, 200]]]}},
    {"type": "Feature", "properties": {"kind": "dispersal_area", "name": "Mound"},
     "geometry": {"type": "Polygon", "coordinates": [[[60, 40], [140, 40], [140, 100], [60, 100], [60, 40]]]}},
]}

BAD_PLAN = {"type": "FeatureCollection", "features": [
    {"type": "Feature", "properties": {"kind": "lot_line", "name": "Lot"},
     "geometry": {"type": "LineString", "coordinates": [[0, -100], [0, 100]]}},
    {"type": "Feature", "properties": {"kind": "dispersal_area", "name": "Field"},
     "geometry": {"type": "Polygon", "coordinates": [[[3, 0], [23, 0], [23, 20], [3, 20], [3, 0]]]}},
]}

DOCS = {
    "dane": ["system_plans", "soil_report", "construction_details"],
    "lincoln": ["system_plans", "soil_report", "maintenance_agreement"],
}


def file_complete(jurisdiction, plumber, *, filed_on=D(2026, 3, 2), pay=True, system_type="standard", extra_docs=(), **extra):
    parcel, owner = make_parcel(jurisdiction, number=f"P-{filed_on.isoformat()}-{system_type}-{Parcel.objects.count()}")
    fields = dict(building_use="single-family dwelling", lot_dimensions="200 x 300 ft", reference_points="Benchmark: iron pipe NE corner",
                  estimated_daily_flow_gpd=300, design_flow_gpd=450, bedrooms=3, plans_signed=True, system_type=system_type)
    fields.update(extra)
    permit = services.permit_file(jurisdiction=jurisdiction, parcel=parcel, owner=owner, plumber=plumber, filed_on=filed_on,
                                  plot_plan=COMPLIANT_PLAN,
                                  documents=[{"kind": k, "received_on": filed_on} for k in [*DOCS[jurisdiction.slug], *extra_docs]], **fields)
    if pay:
        for inv in permit.invoices.all():
            services.payment_record(invoice=inv, amount=inv.amount, received_on=filed_on, reference="1001")
    return permit


def issue(jurisdiction, plumber, *, issued_on=D(2026, 4, 1), **kw):
    permit = file_complete(jurisdiction, plumber, **kw)
    services.permit_approve(permit=permit, on=issued_on)
    services.permit_issue(permit=permit, on=issued_on)
    permit.refresh_from_db()
    return permit


def pay_all(permit, on):
    for inv in permit.invoices.all():
        if inv.balance > Decimal("0"):
            services.payment_record(invoice=inv, amount=inv.balance, received_on=on, reference="chk")
