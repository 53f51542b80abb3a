import datetime as dt

import pytest


@pytest.fixture
def make_system(dane):
    from powts.inventory.services import system_create

    def make(system_id="DA-1", system_type="conventional", installed_on=dt.date(2020, 6, 1), jurisdiction=None, owner="Olive Owner",
             address="12 Lake Rd, Verona, WI 53593", municipality="Town of Verona", **kw):
        return system_create(jurisdiction=jurisdiction or dane, system_id=system_id, parcel_number=f"P-{system_id}",
                             system_type=system_type, owner_name=owner, owner_mailing_address=address,
                             site_address="12 Lake Rd", municipality=municipality, installed_on=installed_on, **kw)

    return make


@pytest.fixture
def pumper_license(make_user):
    from powts.accounts.services import license_create

    user = make_user("perry", "pumper")
    return license_create(kind="septage_operator", number="SSO-1", holder_name="Perry Pumper", user=user)


@pytest.fixture
def plumber_license(make_user):
    from powts.accounts.services import license_create

    user = make_user("pat", "plumber")
    return license_create(kind="master_plumber", number="MP-1", holder_name="Pat Plumber", user=user)


@pytest.fixture
def soil_license(make_user):
    from powts.accounts.services import license_create

    return license_create(kind="soil_tester", number="CST-1", holder_name="Sol Tester")
