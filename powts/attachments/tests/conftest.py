"""A county with a permit (its plumber signed in), a maintenance report (its pumper) and a public
complaint; attachments stored in a temporary directory."""
import datetime as dt

import pytest

D = dt.date


def stored_files(path) -> list:
    return sorted(p for p in path.rglob("*") if p.is_file()) if path.exists() else []


@pytest.fixture
def people(make_user, dane, lincoln):
    from powts.accounts.services import license_create

    p = {
        "staff": make_user("sam", "county_staff", dane),
        "staff_b": make_user("lin", "county_staff", lincoln),
        "plumber": make_user("pete", "plumber"),
        "other_plumber": make_user("otto", "plumber"),
        "pumper": make_user("puck", "pumper"),
        "owner": make_user("olive", "owner"),
        "auditor": make_user("audrey", "state_auditor"),
    }
    p["license"] = license_create(kind="master_plumber", number="MP-1001", holder_name="Pete Plumber", user=p["plumber"])
    license_create(kind="master_plumber", number="MP-2002", holder_name="Otto Other", user=p["other_plumber"])
    license_create(kind="septage_operator", number="SSO-7", holder_name="Puck Pumper", user=p["pumper"])
    return p


@pytest.fixture
def permit(people, dane):
    from powts.inventory.models import Owner, Parcel
    from powts.permits import services

    owner = Owner.objects.create(jurisdiction=dane, name="Pat Owner", mailing_address="1 Main St")
    parcel = Parcel.objects.create(jurisdiction=dane, parcel_number="0810-123-4567-0", site_address="123 County Rd",
                                   owner=owner)
    return services.permit_file(jurisdiction=dane, parcel=parcel, owner=owner, plumber=people["license"],
                                filed_on=dt.date.today(), filed_by=people["plumber"], building_use="single-family dwelling")


@pytest.fixture
def report(people, dane):
    from powts.inventory.services import system_create
    from powts.maintenance import services as maint

    system = system_create(jurisdiction=dane, system_id="DA-1", parcel_number="PA-1", system_type="conventional",
                           owner_name="Olive Owner", site_address="1 Main St", installed_on=D(2015, 5, 1))
    owner = system.parcel.owner
    owner.user = people["owner"]
    owner.save(update_fields=["user"])
    return maint.report_submit(jurisdiction=dane, filed_by=people["pumper"], data={
        "system_id": "DA-1", "kind": "pumping", "work_date": (dt.date.today() - dt.timedelta(days=2)).isoformat(),
        "license_number": "SSO-7", "gallons_pumped": "900"}).report


@pytest.fixture
def complaint(dane):
    from powts.permits.services import enforcement as enf

    return enf.complaint_create(jurisdiction=dane, service_code="failing-septic", description="Wet ground",
                                address="1 Main St")
